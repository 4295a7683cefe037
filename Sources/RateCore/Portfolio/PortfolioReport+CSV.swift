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
  public struct WrittenTotals: Sendable, Equatable {
    public var value: Double
    public var change: Double
    public var cost: Double
    public var unrealized: Double
    public var realized: Double
    public var moneyIn: Double
    public var moneyOut: Double
  }

  /// `holding`'s figures rounded by ``Figure``: the one rounding of `--json` and CSV.
  public func written(_ holding: Holding) -> WrittenHolding {
    // Gains and changes are differences of the value and the cost: their precision.
    let scale = Swift.max(Swift.abs(holding.value), Swift.abs(holding.cost))
    func money(_ value: Double) -> Double { Figure.money(value, code: currency, scale: scale) }
    return WrittenHolding(
      quantity: Figure.money(holding.quantity, code: holding.code),
      rate: holding.price.map { $0.source == Providers.ledger ? Figure.ratio($0.rate) : $0.rate },
      value: money(holding.value),
      change: holding.change24h.map(money), sharePercent: Figure.ratio(share(of: holding) * 100),
      cost: money(holding.cost), unrealized: money(holding.unrealized),
      realized: money(holding.realized), putIn: Figure.money(holding.putIn, code: holding.code))
  }

  /// The totals rounded by ``Figure``.
  public var writtenTotals: WrittenTotals {
    let scale = Swift.max(Swift.abs(value), Swift.abs(cost))
    func money(_ value: Double) -> Double { Figure.money(value, code: currency, scale: scale) }
    return WrittenTotals(
      value: money(value), change: money(change24h), cost: money(cost),
      unrealized: money(unrealized), realized: money(realized), moneyIn: money(moneyIn),
      moneyOut: money(moneyOut))
  }

  /// The CSV columns, the names of the `portfolio --json` document.
  static let csvHeader = [
    "symbol", "quantity", "rate", "rateDate", "source", "value", "change", "sharePercent", "cost",
    "unrealized", "realized", "putIn", "moneyOut", "quote", "date", "method",
  ]

  /// One row per holding (`putIn` in the holding's own units), then a `TOTAL` row (`putIn`
  /// and `moneyOut` there are the money put in and taken out, in `quote`), RFC 4180; the
  /// figures as ``written(_:)`` rounds them, the rates as they came.
  public var csv: String {
    func number(_ value: Double?) -> String { value.flatMap(DecimalText.shortest) ?? "" }
    var rows = holdings.map { holding in
      let figures = written(holding)
      return [
        holding.code, number(figures.quantity), number(figures.rate),
        holding.price.map { $0.date.description } ?? "", holding.price?.source ?? "",
        number(figures.value), number(figures.change), number(figures.sharePercent),
        number(figures.cost), number(figures.unrealized), number(figures.realized),
        number(figures.putIn), "", currency, asOf.description, method.rawValue,
      ]
    }
    let totals = writtenTotals
    rows.append([
      "TOTAL", "", "", "", "", number(totals.value), number(totals.change), number(value > 0 ? 100 : 0),
      number(totals.cost), number(totals.unrealized), number(totals.realized), number(totals.moneyIn),
      number(totals.moneyOut), currency, asOf.description, method.rawValue,
    ])
    return CSV.document(header: Self.csvHeader, rows: rows)
  }
}
