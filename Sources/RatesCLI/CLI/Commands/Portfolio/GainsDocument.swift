import RateCore

/// `rates portfolio gains --json`: every disposal with the lots it was matched to, the income,
/// the totals per asset and for the period; figures as ``GainsReport/written(_:)`` rounds them.
struct GainsDocument: Encodable {
  struct Lot: Encodable {
    var acquired: Day
    var quantity: Double
    var cost: Double
  }

  struct Disposal: Encodable {
    var date: Day
    var symbol: CurrencyCode
    var kind: String
    var term: String
    var quantity: Double
    var proceeds: Double
    var fee: Double
    var cost: Double
    var gain: Double
    var entry: Int
    var lots: [Lot]
  }

  struct Income: Encodable {
    var date: Day
    var symbol: CurrencyCode
    var quantity: Double
    var value: Double
    var entry: Int
    var note: String
  }

  struct Asset: Encodable {
    var symbol: CurrencyCode
    var totals: GainsReport.Totals
  }

  var quote: CurrencyCode
  var firstDay: Day
  var lastDay: Day
  var method: String
  var fetchedAt: Date
  var stale: Bool
  var disposals: [Disposal]
  var income: [Income]
  var assets: [Asset]
  var totals: GainsReport.Totals
  var incomeTotal: Double

  init(_ report: GainsReport, notes: [Int: String], fetchedAt: Date, stale: Bool) {
    let code = report.currency
    quote = code
    firstDay = report.period.lowerBound
    lastDay = report.period.upperBound
    method = report.method.rawValue
    self.fetchedAt = fetchedAt
    self.stale = stale
    let rows = report.writtenRows
    disposals = rows.map { written in
      let (row, figures) = (written.row, written.figures)
      return Disposal(
        date: row.date, symbol: row.code, kind: row.kind.rawValue, term: row.period.rawValue,
        quantity: figures.quantity, proceeds: figures.proceeds, fee: figures.fee, cost: figures.cost,
        gain: figures.gain, entry: row.entryID,
        lots: row.lots.map {
          Lot(
            acquired: $0.acquired, quantity: Figure.money($0.quantity, code: row.code),
            cost: Figure.money($0.cost, code: code))
        })
    }
    income = report.income.map {
      Income(
        date: $0.date, symbol: $0.code, quantity: Figure.money($0.quantity, code: $0.code),
        value: report.writtenValue($0), entry: $0.entryID, note: notes[$0.entryID] ?? "")
    }
    assets = report.totalsByCode(rows).map { Asset(symbol: $0.code, totals: $0.totals) }
    totals = report.totals(rows)
    incomeTotal = report.incomeTotal
  }
}
