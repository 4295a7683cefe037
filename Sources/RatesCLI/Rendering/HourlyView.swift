import RateCore

/// The human renderings of an hourly series: sparkline, chart or table, each
/// with a header and the statistics (times in UTC).
struct HourlyView: Sendable {
  var series: HourlySeries
  var staleness: Staleness?
  var now: Date
  var terminal: TerminalCapabilities
  var style: Style

  var ascii: Bool { !terminal.unicode }
  var width: Int { max(20, terminal.width) }

  /// `2026-11-20 13:00 UTC`-style time, minutes only.
  static func time(_ date: Date) -> String { String(PriceExport.utcDateTime(date).dropLast(3)) }

  /// `BTC/EUR  169 hours  2026-11-18 13:00 to 2026-11-25 12:56 UTC  CoinGecko`.
  func header() -> String {
    var parts = [style.bold(TerminalText.sanitize("\(series.base)/\(series.quote)"))]
    if let first = series.points.first?.time, let last = series.points.last?.time {
      let count = series.points.count
      parts.append("\(count) hourly point\(count == 1 ? "" : "s")")
      parts.append("\(Self.time(first)) to \(Self.time(last)) UTC")
    }
    parts.append(series.source.displayName)
    if let staleness { parts.append(style.yellow(staleness.mark(now: now))) }
    return parts.joined(separator: "  ")
  }

  /// The header, a sparkline (whole hours per column) and the statistics.
  func sparklineReport() -> String {
    let values = series.points.map(\.rate)
    let line = Sparkline.render(values, cells: width - 2, ascii: ascii)
    let scale = HistoryView.scale(values.count, in: width - 2, unit: "h") ?? "1 column = 1 h"
    let change = (series.points.last?.rate ?? 0) - (series.points.first?.rate ?? 0)
    var lines = [header(), "", "  " + style.change(line, value: change)]
    if let stats = HourlyStatistics(points: series.points) {
      let labels = RateFormat.distinct([stats.min, stats.max], format: RateFormat.rate)
      let parts = [
        "low \(labels[0]) \(Self.time(stats.minTime))", "high \(labels[1]) \(Self.time(stats.maxTime))",
        scale,
      ]
      lines.append(contentsOf: HistoryView.labelLines(parts, width: width).map { "  " + style.dim($0) })
      lines.append("")
      lines.append(contentsOf: statisticsBlock(stats))
    }
    return lines.joined(separator: "\n")
  }

  /// The header, a line chart fitted to the terminal, what one column stands
  /// for, and the statistics.
  func chartReport() -> String {
    var lines = [header(), ""]
    lines.append(contentsOf: chart())
    if let stats = HourlyStatistics(points: series.points) {
      lines.append("")
      lines.append(contentsOf: statisticsBlock(stats))
    }
    return lines.joined(separator: "\n")
  }

  /// The line chart and its `1 column ≈ 6.0 h` caption (`1 column = 1 h` when every point fits).
  func chart() -> [String] {
    // The chart's axis names days: each point is drawn on its UTC day.
    let points = series.points.map { RatePoint(date: Day(containing: $0.time), rate: $0.rate) }
    var lines = LineChart.render(points: points, width: width, height: 12, ascii: ascii)
    let plotWidth = LineChart.plotWidth(points: points, width: width)
    if plotWidth > 0 {
      let scale = HistoryView.scale(points.count, in: plotWidth, unit: "h") ?? "1 column = 1 h"
      lines.append(style.dim("  " + scale))
    }
    return lines
  }

  /// The header, one row per point (UTC time, value, change from the
  /// previous point), and the statistics.
  func tableReport() -> String {
    var table = TextTable(columns: [
      .init("TIME (UTC)"), .init(TerminalText.sanitize(series.quote), alignment: .right),
      .init("CHANGE", alignment: .right),
      .init("%", alignment: .right),
    ])
    var previous: Double?
    for point in series.points {
      let change = previous.map { point.rate - $0 }
      let percent = previous.flatMap { $0 == 0 ? nil : (point.rate - $0) / $0 * 100 }
      table.append([
        Self.time(point.time), RateFormat.rate(point.rate),
        change.map { style.change(RateFormat.signed($0), value: $0) } ?? "",
        percent.map { style.change(RateFormat.percent($0), value: $0) } ?? "",
      ])
      previous = point.rate
    }
    var lines = [header(), ""]
    lines.append(contentsOf: table.render(maxWidth: width, ascii: ascii))
    if let stats = HourlyStatistics(points: series.points) {
      lines.append("")
      lines.append(contentsOf: statisticsBlock(stats))
    }
    return lines.joined(separator: "\n")
  }

  /// Labelled statistics, each dated figure with its UTC time.
  func statisticsBlock(_ stats: HourlyStatistics) -> [String] {
    SummaryBlock(
      min: (stats.min, Self.time(stats.minTime)), max: (stats.max, Self.time(stats.maxTime)),
      mean: stats.mean, median: stats.median, stddev: stats.stddev,
      first: (stats.first, Self.time(stats.firstTime)), last: (stats.last, Self.time(stats.lastTime)),
      change: stats.change, changePercent: stats.changePercent, count: ("points", stats.count)
    ).lines(
      column: RateFormat.rateColumn(series.points.map(\.rate)), code: series.quote, style: style,
      width: width, ascii: ascii)
  }
}
