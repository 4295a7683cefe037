import RateCore

// The home list, favorites and help frames.
extension HomeRenderer {
  /// The home list: a header (currency, age of the data, the page of the top coins in
  /// view), the market table's header row, the sections "Your coins", "Your pairs" and
  /// "Top N" with their counts (a hint when one is empty, a line naming the sections below
  /// the window), and the status line.
  static func renderList(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    let footer = statusLine(state, hints: listHints(state, context), context)
    guard state.board != nil else {
      let header = headerLine(state, title: nil, context)
      return compose(header: header, body: [noDataYet(state.status, ascii: context.ascii)], footer: footer, context)
    }
    let rows = state.listRows
    let (shown, below, room) = listPage(state, rows, context)
    let inView = shown.compactMap(\.row)
    let visible = (inView.first ?? 0)..<((inView.last ?? -1) + 1)
    let marks = HomeRowMarks(
      selected: state.cursor, changed: state.changed, starred: Set(state.lists.favorites.map(\.id)),
      sort: state.sort, inView: visible)
    let table = marketTable(rows, marks, context)
    var text = shown.map { line in line.row.map { table.lines[$0] } ?? line.text }
    if !below.isEmpty {
      text += Array(repeating: "", count: max(0, room - text.count))
      text.append(
        context.style.dim((context.ascii ? "v" : "↓") + " Below: " + below.joined(separator: ", ") + " (PgDn)"))
    }
    let header = headerLine(state, title: nil, page: topPage(rows, visible), context)
    return compose(header: header, body: [table.header] + text, footer: footer, context)
  }

  /// The lines of the list's body shown below the table's header row (the frame's third
  /// line on), the titles of the sections below them, and the lines the window has for rows.
  static func listPage(
    _ state: HomeState, _ rows: [HomeRow], _ context: HomeRenderContext
  ) -> (shown: [ListLine], below: [String], room: Int) {
    let (body, cursorLine, scrollLine) = listBody(state, rows, context)
    // A page's rows and no more (PageDown shows `21–40`, not what else would fit).
    let limit = max(state.scroll + pageSize(height: context.height), state.cursor + 1)
    let cut = body.firstIndex { ($0.row ?? 0) >= limit } ?? body.count
    var room = max(1, context.height - 3)
    var first = pageStart(cursorLine: cursorLine, scrollLine: scrollLine, room: room)
    var below = sectionsBelow(body, after: min(first + room, cut))
    if !below.isEmpty {
      room = max(1, room - 1)
      first = pageStart(cursorLine: cursorLine, scrollLine: scrollLine, room: room)
      below = sectionsBelow(body, after: min(first + room, cut))
    }
    return (Array(body[min(first, cut)..<min(first + room, cut)]), below, room)
  }

  /// The index in ``HomeState/listRows`` of the row drawn on line `line` (0 is the top) of
  /// the list's frame in a window of `size`; nil for a heading, the header or the status line.
  static func listRow(atLine line: Int, _ state: HomeState, size: HomeWindowSize) -> Int? {
    let context = HomeRenderContext(width: size.width, height: size.height, style: Style(enabled: false), ascii: false)
    guard state.board != nil, line >= 2, line < size.height - 1 else { return nil }
    let shown = listPage(state, state.listRows, context).shown
    return shown.indices.contains(line - 2) ? shown[line - 2].row : nil
  }

  /// The index in ``HomeState/favoriteRows`` of the row drawn on line `line` of the
  /// favorites' frame in a window of `size`; nil for any other line.
  static func favoriteRow(atLine line: Int, _ state: HomeState, size: HomeWindowSize) -> Int? {
    let indices = window(
      Array(state.favoriteRows.indices), cursorLine: state.favoritesCursor, scrollLine: 0, room: size.height - 3)
    return line >= 2 && indices.indices.contains(line - 2) ? indices[line - 2] : nil
  }

  /// The list's lines (headings with counts, empty-section hints, rows), the line of the
  /// cursor's row and the line the window starts at (``HomeState/scroll``'s row, or its
  /// heading when it is the first of its section).
  static func listBody(
    _ state: HomeState, _ rows: [HomeRow], _ context: HomeRenderContext
  ) -> (body: [ListLine], cursorLine: Int, scrollLine: Int) {
    var body: [ListLine] = portfolioLines(state.portfolio, selected: state.portfolioSelected, context).map(
      ListLine.text)
    var cursorLine = 0
    var scrollLine = 0
    var start = 0
    for (kind, hint) in sections {
      var end = start
      while end < rows.count, rows[end].kind == kind { end += 1 }
      let title = sectionTitle(kind, count: end - start, state)
      var heading = context.style.bold(title)
      if start == end {
        // The hint shares the heading's line: every section is one line, so pages are even.
        let hint =
          kind == .top && state.listLoading
          ? ["Loading top coins" + (context.ascii ? "..." : "…")] : hint
        let room = context.width - TerminalText.displayWidth(title) - 2
        let text = hint.first { TerminalText.displayWidth($0) <= room } ?? hint[hint.count - 1]
        heading += "  " + context.style.dim(text)
      }
      body.append(.heading(heading))
      for index in start..<end {
        if index == state.cursor { cursorLine = body.count }
        if index == state.scroll { scrollLine = index == start ? body.count - 1 : body.count }
        body.append(.row(index))
      }
      start = end
    }
    if state.scroll == 0 { scrollLine = 0 }
    return (body, cursorLine, scrollLine)
  }

  /// A section's heading: `Your coins (2)`, `Your pairs (1)`, `Top 100 by market cap`
  /// (and how many of them are listed among your coins instead).
  static func sectionTitle(_ kind: HomeRow.Kind, count: Int, _ state: HomeState) -> String {
    switch kind {
    case .coin: return "Your coins (\(count))"
    case .pair: return "Your pairs (\(count))"
    case .portfolio: return "Portfolio"
    case .top, .favorite:
      let top = state.board?.rows.filter { $0.kind == .top }.count ?? count
      let yours = top - count
      return "Top \(top) by market cap" + (yours > 0 ? " (\(yours) of them in Your coins)" : "")
    }
  }

  /// The first line of the window: `scrollLine`, moved the least that keeps `cursorLine`
  /// in `room` lines. Pages are not pulled back to fill the window: PageDown shows whole
  /// pages (`81–100 of 100`), the last one short.
  static func pageStart(cursorLine: Int, scrollLine: Int, room: Int) -> Int {
    var first = scrollLine
    if cursorLine >= first + room { first = cursorLine - room + 1 }
    if cursorLine < first { first = cursorLine }
    return max(0, first)
  }

  /// The titles of the sections that start at or after line `end` (below the window).
  static func sectionsBelow(_ body: [ListLine], after end: Int) -> [String] {
    guard end < body.count else { return [] }
    let headings: [String] = body[end...].compactMap(\.heading)
    return headings.map { heading in
      let plain = TableLayout.withoutEscapes(heading)
      return plain.firstRange(of: "  ").map { String(plain[..<$0.lowerBound]) } ?? plain
    }
  }

  /// `Top 41–60 of 100`: the top coins in view, by their place in the top section.
  static func topPage(_ rows: [HomeRow], _ visible: Range<Int>) -> String? {
    guard let firstTop = rows.firstIndex(where: { $0.kind == .top }) else { return nil }
    let shown = visible.clamped(to: firstTop..<rows.count)
    guard !shown.isEmpty else { return nil }
    return "Top \(shown.lowerBound - firstTop + 1)–\(shown.upperBound - firstTop) of \(rows.count - firstTop)"
  }

  /// The body before any data came: loading (`what` is loading), or why nothing came (the
  /// status line says more). The list's and the detail's.
  static func noDataYet(
    _ status: HomeStatus, loading what: String = "Loading", ascii: Bool
  ) -> String {
    switch status {
    case .failed: return "No data yet: r to try again"
    case .rateLimited: return "No data yet: waiting out the pause"
    case .idle, .loading: return what + (ascii ? "..." : "…")
    }
  }

  /// A line of the list's body: a section's heading (with the hint of an empty one), a
  /// line of text, or row number `n`.
  enum ListLine {
    case heading(String)
    case text(String)
    case row(Int)

    var row: Int? {
      if case .row(let index) = self { return index }
      return nil
    }

    var heading: String? {
      if case .heading(let text) = self { return text }
      return nil
    }

    var text: String {
      switch self {
      case .heading(let text), .text(let text): return text
      case .row: return ""
      }
    }
  }

  /// The sections of the list, in order: their rows' kind and empty-section hint.
  static let sections: [(HomeRow.Kind, [String])] = [
    (.coin, ["No coins of your own yet: / to search and add one", "None yet: / to add one"]),
    (.pair, ["No pairs yet: p to add one"]),
    (.top, ["No top coins loaded yet: r to try again", "None loaded: r to retry"]),
  ]

  /// The rows of the list a page of `height` lines shows with its headings, the table's
  /// header row and the line naming the sections below; what ``HomeState/pageSize`` should
  /// be set to.
  static func pageSize(height: Int) -> Int {
    max(1, height - 4 - sections.count)
  }

  /// `room` lines of `body` from `scrollLine` (the first row shown, with its heading),
  /// moved the least that keeps `cursorLine` in view and the window full.
  static func window<Line>(_ body: [Line], cursorLine: Int, scrollLine: Int, room: Int) -> [Line] {
    guard room > 0, body.count > room else { return body }
    var first = scrollLine
    if cursorLine >= first + room { first = cursorLine - room + 1 }
    if cursorLine < first { first = cursorLine }
    first = min(max(0, first), body.count - room)
    return Array(body[first..<(first + room)])
  }

  /// The favorites: the starred coins with their prices, or how to star one.
  static func renderFavorites(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    let header = headerLine(state, title: "Favorites", context)
    let hints = [
      Hint(text: "? keys", priority: 0), Hint(text: "Enter detail", priority: 2),
      Hint(text: "f unstar", priority: 3), Hint(text: "Tab back", priority: 1),
    ]
    let footer = statusLine(state, hints: hints, context)
    let rows = state.favoriteRows
    guard !rows.isEmpty else {
      let hints = ["No favorites yet: open a coin with Enter and press f to star it", "None yet: f to star a coin"]
      let empty = hints.first { TerminalText.displayWidth($0) <= context.width } ?? hints[1]
      return compose(header: header, body: [empty], footer: footer, context)
    }
    let marks = HomeRowMarks(
      selected: state.favoritesCursor, changed: state.changed,
      starred: Set(state.lists.favorites.map(\.id)), sort: nil, inView: nil)
    let table = marketTable(rows, marks, context)
    let body = window(
      table.lines, cursorLine: state.favoritesCursor, scrollLine: 0, room: context.height - 3)
    return compose(header: header, body: [table.header] + body, footer: footer, context)
  }

  /// `rates · USD · updated 14:03:21 UTC`; cached data says how old it is, in yellow.
  /// On a narrow window the clock loses `UTC`, then the title `rates` goes.
  /// `page` (`Top 41–60 of 100`) follows the currency on the home list.
  static func headerLine(
    _ state: HomeState, title: String?, page: String? = nil, _ context: HomeRenderContext
  ) -> String {
    let dot = context.ascii ? " | " : " · "
    var age: [String] = []
    var short: [String] = []
    if let board = state.board {
      if board.stale {
        let text = "cached \(AgeText.describe(state.now.timeIntervalSince(board.fetchedAt))) ago"
        age = [context.style.yellow(text)]
        short = age
      } else {
        let clock = ScreenText.clock(board.fetchedAt)
        age = ["updated " + clock]
        short = ["updated " + clock.replacing(" UTC", with: "")]
      }
    }
    // The rows' currency: until a board in the chosen one arrives (a pause, offline), the
    // rows are still in the last one, and the header says so.
    let shown = TerminalText.sanitize(state.board?.currency ?? state.currency)
    let chosen = TerminalText.sanitize(state.currency)
    let pending = shown == chosen ? shown : "\(shown) (\(chosen) not loaded yet)"
    let title = title.map { [$0] } ?? []
    let rates = [context.style.bold("rates")]
    let page = page.map { [$0] } ?? []
    let candidates = [
      rates + title + [pending] + page + age, rates + title + [pending] + page + short,
      title + [pending] + page + short, title + [shown] + page + short,
    ].map { $0.joined(separator: dot) }
    return candidates.first { TerminalText.displayWidth($0) <= context.width } ?? candidates[3]
  }
}

// Cells.
extension HomeRenderer {
  /// The coin's name, even when it is the symbol (`BNB`): never blank (a name that is
  /// empty or only spaces once sanitized shows the symbol). A pair has none (`GBP/USD` says
  /// it all; its currencies' names would widen the column for every row), except a
  /// street-rate pair, labelled as the ledger's.
  static func nameCell(_ row: HomeRow) -> String {
    if row.source == .ledger { return streetLabel }
    return row.kind == .pair ? "" : TerminalText.name(row.name, symbol: row.symbol)
  }

  /// The Name cell of a street-rate pair: where its rate comes from.
  static let streetLabel = "street (ledger)"

  /// `▲ +2.28%` in green, `▼ -4.77%` in red (ASCII: the sign alone); ECB pairs add `1d`.
  static func changeCell(_ row: HomeRow, _ context: HomeRenderContext) -> String {
    guard let change = row.changePercent, change.isFinite else { return none(context) }
    var text = RateFormat.percent(change)
    if !context.ascii {
      let mark = text.hasPrefix("-") ? "▼" : text == "+0.00%" ? " " : "▲"
      text = mark + " " + text
    }
    if row.changePeriod == .workingDay { text += " " + row.changePeriod.rawValue }
    return context.style.change(text, value: change)
  }

  /// The week as a sparkline of at most `width` columns, coloured by its direction.
  static func sparkline(_ week: [Double], width: Int, _ context: HomeRenderContext) -> String {
    Sparkline.trend(week, cells: width, ascii: context.ascii, style: context.style)
  }

  static func none(_ context: HomeRenderContext) -> String { context.ascii ? "-" : "—" }
}
