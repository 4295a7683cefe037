extension PortfolioReport {
  /// The CSV columns, the names of the `portfolio --json` document.
  static let csvHeader = [
    "symbol", "quantity", "rate", "rateDate", "source", "value", "change", "sharePercent", "cost",
    "unrealized", "realized", "putIn", "moneyOut", "quote", "date", "method",
  ]

  /// One row per holding (`putIn` in the holding's own units), then a `TOTAL` row (`putIn`
  /// and `moneyOut` there are the money put in and taken out, in `quote`), RFC 4180.
  public var csv: String {
    func number(_ value: Double?) -> String { value.flatMap(DecimalText.shortest) ?? "" }
    var rows = holdings.map { holding in
      [
        holding.code, number(holding.quantity), number(holding.price?.rate),
        holding.price.map { $0.date.description } ?? "", holding.price?.source ?? "",
        number(holding.value), number(holding.change24h), number(share(of: holding) * 100),
        number(holding.cost), number(holding.unrealized), number(holding.realized),
        number(holding.putIn), "", currency, asOf.description, method.rawValue,
      ]
    }
    rows.append([
      "TOTAL", "", "", "", "", number(value), number(change24h), number(value > 0 ? 100 : 0),
      number(cost), number(unrealized), number(realized), number(moneyIn), number(moneyOut), currency,
      asOf.description, method.rawValue,
    ])
    return CSV.document(header: Self.csvHeader, rows: rows)
  }
}
