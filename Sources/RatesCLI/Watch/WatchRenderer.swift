import RateCore

/// Draws the watch board, one plain line per update, and NDJSON objects:
/// pure functions of ``WatchState``, so they are tested without a terminal.
enum WatchRenderer {
  /// The board as lines, each at most `width` columns: a header, one row per
  /// pair (name, price, change since the previous update, 24-hour change,
  /// a mark for stale, cached or alerting values and `old` for a quote much
  /// older than its provider's rhythm, and a sparkline filling the rest),
  /// active alerts, and a status line.
  ///
  /// Columns are dropped right to left when the width is too small; the
  /// sparkline takes what is left. Colour and highlights only when `style`
  /// is enabled.
  static func render(_ state: WatchState, width: Int, style: Style, ascii: Bool = false)
    -> [String]
  {
    let width = max(width, TerminalCapabilities.minimumWidth)
    let dot = ascii ? " | " : " · "
    var lines: [String] = []

    var header = "rates watch" + dot + "every \(WatchInterval.describe(state.interval))"
    if let last = state.lastUpdate {
      header += dot + "updated \(ScreenText.clock(last))"
    } else {
      header += dot + (state.items.contains { $0.rate != nil } ? "cached data, loading…" : "loading…")
    }
    lines.append(style.bold(fit(header, width, ascii)))

    let layout = Layout.choose(for: state, width: width, ascii: ascii)
    lines.append(layout.headerLine)
    for item in state.items { lines.append(layout.row(item, state: state, style: style, ascii: ascii)) }

    for item in state.items {
      guard let alert = item.alert, let rate = item.rate else { continue }
      let text = fit("ALERT \(alert): \(item.name) \(RateFormat.rate(rate))", width, ascii)
      lines.append(style.reverse(style.bold(text)))
    }

    lines.append(fit(status(state, separator: dot), width, ascii))
    return lines.map { TerminalText.displayWidth($0) > width ? fit($0, width, ascii) : $0 }
  }

  /// The status line: next update, requests in the last minute, last error.
  static func status(_ state: WatchState, separator: String) -> String {
    var parts: [String] = []
    if let next = state.nextUpdate {
      let seconds = max(0, Int(next.timeIntervalSince(state.now).rounded(.up)))
      parts.append((state.retrying ? "retrying in " : "next update in ") + "\(seconds) s")
    }
    parts.append("\(state.requestsLastMinute)/\(state.budgetPerMinute) requests in the last minute")
    if let error = state.lastError {
      let when = state.lastErrorAt.map { " at \(ScreenText.clock($0))" } ?? ""
      parts.append("last error\(when): \(TerminalText.sanitize(error))")
    }
    return parts.joined(separator: separator)
  }

  /// One plain line for one item of an update (not a terminal):
  /// `2026-11-22T10:15:00Z BTC/USD 66,012.25 +12.50 +1.23% 24h CoinGecko [stale] [old] [alert BTC>100000]`,
  /// the provider named as in every other text output.
  static func plainLine(_ item: WatchItem, at date: Date, ascii: Bool = false) -> String? {
    guard let rate = item.rate else { return nil }
    var parts = [ISO8601.format(date), TerminalText.sanitize(item.name), RateFormat.rate(rate)]
    parts.append(item.sinceLast.map(RateFormat.signed) ?? (ascii ? "-" : "—"))
    parts.append(item.change24hPercent.map { RateFormat.percent($0) + " " + item.changePeriod } ?? (ascii ? "-" : "—"))
    parts.append(item.source.displayName)
    if item.stale { parts.append("stale") }
    if item.isOld(at: date) { parts.append("old") }
    if let alert = item.newAlert { parts.append("alert \(alert)") }
    return parts.joined(separator: " ")
  }

  /// One NDJSON object per item of an update: a ``QuoteDocument`` with
  /// `alert` when one triggered. Keys are a stable contract (docs/json.md).
  struct JSONLine: Encodable, Equatable {
    var quote: QuoteDocument
    var alert: String?

    private enum CodingKeys: String, CodingKey { case alert }

    /// The line for `item`, or `nil` when it has no value yet.
    init?(_ item: WatchItem, now: Date) {
      guard let rate = item.rate else { return nil }
      let fetchedAt = item.fetchedAt ?? now
      quote = QuoteDocument(
        base: item.base, quote: item.quote, rate: rate, changePercent: item.change24hPercent,
        changePeriod: item.changePeriod, source: item.source, fetchedAt: fetchedAt,
        updatedAt: item.updatedAt, stale: item.stale, old: item.isOld(at: now))
      alert = item.newAlert
    }

    func encode(to encoder: any Encoder) throws {
      try quote.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encodeIfPresent(alert, forKey: .alert)
    }
  }

  static func fit(_ text: String, _ width: Int, _ ascii: Bool) -> String {
    TerminalText.truncate(text, toWidth: width, ascii: ascii)
  }

  /// Which columns fit, and how wide each is.
  struct Layout {
    enum Column { case name, price, delta, day, mark }
    var columns: [Column]
    var widths: [Column: Int]
    var periodLabel: Bool
    var trendWidth: Int

    static let gap = "  "

    static func cells(_ item: WatchItem, state: WatchState, ascii: Bool, periodLabel: Bool)
      -> [Column: String]
    {
      let none = ascii ? "-" : "—"
      var mark = ""
      if item.alert != nil {
        mark = "ALERT"
      } else if item.stale {
        mark = "stale"
      } else if item.cached, let fetched = item.fetchedAt {
        mark = "cached \(AgeText.describe(state.now.timeIntervalSince(fetched)))"
      }
      if item.isOld(at: state.now) { mark += mark.isEmpty ? "old" : " old" }
      return [
        .name: TerminalText.sanitize(item.name),
        .price: item.rate.map(RateFormat.rate) ?? none,
        .delta: item.sinceLast.map(RateFormat.signed) ?? none,
        .day: item.change24hPercent.map {
          RateFormat.percent($0) + (periodLabel ? " " + item.changePeriod : "")
        } ?? none,
        .mark: mark,
      ]
    }

    static let titles: [Column: String] = [
      .name: "PAIR", .price: "PRICE", .delta: "CHANGE", .day: "24H", .mark: "",
    ]

    static func choose(for state: WatchState, width: Int, ascii: Bool) -> Layout {
      let candidates: [([Column], Bool, Int)] = [
        ([.name, .price, .delta, .day, .mark], true, 12),
        ([.name, .price, .delta, .day, .mark], false, 8),
        ([.name, .price, .day, .mark], false, 8),
        ([.name, .price, .day], false, 6),
        ([.name, .price, .day], false, 0),
        ([.name, .price], false, 0),
      ]
      for (columns, label, minimumTrend) in candidates {
        let layout = make(columns, label: label, state: state, ascii: ascii)
        let fixed = layout.fixedWidth
        if minimumTrend > 0 {
          let room = width - fixed - gap.count
          if room >= minimumTrend {
            var chosen = layout
            chosen.trendWidth = min(room, Sparkline.weekCells)
            return chosen
          }
        } else if fixed <= width {
          return layout
        }
      }
      return make([.name, .price], label: false, state: state, ascii: ascii)
    }

    static func make(_ columns: [Column], label: Bool, state: WatchState, ascii: Bool) -> Layout {
      var widths: [Column: Int] = [:]
      for column in columns { widths[column] = TerminalText.displayWidth(titles[column] ?? "") }
      for item in state.items {
        let cells = cells(item, state: state, ascii: ascii, periodLabel: label)
        for column in columns {
          widths[column] = max(widths[column] ?? 0, TerminalText.displayWidth(cells[column] ?? ""))
        }
      }
      // An empty mark column takes no room.
      let kept = columns.filter { $0 != .mark || (widths[.mark] ?? 0) > 0 }
      return Layout(columns: kept, widths: widths, periodLabel: label, trendWidth: 0)
    }

    var fixedWidth: Int {
      columns.reduce(0) { $0 + (widths[$1] ?? 0) } + Layout.gap.count * max(columns.count - 1, 0)
    }

    func aligned(_ column: Column, _ text: String) -> String {
      let width = widths[column] ?? 0
      let leading = column == .price || column == .delta || column == .day
      return TerminalText.pad(text, toWidth: width, leading: leading)
    }

    var headerLine: String {
      var cells = columns.map { aligned($0, Layout.titles[$0] ?? "") }
      if trendWidth > 0 { cells.append("TREND") }
      return cells.joined(separator: Layout.gap).withoutTrailingSpaces
    }

    func row(_ item: WatchItem, state: WatchState, style: Style, ascii: Bool) -> String {
      let texts = Layout.cells(item, state: state, ascii: ascii, periodLabel: periodLabel)
      var cells: [String] = []
      for column in columns {
        let padded = aligned(column, texts[column] ?? "")
        switch column {
        case .name:
          cells.append(item.alert != nil ? style.bold(padded) : padded)
        case .price:
          var text = padded
          if item.stale || item.cached { text = style.dim(text) }
          if item.highlight { text = style.reverse(style.bold(text)) }
          cells.append(text)
        case .delta:
          cells.append(item.sinceLast.map { style.change(padded, value: $0) } ?? padded)
        case .day:
          cells.append(item.change24hPercent.map { style.change(padded, value: $0) } ?? padded)
        case .mark:
          if item.alert != nil {
            cells.append(style.reverse(style.red(padded)))
          } else if item.stale || item.isOld(at: state.now) {
            cells.append(style.yellow(padded))
          } else {
            cells.append(style.dim(padded))
          }
        }
      }
      if trendWidth > 0 {
        cells.append(Sparkline.trend(item.trend, cells: trendWidth, ascii: ascii, style: style))
      }
      return cells.joined(separator: Layout.gap).withoutTrailingSpaces
    }
  }
}
