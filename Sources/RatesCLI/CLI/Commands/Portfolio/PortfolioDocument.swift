import RateCore

/// `rates portfolio --json`: every figure with the source and date of its price; the
/// computed figures as ``PortfolioReport/written(_:)`` rounds them.
struct PortfolioDocument: Encodable {
  struct Holding: Encodable {
    var symbol: CurrencyCode
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

  var quote: CurrencyCode
  var date: Day
  var method: String
  var costRule = "each acquisition at its own day's price"
  var fetchedAt: Date
  var stale: Bool
  var holdings: [Holding]
  var totals: PortfolioReport.WrittenTotals

  init(_ report: PortfolioReport, fetchedAt: Date) {
    quote = report.currency
    date = report.asOf
    method = report.method.rawValue
    self.fetchedAt = fetchedAt
    stale = report.holdings.contains { $0.price?.stale == true }
    holdings = report.holdings.map { holding in
      let figures = report.written(holding)
      return Holding(
        symbol: holding.code, quantity: figures.quantity, rate: figures.rate,
        rateDate: holding.price?.date, source: holding.price.map { $0.source?.name ?? "" },
        detail: holding.price?.detail, stale: holding.price?.stale ?? false, value: figures.value,
        previousRate: holding.previousPrice?.rate, previousDate: holding.previousPrice?.date,
        change: figures.change, sharePercent: figures.sharePercent, cost: figures.cost,
        unrealized: figures.unrealized, realized: figures.realized, putIn: figures.putIn)
    }
    totals = report.writtenTotals
  }
}
