import RateCore

/// What a rendering of a series tells apart by its key: how a key is written and counted
/// and how the table lays out its rates. A daily and an hourly series share the rest.
protocol ViewKey: SeriesKey {
  /// The key as a label: `2026-11-20`, or `2026-11-20 13:00` in UTC.
  var label: String { get }
  /// The UTC day the chart draws the key on.
  var chartDay: Day { get }
  /// The words of a rendering by this key.
  static var terms: ViewTerms { get }
}

/// The words and table layout that differ between a daily and an hourly rendering.
struct ViewTerms: Sendable {
  /// What the header counts (`28 days`, `169 hourly points`).
  var noun: String
  /// After the header's range: ` UTC` for times.
  var zone: String
  /// The unit of a scale caption (`1 column ≈ 1.2 days`, `1 column ≈ 6.0 h`).
  var unit: String
  /// The caption when every point has a column of its own; nil for none.
  var fitting: String?
  /// What the statistics block counts.
  var counted: String
  /// The table's first column.
  var heading: String
  /// The priorities of the table's columns (key, rate, change, percent and, for days, the
  /// carried note): what a narrow terminal drops first (``TextTable/Column/priority``).
  var priorities: [Int]
  /// Whether the table writes every rate with the most precise one's decimals (days) or
  /// each rate alone (hours).
  var aligned: Bool
}

extension Day: ViewKey {
  var label: String { description }
  var chartDay: Day { self }
  static let terms = ViewTerms(
    noun: "day", zone: "", unit: "days", fitting: nil, counted: "days", heading: "DATE",
    priorities: [TextTable.required, TextTable.required, 2, 3, 1], aligned: true)
}

extension Date: ViewKey {
  /// `2026-11-20 13:00`-style time, minutes only.
  var label: String { String(PriceExport.utcDateTime(self).dropLast(3)) }
  var chartDay: Day { Day(containing: self) }
  static let terms = ViewTerms(
    noun: "hourly point", zone: " UTC", unit: "h", fitting: "1 column = 1 h", counted: "points",
    heading: "TIME (UTC)", priorities: [0, 0, 0, 0], aligned: false)
}

/// The human renderings of a series, daily or hourly (times in UTC): sparkline, chart or
/// table, each with a header and the statistics block.
struct HistoryView<Key: ViewKey>: Sendable {
  /// The series to show.
  var series: Series<Key>
  /// Set when the data is stale cache.
  var staleness: Staleness?
  /// The current time, for the stale age.
  var now: Date
  /// The terminal to fit.
  var terminal: TerminalCapabilities
  /// Colours.
  var style: Style

  var ascii: Bool { !terminal.unicode }
  var width: Int { max(20, terminal.width) }
  var pair: String { TerminalText.sanitize("\(series.base)/\(series.quote)") }
  var terms: ViewTerms { Key.terms }

  /// `BTC/EUR  28 days  2026-10-26 to 2026-11-22  CoinGecko`, plus a stale mark;
  /// `BTC/EUR  169 hourly points  2026-11-18 13:00 to 2026-11-25 12:56 UTC  CoinGecko`.
  func header() -> String {
    var parts = [style.bold(TerminalText.sanitize(pair))]
    // Points and gaps are disjoint keys: count and ends without listing every one.
    let ends = [series.points.first?.date, series.points.last?.date, series.gaps.first, series.gaps.last]
      .compactMap { $0 }
    if let first = ends.min(), let last = ends.max() {
      let count = series.points.count + series.gaps.count
      parts.append("\(count) \(terms.noun)\(count == 1 ? "" : "s")")
      parts.append("\(first.label) to \(last.label)\(terms.zone)")
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
    let spans = series.sources.dropLast().map {
      "\($0.source.displayName) \($0.first.label)\(dash)\($0.last.label)"
    }
    return TerminalText.sanitize((spans + ["\(newest.source.displayName) since"]).joined(separator: ", "))
  }

  /// The header, a sparkline labelled with min and max, and the statistics.
  func sparklineReport() -> String {
    // One column per key, or resampled to the width (``Sparkline/fit(_:to:)``); a key
    // without a rate is a blank column.
    let values = series.days.map { $0.point?.rate ?? .nan }
    let line = Sparkline.render(values, cells: width - 2, ascii: ascii)
    let scale = Self.scale(values.count, in: width - 2, unit: terms.unit) ?? terms.fitting
    let change = (series.points.last?.rate ?? 0) - (series.points.first?.rate ?? 0)
    return report([header(), "", "  " + style.change(line, value: change)]) { stats in
      let labels = RateFormat.distinct([stats.min, stats.max], format: RateFormat.rate)
      let parts =
        ["low \(labels[0]) \(stats.minDate.label)", "high \(labels[1]) \(stats.maxDate.label)"]
        + (scale.map { [$0] } ?? [])
      return TerminalText.packed(parts, separator: "   ", width: width - 2).map { "  " + style.dim($0) }
    }
  }

  /// `lines`, then (with statistics) `beforeStatistics`' lines, a blank line and the
  /// statistics, then the note on carried keys: how every report ends.
  func report(
    _ lines: [String], beforeStatistics: (SeriesStatistics<Key>) -> [String] = { _ in [] }
  ) -> String {
    var lines = lines
    if let stats = SeriesStatistics(points: series.ownPoints) {
      lines.append(contentsOf: beforeStatistics(stats))
      lines.append("")
      lines.append(contentsOf: statisticsBlock(stats))
    }
    lines.append(contentsOf: carriedNote())
    return lines.joined(separator: "\n")
  }

  /// The header, a line chart fitted to the terminal, what one column stands for, and the
  /// statistics.
  func chartReport() -> String {
    var lines = [header(), ""]
    lines.append(
      contentsOf: LineChart.render(points: series.chartPoints, width: width, height: 12, ascii: ascii))
    if let caption = chartScale() { lines.append(style.dim("  " + caption)) }
    return report(lines)
  }

  /// The header, one row per key (day or UTC time, value, change from the previous one),
  /// and the statistics.
  func tableReport() -> String {
    let titles = [terms.heading, TerminalText.sanitize(series.quote), "CHANGE", "%", ""]
    var table = TextTable(
      columns: zip(titles, terms.priorities).enumerated().map { index, column in
        .init(column.0, alignment: (1...3).contains(index) ? .right : .left, priority: column.1)
      })
    let column = RateFormat.rateColumn(series.points.map(\.rate))
    let (rate, signed) = terms.aligned ? (column.format, column.signed) : (RateFormat.rate, RateFormat.signed)
    var previous: Double?
    for (key, point) in series.days {
      guard let point else {
        // A key without a value: a gap, and no change across it.
        table.append(Array([key.label, ascii ? "-" : "—", "", "", "no rate"].prefix(terms.priorities.count)))
        previous = nil
        continue
      }
      let change = previous.map { point.rate - $0 }
      let percent = previous.flatMap { Change.exactPercent(from: $0, to: point.rate) }
      let cells = [
        point.date.label, rate(point.rate), change.map { style.change(signed($0), value: $0) } ?? "",
        percent.map { style.change(RateFormat.percent($0), value: $0) } ?? "", point.carried ? "carried" : "",
      ]
      table.append(Array(cells.prefix(terms.priorities.count)))
      previous = point.rate
    }
    var lines = [header(), ""]
    lines.append(contentsOf: table.render(maxWidth: width, ascii: ascii))
    return report(lines)
  }

  /// Labelled statistics, each dated figure with its day or UTC time, two columns when the
  /// terminal is wide enough.
  func statisticsBlock(_ stats: SeriesStatistics<Key>) -> [String] {
    SummaryBlock(
      min: (stats.min, stats.minDate.label), max: (stats.max, stats.maxDate.label),
      mean: stats.mean, median: stats.median, stddev: stats.stddev,
      first: (stats.first, stats.firstDate.label), last: (stats.last, stats.lastDate.label),
      change: stats.change, changePercent: stats.changePercent, count: (terms.counted, stats.count)
    ).lines(
      column: RateFormat.rateColumn(series.ownPoints.map(\.rate)), code: series.quote, style: style,
      width: width, ascii: ascii)
  }

  /// Notes on keys without a value of their own: days carried over a market
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
      lines.append(style.dim("  \(gaps) \(terms.noun)\(gaps == 1 ? " has" : "s have") no rate"))
    }
    return lines
  }

  /// How many keys one chart column stands for, when more than one: `1 column ≈ 134 days`
  /// (the chart's buckets are of equal size, not of whole days); for hours `1 column = 1 h`
  /// when every point has its column.
  func chartScale() -> String? {
    let plotWidth = LineChart.plotWidth(points: series.chartPoints, width: width)
    guard plotWidth > 0 else { return nil }
    return Self.scale(series.days.count, in: plotWidth, unit: terms.unit) ?? terms.fitting
  }

  /// What one column stands for when `count` points are resampled to
  /// `columns` (`1 column ≈ 1.2 days`, `1 column ≈ 47 days`); nil when they fit.
  static func scale(_ count: Int, in columns: Int, unit: String) -> String? {
    guard columns > 0, count > columns else { return nil }
    let perColumn = Double(count) / Double(columns)
    let text = perColumn < 10 ? NumberText.fixed(perColumn, places: 1) : String(Int(perColumn.rounded()))
    return "1 column ≈ \(text) \(unit)"
  }
}
