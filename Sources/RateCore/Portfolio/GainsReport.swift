/// The gains of a period: every disposal in it with its proceeds, cost basis and the
/// acquisitions it was matched to, split by holding period; the income received in it; and
/// the totals. Built by the same walk over the whole ledger as ``PortfolioReport`` (the lots
/// a disposal takes were acquired before the period too), so a year's total is the change
/// of `portfolio`'s realized gains over that year.
public struct GainsReport: Sendable {
  /// One disposal, or the part of one whose lots share a holding period. Reads as its
  /// disposal does (`row.proceeds` is `row.disposal.proceeds`).
  @dynamicMemberLookup
  public struct Row: Sendable, Equatable {
    /// The disposal, or the part of it whose lots are all `period`'s: the quantity, proceeds,
    /// fee, cost and lots are that part's.
    public var disposal: PortfolioDisposal
    /// Short (a year or less) or long.
    public var period: HoldingPeriod

    /// `proceeds − cost`.
    public var gain: Double { disposal.proceeds - disposal.cost }

    /// The disposal's `field`.
    public subscript<Field>(dynamicMember field: KeyPath<PortfolioDisposal, Field>) -> Field {
      disposal[keyPath: field]
    }
  }

  /// A row's figures as the table, `--json` and CSV write them (``Figure``): the quantity in
  /// its code's unit, the money in the report's currency, the gain the difference of the
  /// proceeds and cost as written, so each row adds up as shown.
  public struct Written: Sendable, Equatable {
    public var quantity: Double
    public var proceeds: Double
    public var fee: Double
    public var cost: Double
    public var gain: Double
  }

  /// The sums of some rows as written, as `portfolio gains --json` writes them.
  public struct Totals: Sendable, Equatable, Encodable {
    public var proceeds = 0.0
    public var fee = 0.0
    public var cost = 0.0
    public var gain = 0.0
    public var shortGain = 0.0
    public var longGain = 0.0
  }

  /// The currency every figure is in.
  public var currency: CurrencyCode
  /// The days whose disposals and income the report lists.
  public var period: ClosedRange<Day>
  /// How disposals took their cost.
  public var method: PortfolioMethod
  /// Every disposal in the period, oldest first (same-day ones in the order recorded).
  public var rows: [Row]
  /// Income received in the period, oldest first.
  public var income: [PortfolioIncome]

  /// The gains of `entries` in `period`, walking every entry up to its last day.
  ///
  /// A disposal of the report's own currency is listed only when it has a gain (it cost
  /// another currency, as a deposit with a cost can).
  /// - Throws: ``PortfolioError``, or whatever `price` throws.
  public static func build(
    entries: [LedgerEntry], period: ClosedRange<Day>, currency: CurrencyCode, method: PortfolioMethod,
    rank: (CurrencyCode) -> Int, price: (CurrencyCode, Day) throws -> PortfolioPrice
  ) throws -> GainsReport {
    let ordered = entries.oldestFirst(through: period.upperBound)
    let walk = try PortfolioReport.walk(ordered, currency: currency, method: method, rank: rank, price: price)
    var report = GainsReport(currency: currency, period: period, method: method, rows: [], income: [])
    for disposal in walk.disposals where period.contains(disposal.date) {
      report.rows += rows(of: disposal).filter {
        $0.code != currency || Figure.money($0.gain, code: currency, scale: $0.proceeds) != 0
      }
    }
    report.income = walk.income.filter { period.contains($0.date) }
    return report
  }

  /// Every code and day ``build(entries:period:currency:method:rank:price:)`` asks a price
  /// for, found by walking the ledger once with placeholder prices.
  public static func pricesNeeded(
    entries: [LedgerEntry], through last: Day, currency: CurrencyCode, method: PortfolioMethod,
    rank: (CurrencyCode) -> Int
  ) throws -> [CurrencyCode: Set<Day>] {
    var needed: [CurrencyCode: Set<Day>] = [:]
    let ordered = entries.oldestFirst(through: last)
    _ = try PortfolioReport.walk(ordered, currency: currency, method: method, rank: rank) { code, day in
      needed[code, default: []].insert(day)
      return PortfolioPrice(rate: 1, source: nil, date: day)
    }
    return needed
  }

  /// `disposal` as one row per holding period of its lots (short first), the proceeds and
  /// fee shared by quantity.
  static func rows(of disposal: PortfolioDisposal) -> [Row] {
    let byPeriod = Dictionary(grouping: disposal.lots) {
      HoldingPeriod(acquired: $0.acquired, disposed: disposal.date)
    }
    let matched = disposal.lots.reduce(0) { $0 + $1.quantity }
    return HoldingPeriod.allCases.compactMap { period in
      guard let lots = byPeriod[period] else { return nil }
      let quantity = lots.reduce(0) { $0 + $1.quantity }
      let share = byPeriod.count == 1 || matched <= 0 ? 1 : quantity / matched
      var part = disposal
      part.quantity = byPeriod.count == 1 ? disposal.quantity : quantity
      part.proceeds = disposal.proceeds * share
      part.fee = disposal.fee * share
      part.cost = lots.reduce(0) { $0 + $1.cost }
      part.lots = lots.sorted { $0.acquired < $1.acquired }
      return Row(disposal: part, period: period)
    }
  }

  /// `row`'s figures rounded by ``Figure``.
  public func written(_ row: Row) -> Written {
    let scale = Swift.max(Swift.abs(row.proceeds), Swift.abs(row.cost))
    let proceeds = Figure.money(row.proceeds, code: currency, scale: scale)
    let cost = Figure.money(row.cost, code: currency, scale: scale)
    return Written(
      quantity: Figure.money(row.quantity, code: row.code), proceeds: proceeds,
      fee: Figure.money(row.fee, code: currency), cost: cost,
      gain: Figure.money(proceeds - cost, code: currency, scale: scale))
  }

  /// A row with its figures as written.
  public struct WrittenRow: Sendable {
    public var row: Row
    public var figures: Written
  }

  /// Every row with its figures as written, rounded once for the table, the totals and the
  /// documents.
  public var writtenRows: [WrittenRow] { rows.map { WrittenRow(row: $0, figures: written($0)) } }

  /// The sums of `rows` as written (round the rows, then add).
  public func totals(_ rows: [WrittenRow]) -> Totals {
    var totals = Totals()
    for (row, figures) in rows.lazy.map({ ($0.row, $0.figures) }) {
      totals.proceeds += figures.proceeds
      totals.fee += figures.fee
      totals.cost += figures.cost
      totals.gain += figures.gain
      if row.period == .short { totals.shortGain += figures.gain } else { totals.longGain += figures.gain }
    }
    func money(_ value: Double) -> Double { Figure.money(value, code: currency, scale: totals.proceeds) }
    return Totals(
      proceeds: money(totals.proceeds), fee: money(totals.fee), cost: money(totals.cost),
      gain: money(totals.gain), shortGain: money(totals.shortGain), longGain: money(totals.longGain))
  }

  /// The codes of `rows`, in code order, each with its rows' totals.
  public func totalsByCode(_ rows: [WrittenRow]) -> [(code: CurrencyCode, totals: Totals)] {
    Dictionary(grouping: rows, by: \.row.code).sorted { $0.key < $1.key }.map { ($0.key, totals($0.value)) }
  }

  /// An income's value as written.
  public func writtenValue(_ income: PortfolioIncome) -> Double {
    Figure.money(income.value, code: currency)
  }

  /// The sum of the income as written.
  public var incomeTotal: Double {
    Figure.money(income.reduce(0) { $0 + writtenValue($1) }, code: currency)
  }
}
