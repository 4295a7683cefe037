import RateCore

/// The statistics block under a history sparkline, daily or hourly: the
/// labels and order of `stats`, the decimals of the pair's rate column, and
/// each dated figure beside its own day or time.
struct SummaryBlock {
  /// A figure's value and when it was (a day or a UTC time).
  typealias Dated = (value: Double, when: String)

  var min: Dated
  var max: Dated
  var mean: Double
  var median: Double
  var stddev: Double?
  var first: Dated
  var last: Dated
  var change: Double
  var changePercent: Double?
  /// What is counted, and how many: `days`, `points`.
  var count: (label: String, value: Int)

  /// The block's lines, indented two spaces and fitted to `width`.
  func lines(
    column: RateColumn, code: CurrencyCode, style: Style, width: Int, ascii: Bool
  ) -> [String] {
    let dash = ascii ? "-" : "—"
    // The code may be a provider's symbol (an inverted fiat/coin pair).
    let code = TerminalText.sanitize(code)
    let rows: [(String, String, String)] = [
      ("min", column.amount(min.value, code: code), min.when),
      ("max", column.amount(max.value, code: code), max.when),
      ("mean", column.format(mean), ""),
      ("median", column.format(median), ""),
      ("std dev", stddev.map(column.format) ?? dash, "sample"),
      ("first", column.amount(first.value, code: code), first.when),
      ("last", column.amount(last.value, code: code), last.when),
      (
        "change", style.change(column.signed(change), value: change),
        changePercent.map { style.change(RateFormat.percent($0), value: $0) } ?? dash
      ),
      (count.label, String(count.value), ""),
    ]
    var table = TextTable(
      columns: [
        .init("", priority: TextTable.required), .init("", alignment: .right, priority: TextTable.required),
        .init("", priority: 1),
      ], showsHeader: false)
    for row in rows { table.append([row.0, row.1, row.2]) }
    return table.render(maxWidth: width - 2, ascii: ascii).map { "  " + $0 }
  }
}
