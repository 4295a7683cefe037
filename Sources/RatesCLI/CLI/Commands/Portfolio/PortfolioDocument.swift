import RateCore

/// `rates portfolio --json`: every figure with the source and date of its price.
struct PortfolioDocument: Encodable {
  struct Holding: Encodable {
    var symbol: String
    var quantity: Double
    @NullEncoded var rate: Double?
    @NullEncoded var rateDate: Day?
    @NullEncoded var source: String?
    @NullEncoded var detail: String?
    var stale: Bool
    var value: Double
    @NullEncoded var previousRate: Double?
    @NullEncoded var previousDate: Day?
    @NullEncoded var change: Double?
    var sharePercent: Double
    var cost: Double
    var unrealized: Double
    var realized: Double
    var putIn: Double
  }

  struct Totals: Encodable {
    var value: Double
    var change: Double
    var cost: Double
    var unrealized: Double
    var realized: Double
    var moneyIn: Double
    var moneyOut: Double
  }

  var quote: String
  var date: Day
  var method: String
  var costRule = "each acquisition at its own day's price"
  var fetchedAt: Date
  var stale: Bool
  var holdings: [Holding]
  var totals: Totals

  init(_ report: PortfolioReport, fetchedAt: Date) {
    quote = report.currency
    date = report.asOf
    method = report.method.rawValue
    self.fetchedAt = fetchedAt
    stale = report.holdings.contains { $0.price?.stale == true }
    holdings = report.holdings.map { holding in
      Holding(
        symbol: holding.code, quantity: holding.quantity, rate: holding.price?.rate,
        rateDate: holding.price?.date, source: holding.price?.source,
        detail: holding.price?.detail, stale: holding.price?.stale ?? false, value: holding.value,
        previousRate: holding.previousPrice?.rate, previousDate: holding.previousPrice?.date,
        change: holding.change24h, sharePercent: report.share(of: holding) * 100,
        cost: holding.cost, unrealized: holding.unrealized, realized: holding.realized,
        putIn: holding.putIn)
    }
    totals = Totals(
      value: report.value, change: report.change24h, cost: report.cost,
      unrealized: report.unrealized, realized: report.realized, moneyIn: report.moneyIn,
      moneyOut: report.moneyOut)
  }
}
