extension PortfolioReport {
  /// A holding's computed figures as `--json` and CSV write them: amounts of the quote
  /// (value, change, cost, gains) to its minor unit, the quantity and `putIn` to the
  /// holding's own, the share to ``Figure/significantDigits`` (see ``Figure``).
  public struct WrittenHolding: Sendable, Equatable {
    public var quantity: Double
    /// The price as its source gave it; the ledger's street rate, an average the ledger
    /// computes, to ``Figure/significantDigits``.
    public var rate: Double?
    public var value: Double
    public var change: Double?
    public var sharePercent: Double
    public var cost: Double
    public var unrealized: Double
    public var realized: Double
    public var putIn: Double
  }

  /// The totals' computed figures as `--json` and CSV write them, in the quote's minor unit.
  public struct WrittenTotals: Sendable, Equatable, Encodable {
    public var value: Double
    public var change: Double
    public var cost: Double
    public var unrealized: Double
    public var realized: Double
    public var moneyIn: Double
    public var moneyOut: Double
  }

  /// `holding`'s figures rounded by ``Figure``: the one rounding of `--json`, CSV and the
  /// table. The gains are those of the figures as written (the value written less the cost
  /// written), so a row's figures agree with each other as shown.
  public func written(_ holding: Holding) -> WrittenHolding {
    // Gains and changes are differences of the value and the cost: their precision.
    let scale = Swift.max(Swift.abs(holding.value), Swift.abs(holding.cost))
    func money(_ value: Double) -> Double { Figure.money(value, code: currency, scale: scale) }
    let (value, cost) = (money(holding.value), money(holding.cost))
    return WrittenHolding(
      quantity: Figure.money(holding.quantity, code: holding.code),
      rate: holding.price.map { $0.source == .ledger ? Figure.ratio($0.rate) : $0.rate },
      value: value,
      change: holding.change24h.map(money), sharePercent: Figure.ratio(share(of: holding) * 100),
      cost: cost, unrealized: money(value - cost),
      realized: money(holding.realized), putIn: Figure.money(holding.putIn, code: holding.code))
  }

  /// The totals as the sums of the rows as written (``written(_:)``: round the rows, then
  /// add), so a column adds up to its total in every format; the money put in and taken out
  /// rounded by ``Figure``.
  public var writtenTotals: WrittenTotals {
    let rows = holdings.map(written)
    func sum(_ figure: (WrittenHolding) -> Double) -> Double {
      let total = rows.reduce(0) { $0 + figure($1) }
      return Figure.money(total, code: currency, scale: rows.reduce(0) { Swift.max($0, Swift.abs(figure($1))) })
    }
    return WrittenTotals(
      value: sum(\.value), change: sum { $0.change ?? 0 }, cost: sum(\.cost),
      unrealized: sum(\.unrealized), realized: sum(\.realized),
      moneyIn: Figure.money(moneyIn, code: currency), moneyOut: Figure.money(moneyOut, code: currency))
  }

  /// The CSV columns, the names of the `portfolio --json` document.
  static let csvHeader = [
    "symbol", "quantity", "rate", "rateDate", "source", "value", "change", "sharePercent", "cost",
    "unrealized", "realized", "putIn", "moneyIn", "moneyOut", "quote", "date", "method",
  ]

  /// One row per holding (`putIn` in the holding's own units), then a `TOTAL` row: the sums
  /// of the rows (``writtenTotals``), the share of the whole, and `moneyIn` and `moneyOut`
  /// (the money put in and taken out, in `quote`, on that row alone). Each column means one
  /// thing on every row; a figure a row does not have is empty. RFC 4180; the figures as
  /// ``written(_:)`` rounds them, the rates as they came.
  public var csv: String {
    func number(_ value: Double?) -> String { value.flatMap(DecimalText.shortest) ?? "" }
    var rows = holdings.map { holding in
      let figures = written(holding)
      return [
        holding.code.text, number(figures.quantity), number(figures.rate),
        holding.price.map { $0.date.description } ?? "", holding.price.map { $0.source?.name ?? "" } ?? "",
        number(figures.value), number(figures.change), number(figures.sharePercent),
        number(figures.cost), number(figures.unrealized), number(figures.realized),
        number(figures.putIn), "", "", currency.text, asOf.description, method.rawValue,
      ]
    }
    let totals = writtenTotals
    rows.append([
      "TOTAL", "", "", "", "", number(totals.value), number(totals.change), number(value > 0 ? 100 : 0),
      number(totals.cost), number(totals.unrealized), number(totals.realized), "",
      number(totals.moneyIn), number(totals.moneyOut), currency.text, asOf.description, method.rawValue,
    ])
    return CSV.document(header: Self.csvHeader, rows: rows)
  }
}
