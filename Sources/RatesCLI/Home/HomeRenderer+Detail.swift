import RateCore

/// Where the parts of a detail frame go: the figures on top, then the chart with its
/// date axis (and, for ECB pairs, a line marking carried days), then the cursor's day.
/// The renderer draws it and the state reads it to find the day under a mouse click.
struct DetailLayout {
  /// The body's lines, the frame's header and footer excluded.
  var body: [String]
  /// The frame line of the chart's first row (the header is line 0).
  var chartTop = 0
  /// The chart's plot rows (its date axis follows them).
  var chartRows = 0
  /// The frame column where the plot starts, and its width in columns.
  var plotStart = 0
  var plotWidth = 0
  /// How many days the chart draws.
  var pointCount = 0

  /// The index of the day drawn at the frame's 0-based `column` when `line` is on the
  /// chart's rows or its date axis; `nil` elsewhere.
  func pointIndex(column: Int, line: Int) -> Int? {
    guard pointCount > 0, plotWidth > 0, (chartTop...(chartTop + chartRows)).contains(line),
      (plotStart..<(plotStart + plotWidth)).contains(column)
    else { return nil }
    return LineChart.pointIndex(column: column - plotStart, count: plotWidth, total: pointCount)
  }
}

// The detail frame.
extension HomeRenderer {
  /// The fewest plot rows the chart gets; figures give way to it.
  static let minimumDetailChartRows = 3

  static func renderDetail(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    guard let detail = state.detail else {
      return compose(header: "", body: [], footer: "", context)
    }
    let window = HomeWindowSize(width: context.width, height: context.height)
    let layout = detailLayout(
      detail, window: window, style: context.style, ascii: context.ascii, status: state.status)
    let starred = state.lists.favorites.contains { $0.id == detail.row.id }
    return compose(
      header: detailHeader(detail, starred: starred, context),
      body: layout.body,
      footer: detailFooter(state, detail, context), context)
  }

  /// `Bitcoin (BTC) in USD  30 days  ★`; a pair: `GBP/USD  ECB reference rate  30 days`.
  static func detailHeader(_ detail: DetailState, starred: Bool, _ context: HomeRenderContext)
    -> String
  {
    let row = detail.row
    let style = context.style
    let star = context.ascii ? "* starred" : "★ starred"
    // The name gives way first: the range and the star stay in view.
    let tail = "  \(detail.days) days" + (starred ? "  " + star : "")
    let styledTail = "  \(detail.days) days" + (starred ? "  " + style.yellow(star) : "")
    if row.kind == .pair {
      let source = row.source == .ledger ? "street rate of your ledger" : "ECB reference rate"
      return style.bold(TerminalText.sanitize(row.symbol)) + "  " + source + styledTail
    }
    if row.kind == .portfolio {
      return style.bold("Portfolio value") + " in " + TerminalText.sanitize(row.currency) + styledTail
    }
    let suffix = " in " + TerminalText.sanitize(row.currency)
    let room = max(1, context.width - TerminalText.displayWidth(suffix + tail))
    // "XRP", not "XRP (XRP)", when the name is only the symbol.
    let (name, symbol) = (TerminalText.name(row.name, symbol: row.symbol), TerminalText.sanitize(row.symbol))
    let full = name.uppercased() == symbol.uppercased() ? symbol : "\(name) (\(symbol))"
    let title = TerminalText.truncate(full, toWidth: room, ascii: context.ascii)
    return style.bold(title) + suffix + styledTail
  }

  /// The answer to the last key, else the loader's news (a pause or failure, loading, the
  /// built-in rates, stale data), then as many of the keys as fit beside it.
  static func detailFooter(_ state: HomeState, _ detail: DetailState, _ context: HomeRenderContext)
    -> String
  {
    let arrows = context.ascii ? "<-/->" : "←/→"
    let star = detail.row.kind == .pair || detail.row.kind == .portfolio ? "" : "  f star"
    // Alone (`history --interactive`), `q` quits.
    let q = state.screens.count > 1 ? "q back" : "q quit"
    let keys = [
      "\(arrows) day  1-4 7/30/90/365 days\(star)  r refresh  \(q)",
      "\(arrows) day  1-4 range\(star)  \(q)", "1-4 range  \(q)",
    ]
    guard let (plain, styled) = detailNote(state, detail, context) else {
      return context.style.dim(firstFitting(Array(keys.prefix(2)), context.width))
    }
    let room = context.width - TerminalText.displayWidth(plain) - 2
    guard let fit = keys.first(where: { TerminalText.displayWidth($0) <= room }) else { return styled }
    return styled + "  " + context.style.dim(fit)
  }

  /// The detail's news for the status line, plain (to measure) and styled; `nil` for none.
  private static func detailNote(_ state: HomeState, _ detail: DetailState, _ context: HomeRenderContext)
    -> (plain: String, styled: String)?
  {
    if let message = detail.message { return (TerminalText.sanitize(message), message) }
    if let line = pauseOrFailureLine(state.status, now: state.now, context) { return line }
    if detail.loading, detail.data != nil {
      let text = "Loading \(detail.days) days" + (context.ascii ? "..." : "…")
      return (text, text)
    }
    guard let data = detail.data else { return nil }
    if data.series.source.isECBSnapshot {
      // Offline with nothing cached: the rates built into rates, named as history names them.
      let text = "offline: " + data.series.source.displayName
      return (text, context.style.yellow(text))
    }
    guard data.stale else { return nil }
    let text = "stale: cached \(AgeText.describe(state.now.timeIntervalSince(data.fetchedAt))) ago"
    return (text, context.style.yellow(text))
  }

  /// The detail's body laid out in `window`.
  static func detailLayout(
    _ detail: DetailState, window: HomeWindowSize, style: Style = Style(enabled: false),
    ascii: Bool = false, status: HomeStatus = .idle
  ) -> DetailLayout {
    let width = window.width
    let room = max(0, window.height - 2)
    let figures = detailFigures(detail, width: width, style: style, ascii: ascii)
    guard let explorer = detail.explorer, !explorer.days.isEmpty else {
      // Nothing loaded: loading, or why nothing came, as the list says it.
      let note =
        detail.data == nil
        ? noDataYet(status, loading: "Loading \(detail.days) days", ascii: ascii)
        : "No data for these days"
      return DetailLayout(body: Array(figures.prefix(max(0, room - 2))) + ["", note])
    }
    let info = cursorLines(explorer, width: width, style: style, ascii: ascii)
    let carried = detail.row.kind == .pair && explorer.days.contains(where: \.carried)
    let fixed = 1 + info.count + (carried ? 1 : 0)
    let shown = min(figures.count, max(0, room - fixed - minimumDetailChartRows - 1))
    var body = Array(figures.prefix(shown))
    if shown > 0 { body.append("") }
    let chartRows = max(1, room - fixed - body.count)
    var layout = DetailLayout(body: [], chartTop: 1 + body.count, chartRows: chartRows)
    let chart = LineChart.render(
      points: explorer.days, width: width, height: chartRows, ascii: ascii, cursor: explorer.cursor)
    layout.plotWidth = LineChart.plotWidth(points: explorer.days, width: width, height: chartRows)
    layout.plotStart = width - layout.plotWidth
    layout.pointCount = explorer.days.count
    body += chart
    if carried { body.append(carriedMarks(explorer.days, layout: layout, style: style, ascii: ascii)) }
    layout.body = body + info
    return layout
  }

  /// Under the date axis, a `·` (ASCII `.`) under each column whose days are all carried
  /// (a column that also draws a published rate is not marked: on a long range a column
  /// spans a week, and marking every weekend would mark them all).
  static func carriedMarks(_ days: [RatePoint], layout: DetailLayout, style: Style, ascii: Bool)
    -> String
  {
    var marks = Array(repeating: Character(" "), count: layout.plotWidth)
    var published = Array(repeating: false, count: layout.plotWidth)
    for (index, day) in days.enumerated() where !marks.isEmpty {
      let column = LineChart.cursorColumn(
        pointIndex: index, pointCount: days.count, plotWidth: layout.plotWidth)
      if !day.carried {
        published[column] = true
        marks[column] = " "
      } else if !published[column] {
        marks[column] = ascii ? "." : "·"
      }
    }
    return String(repeating: " ", count: layout.plotStart) + style.yellow(String(marks).withoutTrailingSpaces)
  }

  /// The figures: a coin's market data (``MarketFigures``), or a pair's ECB rate, its
  /// working-day change and what the carried-day marks mean.
  static func detailFigures(_ detail: DetailState, width: Int, style: Style, ascii: Bool) -> [String] {
    let row = detail.row
    let code = TerminalText.sanitize(row.currency)
    let dash = ascii ? "-" : "—"
    var table = MarketFigures.table()
    if let market = detail.data?.market, row.kind != .pair {
      var rows = MarketFigures.rows(market, code: code, style: style, ascii: ascii)
      if let rate = detail.liveRate, !rows.isEmpty { rows[0][1] = RateFormat.amount(rate, code: code) }
      for row in rows { table.append(row) }
    } else {
      let change = row.changePercent.map {
        style.change(RateFormat.percent($0), value: $0) + " " + row.changePeriod.rawValue
      }
      let label = row.kind == .pair ? "ECB rate" : row.kind == .portfolio ? "value" : "price"
      let rate = detail.liveRate ?? detail.data?.series.ownPoints.last?.rate
      if row.source == .ledger {
        // A street-rate pair: its street rate, change and gaps say it all.
        for figure in streetFigures(detail, change: change, style: style, ascii: ascii) { table.append(figure) }
        return table.render(maxWidth: width - 2, ascii: ascii).map { "  " + $0 }
      }
      table.append([label, rate.map { RateFormat.amount($0, code: code) } ?? dash, asOf(detail)])
      if row.kind == .pair {
        let period = row.changePeriod == .workingDay ? "since the working day before" : ""
        table.append(["change", change ?? dash, period])
        if detail.data?.series.points.contains(where: \.carried) == true {
          table.append([style.yellow(ascii ? "." : "·"), "carried", "no ECB rate that day"])
        }
      } else if row.kind == .portfolio {
        for figure in portfolioFigures(detail, style: style) { table.append(figure) }
      } else if let change {
        table.rows[0][2] = change
      }
    }
    return table.render(maxWidth: width - 2, ascii: ascii).map { "  " + $0 }
  }

  /// A street-rate pair's figures: its street rate (the 3-day average to its last exchange
  /// day), the change since the exchange day before, and the days the chart leaves blank.
  static func streetFigures(_ detail: DetailState, change: String?, style: Style, ascii: Bool)
    -> [[String]]
  {
    let (row, dash) = (detail.row, ascii ? "-" : "—")
    let code = TerminalText.sanitize(row.currency)
    let day = row.updatedAt.map { weekdayAndDay(Day(containing: $0)) } ?? ""
    var rows = [
      ["street rate", row.rate.map { RateFormat.amount($0, code: code) } ?? dash, "\(StreetRate.days) days to \(day)"],
      ["change", change ?? dash, "since the exchange day before"],
    ]
    let gaps = detail.data?.series.gaps.count ?? 0
    if gaps > 0 {
      rows.append([style.yellow("gaps"), "\(gaps) day\(gaps == 1 ? "" : "s")", "without an exchange"])
    }
    return rows
  }

  /// The portfolio's source line, and how many days had no price for something held.
  static func portfolioFigures(_ detail: DetailState, style: Style) -> [[String]] {
    var rows = [["source", RateSource.ledger.name, "times the stored daily rates"]]
    let gaps = detail.data?.series.gaps.count ?? 0
    if gaps > 0 {
      rows.append([style.yellow("gaps"), "\(gaps) day\(gaps == 1 ? "" : "s")", "no price for something held"])
    }
    return rows
  }

  /// The weekday and day of a pair's newest published rate (the portfolio's newest value):
  /// `Fri 2026-11-20`.
  static func asOf(_ detail: DetailState) -> String {
    guard detail.row.kind == .pair || detail.row.kind == .portfolio else { return "" }
    if let own = detail.liveSeries?.ownPoints.last { return weekdayAndDay(own.date) }
    return detail.row.updatedAt.map { weekdayAndDay(Day(containing: $0)) } ?? ""
  }

  /// `Fri 2026-11-20`.
  static func weekdayAndDay(_ day: Day) -> String {
    "\(DayLookup.weekdays[day.isoWeekday - 1].prefix(3)) \(day)"
  }

  /// The cursor's day as the explorer shows it (date, value, change from the day before,
  /// position), a carried day with the day its rate is from; packed into as few lines of
  /// `width` as it takes, never cutting a figure.
  static func cursorLines(_ explorer: ExplorerState, width: Int, style: Style, ascii: Bool)
    -> [String]
  {
    guard let day = explorer.selectedDay else { return ["no data"] }
    var parts = [style.bold(day.description)]
    if let point = explorer.selected {
      let quote = TerminalText.sanitize(explorer.series.quote)
      parts[0] += "  " + RateFormat.rate(point.rate) + " " + quote
      parts.append(changeText(explorer, style: style, ascii: ascii))
      if point.carried {
        let source = explorer.series.publishedDay(of: day)
        parts.append(style.yellow("carried" + (source.map { " from " + weekdayAndDay($0) } ?? "")))
      }
    } else {
      parts.append(style.yellow("no rate"))
    }
    parts.append(style.dim("\(explorer.cursor + 1)/\(explorer.days.count)"))
    return TerminalText.packed(parts, separator: "  ", width: width)
  }
}

extension HomeRenderer {
  /// `+1,234.50 (+1.46%)` coloured by sign, with the decimals of the two days' rates
  /// (``RateFormat/rateColumn(_:)``: `+0.0012` for a currency pair); `—` on the first day.
  static func changeText(_ state: ExplorerState, style: Style, ascii: Bool) -> String {
    guard let point = state.selected, let previous = state.previous else {
      return ascii ? "-" : "—"
    }
    let delta = point.rate - previous.rate
    var text = RateFormat.rateColumn([point.rate, previous.rate]).signed(delta)
    if let percent = Change.exactPercent(from: previous.rate, to: point.rate) {
      text += " (" + RateFormat.percent(percent) + ")"
    }
    return style.change(text, value: delta)
  }
}
