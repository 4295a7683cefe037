import RateCore
/// Draws one frame of the history explorer as lines; pure, for tests.
///
/// ```
/// BTC/EUR  28 days  2024-03-01 to 2024-03-28  CoinGecko
///
///  86,200.00 ┤         ╭╮   │
///  85,400.00 ┤   ╭─────╯╰╮  │
///  84,600.00 ┤───╯       ╰──┼──
///            2024-03-01   2024-03-28
///
/// 2024-03-14  85,999.00 EUR  change +1,234.50 (+1.46%)  14/28
/// ←/→ h/l day   Home/End g/G first/last   q quit
/// ```
public enum ExplorerRenderer {
  /// The fewest chart rows drawn with the header; below this the header goes.
  static let minimumChartRows = 3

  /// Renders `state` to fit `width` columns and `height` rows.
  ///
  /// From the top: a header (pair, day count, dates, provider) and a blank
  /// line, the ``LineChart`` with a vertical marker at the selected day's
  /// column and its date axis, a blank line, the info line (the selected
  /// day's date, its value with ``RateFormat/rate(_:)``, its change from the
  /// previous day with ``RateFormat/signed(_:)`` and a percent, `carried`
  /// when the day repeats an earlier rate, and its position; `no rate` for
  /// a day without one, whose column is a gap in the line) and a key help
  /// line. The chart takes every row the rest leaves. When the info line
  /// is wider than `width` it is split in two; on a short terminal the
  /// header and blank lines are dropped first. No line is wider than `width`
  /// and there are never more than `height` lines.
  /// - Parameters:
  ///   - state: The series and cursor.
  ///   - width: The terminal width in columns.
  ///   - height: The terminal height in rows.
  ///   - style: Colours (the change is green or red, help dim).
  ///   - ascii: Draw with ASCII only.
  /// - Returns: The frame's lines, without newlines.
  public static func render(
    _ state: ExplorerState, width: Int, height: Int, style: Style, ascii: Bool
  ) -> [String] {
    guard width > 0, height > 0 else { return [] }
    let info = infoLines(state, width: width, style: style, ascii: ascii)
    let help = [helpLine(width: width, style: style, ascii: ascii)]
    // Header + blank, blank before the info, the date axis.
    var chartRows = height - info.count - help.count - 1 - 3
    let chrome = chartRows >= minimumChartRows
    if !chrome { chartRows = max(1, height - info.count - help.count - 1) }

    var lines: [String] = []
    if chrome { lines += [header(state.series, style: style), ""] }
    lines += LineChart.render(
      points: state.days, width: width, height: chartRows, ascii: ascii,
      cursor: state.days.isEmpty ? nil : state.cursor)
    if chrome { lines.append("") }
    lines += info + help
    return lines.prefix(height).map { TerminalText.truncate($0, toWidth: width, ascii: ascii) }
  }

  /// `BTC/EUR  28 days  2024-03-01 to 2024-03-28  CoinGecko`.
  static func header(_ series: RateSeries, style: Style) -> String {
    var parts = [style.bold(TerminalText.sanitize("\(series.base)/\(series.quote)"))]
    let days = series.days
    if let first = days.first, let last = days.last {
      let count = days.count
      parts.append("\(count) day\(count == 1 ? "" : "s")")
      parts.append("\(first.day) to \(last.day)")
    }
    parts.append(Providers.displayName(series.source))
    return parts.joined(separator: "  ")
  }

  /// The selected day on one line, or two when one does not fit `width`.
  static func infoLines(_ state: ExplorerState, width: Int, style: Style, ascii: Bool) -> [String] {
    guard let selectedDay = state.selectedDay else { return ["no data"] }
    let day = style.bold(selectedDay.description)
    let position = style.dim("\(state.cursor + 1)/\(state.days.count)")
    guard let point = state.selected else {
      return [[day, style.yellow("no rate"), position].joined(separator: "  ")]
    }
    let value = RateFormat.rate(point.rate) + " " + TerminalText.sanitize(state.series.quote)
    var change = "change " + changeText(state, style: style, ascii: ascii)
    if point.carried { change += "  " + style.yellow("carried") }
    let single = [day, value, change, position].joined(separator: "  ")
    if TerminalText.displayWidth(single) <= width { return [single] }
    return [[day, value, position].joined(separator: "  "), change]
  }

  /// `+1,234.50 (+1.46%)` coloured by sign, with the decimals of the two days' rates
  /// (``RateFormat/rateColumn(_:)``: `+0.0012` for a currency pair); `—` on the first day.
  static func changeText(_ state: ExplorerState, style: Style, ascii: Bool) -> String {
    guard let point = state.selected, let previous = state.previous else {
      return ascii ? "-" : "—"
    }
    let delta = point.rate - previous.rate
    var text = RateFormat.rateColumn([point.rate, previous.rate]).signed(delta)
    if previous.rate != 0 {
      text += " (" + RateFormat.percent(delta / previous.rate * 100) + ")"
    }
    return style.change(text, value: delta)
  }

  /// The keys, dimmed.
  static func helpLine(width: Int, style: Style, ascii: Bool) -> String {
    let arrows = ascii ? "<-/->" : "←/→"
    let full = "\(arrows) h/l day   Home/End g/G first/last   q quit"
    let short = "\(arrows) h/l  g/G  q quit"
    return style.dim(TerminalText.displayWidth(full) <= width ? full : short)
  }
}
