extension GainsReport {
  /// The CSV columns, the names of the `portfolio gains --json` document's disposals.
  static let csvHeader = [
    "date", "symbol", "kind", "term", "quantity", "proceeds", "fee", "cost", "gain", "acquired",
    "firstAcquired", "lastAcquired", "income", "quote", "method", "entry",
  ]

  /// One row per disposal (or part of one with its own holding period), oldest first, then one
  /// row per income (`kind` `income`, its value on receipt in `income`); no totals row, so a
  /// spreadsheet or a tax form's import can sum the columns itself. `acquired` is the day of
  /// the one lot a row was matched to, or `various` (as Form 8949 writes it), with the first
  /// and last days beside it. The figures as ``written(_:)`` rounds them; RFC 4180.
  public var csv: String {
    func number(_ value: Double) -> String { DecimalText.shortest(value) ?? "" }
    var rows = self.rows.map { row in
      let figures = written(row)
      let first = row.lots.first?.acquired.description ?? ""
      let last = row.lots.last?.acquired.description ?? ""
      return [
        row.date.description, row.code.text, row.kind.rawValue, row.period.rawValue, number(figures.quantity),
        number(figures.proceeds), number(figures.fee), number(figures.cost), number(figures.gain),
        first == last ? first : "various", first, last, "", currency.text, method.rawValue, String(row.entryID),
      ]
    }
    rows += income.map { income in
      [
        income.date.description, income.code.text, "income", "",
        number(Figure.money(income.quantity, code: income.code)),
        "", "", "", "", "", "", "", number(writtenValue(income)), currency.text, method.rawValue,
        String(income.entryID),
      ]
    }
    return CSV.document(header: Self.csvHeader, rows: rows)
  }
}
