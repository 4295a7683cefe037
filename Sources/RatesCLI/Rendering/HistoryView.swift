import RateCore

/// The human renderings of a daily series: sparkline, chart or table, each
/// with a header and the statistics block.
struct HistoryView: Sendable {
  /// The series to show.
  var series: RateSeries
  /// Set when the data is stale cache.
  var staleness: Staleness?
  /// The current time, for the stale age.
  var now: Date
  /// The terminal to fit.
  var terminal: TerminalCapabilities
  /// Colours.
  var style: Style

  /// Creates a view.
  init(
    series: RateSeries, staleness: Staleness?, now: Date, terminal: TerminalCapabilities,
    style: Style
  ) {
    self.series = series
    self.staleness = staleness
    self.now = now
    self.terminal = terminal
    self.style = style
  }

  var ascii: Bool { !terminal.unicode }
  var width: Int { max(20, terminal.width) }
  var pair: String { TerminalText.sanitize("\(series.base)/\(series.quote)") }

  /// `BTC/EUR  28 days  2026-10-26 to 2026-11-22  CoinGecko`, plus a stale mark.
  func header() -> String {
    var parts = [style.bold(TerminalText.sanitize(pair))]
    // Points and gaps are disjoint days: count and ends without listing every day.
    let ends = [series.points.first?.date, series.points.last?.date, series.gaps.first, series.gaps.last]
      .compactMap { $0 }
    if let first = ends.min(), let last = ends.max() {
      let count = series.points.count + series.gaps.count
      parts.append("\(count) day\(count == 1 ? "" : "s")")
      parts.append("\(first) to \(last)")
    }
    parts.append(sources())
    if let staleness {
      parts.append(
        style.yellow(staleness.mark(now: now)))
    }
    return parts.joined(separator: "  ")
  }

  /// The series' source; for a series from several, each with its days
  /// (`Coinbase Exchange 2016-01-01–2025-12-06, CoinGecko since`).
  func sources() -> String {
    guard series.isMixed, let newest = series.sources.last else {
      return TerminalText.sanitize(series.source.displayName)
    }
    let dash = ascii ? "-" : "\u{2013}"
    let spans = series.sources.dropLast().map { "\($0.source.displayName) \($0.first)\(dash)\($0.last)" }
    return TerminalText.sanitize((spans + ["\(newest.source.displayName) since"]).joined(separator: ", "))
  }

  /// The labels under a sparkline, three spaces apart, as many to a line as
  /// fit in `width` after the two-space indent; a label is never cut.
  static func labelLines(_ parts: [String], width: Int) -> [String] {
    var lines: [String] = []
    for part in parts {
      if let last = lines.last, 2 + last.count + 3 + part.count <= width {
        lines[lines.count - 1] = last + "   " + part
      } else {
        lines.append(part)
      }
    }
    return lines
  }

  /// The header, a sparkline labelled with min and max, and the statistics.
  func sparklineReport() -> String {
    // One column per day, or resampled to the width (``fit(_:to:)``); a day
    // without a rate is a blank column.
    let values = series.days.map { $0.point?.rate ?? .nan }
    let line = Sparkline.render(values, cells: width - 2, ascii: ascii)
    let scale = Self.scale(values.count, in: width - 2, unit: "days")
    let change = (series.points.last?.rate ?? 0) - (series.points.first?.rate ?? 0)
    var lines = [header(), "", "  " + style.change(line, value: change)]
    if let stats = SeriesStatistics(points: series.ownPoints) {
      let labels = RateFormat.distinct([stats.min, stats.max], format: RateFormat.rate)
      let parts =
        ["low \(labels[0]) \(stats.minDate)", "high \(labels[1]) \(stats.maxDate)"]
        + (scale.map { [$0] } ?? [])
      lines.append(contentsOf: Self.labelLines(parts, width: width).map { "  " + style.dim($0) })
      lines.append("")
      lines.append(contentsOf: statisticsBlock(stats))
    }
    lines.append(contentsOf: carriedNote())
    return lines.joined(separator: "\n")
  }

  /// The header, a line chart fitted to the terminal, and the statistics.
  func chartReport() -> String {
    var lines = [header(), ""]
    lines.append(
      contentsOf: LineChart.render(points: series.chartPoints, width: width, height: 12, ascii: ascii))
    if let caption = chartScale() { lines.append(style.dim("  " + caption)) }
    if let stats = SeriesStatistics(points: series.ownPoints) {
      lines.append("")
      lines.append(contentsOf: statisticsBlock(stats))
    }
    lines.append(contentsOf: carriedNote())
    return lines.joined(separator: "\n")
  }

  /// The header, one row per day (date, value, change from the previous day),
  /// and the statistics.
  func tableReport() -> String {
    var table = TextTable(columns: [
      .init("DATE", priority: TextTable.required),
      .init(TerminalText.sanitize(series.quote), alignment: .right, priority: TextTable.required),
      .init("CHANGE", alignment: .right, priority: 2), .init("%", alignment: .right, priority: 3),
      .init("", priority: 1),
    ])
    let column = RateFormat.rateColumn(series.points.map(\.rate))
    var previous: Double?
    for (day, point) in series.days {
      guard let point else {
        // A day without a value: a gap, and no change across it.
        table.append([day.description, ascii ? "-" : "—", "", "", "no rate"])
        previous = nil
        continue
      }
      let change = previous.map { point.rate - $0 }
      let percent = previous.flatMap { $0 == 0 ? nil : (point.rate - $0) / $0 * 100 }
      table.append([
        point.date.description,
        column.format(point.rate),
        change.map { style.change(column.signed($0), value: $0) } ?? "",
        percent.map { style.change(RateFormat.percent($0), value: $0) } ?? "",
        point.carried ? "carried" : "",
      ])
      previous = point.rate
    }
    var lines = [header(), ""]
    lines.append(contentsOf: table.render(maxWidth: width, ascii: ascii))
    if let stats = SeriesStatistics(points: series.ownPoints) {
      lines.append("")
      lines.append(contentsOf: statisticsBlock(stats))
    }
    lines.append(contentsOf: carriedNote())
    return lines.joined(separator: "\n")
  }

  /// Labelled statistics, two columns when the terminal is wide enough.
  func statisticsBlock(_ stats: SeriesStatistics) -> [String] {
    SummaryBlock(
      min: (stats.min, stats.minDate.description), max: (stats.max, stats.maxDate.description),
      mean: stats.mean, median: stats.median, stddev: stats.stddev,
      first: (stats.first, stats.firstDate.description), last: (stats.last, stats.lastDate.description),
      change: stats.change, changePercent: stats.changePercent, count: ("days", stats.count)
    ).lines(
      column: RateFormat.rateColumn(series.ownPoints.map(\.rate)), code: series.quote, style: style,
      width: width, ascii: ascii)
  }

  /// Notes on days without a value of their own: carried over a market
  /// closure, or gaps.
  func carriedNote() -> [String] {
    var lines: [String] = []
    let carried = series.points.filter(\.carried).count
    if carried > 0 {
      lines.append(
        style.dim(
          "  \(carried) day\(carried == 1 ? "" : "s") without data repeat\(carried == 1 ? "s" : "") the previous day's value"
        ))
    }
    let gaps = series.gaps.count
    if gaps > 0 {
      lines.append(style.dim("  \(gaps) day\(gaps == 1 ? " has" : "s have") no rate"))
    }
    return lines
  }

  /// How many days one chart column stands for, when more than one:
  /// `1 column ≈ 134 days` (the chart's buckets are of equal size, not of
  /// whole days).
  func chartScale() -> String? {
    let plotWidth = LineChart.plotWidth(points: series.points, width: width)
    guard plotWidth > 0 else { return nil }
    return Self.scale(series.days.count, in: plotWidth, unit: "days")
  }

  /// What one column stands for when `count` points are resampled to
  /// `columns` (`1 column ≈ 1.2 days`, `1 column ≈ 47 days`); nil when they fit.
  static func scale(_ count: Int, in columns: Int, unit: String) -> String? {
    guard columns > 0, count > columns else { return nil }
    let perColumn = Double(count) / Double(columns)
    let text = perColumn < 10 ? NumberText.fixed(perColumn, places: 1) : String(Int(perColumn.rounded()))
    return "1 column ≈ \(text) \(unit)"
  }

  /// Shrinks `values` to at most `width` by averaging equal buckets; shorter
  /// series are returned unchanged (one column per point). A bucket averages
  /// its finite values; one with none (only gaps) stays `nan`, a blank.
  static func fit(_ values: [Double], to width: Int) -> [Double] {
    let columns = max(1, width)
    guard values.count > columns else { return values }
    return (0..<columns).map { column in
      let start = column * values.count / columns
      let end = max(start + 1, (column + 1) * values.count / columns)
      let bucket = values[start..<min(end, values.count)].filter(\.isFinite)
      return bucket.isEmpty ? .nan : bucket.reduce(0, +) / Double(bucket.count)
    }
  }
}
