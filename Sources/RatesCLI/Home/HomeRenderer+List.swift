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
    let shown = Array(body[min(first, cut)..<min(first + room, cut)])
    let inView = shown.compactMap(\.row)
    let visible = (inView.first ?? 0)..<((inView.last ?? -1) + 1)
    let marks = HomeRowMarks(
      selected: state.cursor, changed: state.changed, starred: Set(state.lists.favorites.map(\.id)),
      sort: state.sort, inView: visible)
    let table = marketTable(rows, marks, context)
    var text = shown.map { line in line.row.map { table.lines[$0] } ?? line.text }
    if !below.isEmpty {
      text += Array(repeating: "", count: max(0, room - text.count))
      text.append(context.style.dim((context.ascii ? "v" : "↓") + " Below: " + below.joined(separator: ", ") + " (PgDn)"))
    }
    let header = headerLine(state, title: nil, page: topPage(rows, visible), context)
    return compose(header: header, body: [table.header] + text, footer: footer, context)
  }

  /// The list's lines (headings with counts, empty-section hints, rows), the line of the
  /// cursor's row and the line the window starts at (``HomeState/scroll``'s row, or its
  /// heading when it is the first of its section).
  static func listBody(
    _ state: HomeState, _ rows: [HomeRow], _ context: HomeRenderContext
  ) -> (body: [ListLine], cursorLine: Int, scrollLine: Int) {
    var body: [ListLine] = portfolioLines(state.portfolio, selected: state.portfolioSelected, context).map(ListLine.text)
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
        let hint = kind == .top && state.listLoading
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
  public static func pageSize(height: Int) -> Int {
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
  /// The coin's name, even when it is the symbol (`BNB`): never blank. A pair has none
  /// (`GBP/USD` says it all; its currencies' names would widen the column for every row).
  static func nameCell(_ row: HomeRow) -> String {
    row.kind == .pair ? "" : TerminalText.sanitize(row.name)
  }

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
    guard week.count >= 2 else { return "" }
    let values = HistoryView.fit(week, to: width)
    let line = Sparkline.render(values, ascii: context.ascii)
    return context.style.change(line, value: (values.last ?? 0) - (values.first ?? 0))
  }

  static func none(_ context: HomeRenderContext) -> String { context.ascii ? "-" : "—" }
}

// The status line and the keys.
extension HomeRenderer {
  /// A key hint on the status line; the lowest priorities stay when room is short.
  struct Hint {
    var text: String
    var priority: Int
  }

  /// The status line: the answer to the last key, a rate-limit pause with the seconds
  /// left, a failure, or loading; then as many key hints as fit.
  static func statusLine(_ state: HomeState, hints: [Hint], _ context: HomeRenderContext) -> String {
    let style = context.style
    var status = ""
    var plain = ""
    if let notice = state.notice {
      plain = TerminalText.sanitize(notice)
      status = style.bold(plain)
    } else if let board = state.board, !board.fallbackSources.isEmpty, let line = answerLine(board) {
      // A fallback answered for the failing source: whose prices are shown says more.
      plain = line
      status = style.yellow(plain)
    } else if let line = pauseOrFailureLine(state.status, now: state.now, context) {
      (plain, status) = line
    } else if state.status == .loading, state.board != nil || state.screen != .home {
      plain = context.ascii ? "Loading..." : "Loading…"
      status = plain
    } else if let board = state.board, let line = answerLine(board) {
      plain = line
      status = style.yellow(plain)
    }
    let used = plain.isEmpty ? 0 : TerminalText.displayWidth(plain) + 2
    let keys = fitted(hints, width: context.width - used)
    guard !keys.isEmpty else { return status }
    return (status.isEmpty ? "" : status + "  ") + style.dim(keys)
  }

  /// What the last answer lacked (its rows show no price), and which fallback sources
  /// answered (a chain's later link: the exchanges, the ECB); nil when neither.
  static func answerLine(_ board: HomeBoard) -> String? {
    var parts: [String] = []
    if !board.missing.isEmpty {
      parts.append("No price for " + NameList.capped(board.missing.map(TerminalText.sanitize), shown: 2))
    }
    if !board.fallbackSources.isEmpty {
      let names = board.fallbackSources.map(TerminalText.sanitize).joined(separator: ", ")
      parts.append((parts.isEmpty ? "Prices" : "prices") + " from \(names)")
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  /// A rate-limit pause (with the seconds left) or a failure, which no screen hides: the
  /// plain text (to measure) and the styled one. One wording for every screen.
  static func pauseOrFailureLine(_ status: HomeStatus, now: Date, _ context: HomeRenderContext)
    -> (plain: String, styled: String)?
  {
    switch status {
    case .rateLimited(let until) where until > now:
      let seconds = Int(until.timeIntervalSince(now).rounded(.up))
      var plain = "rate limited by \(Provider.coinGecko.displayName): next try in \(seconds) s"
      if TerminalText.displayWidth(plain) > context.width { plain = "rate limited: next try in \(seconds) s" }
      return (plain, context.style.yellow(plain))
    case .failed(let message):
      let plain = TerminalText.sanitize(message)
      return (plain, context.style.red(plain))
    default: return nil
    }
  }

  /// ``pauseOrFailureLine(_:now:_:)`` styled, for the screens whose footer it replaces.
  static func pauseOrFailure(_ status: HomeStatus, now: Date, _ context: HomeRenderContext) -> String? {
    pauseOrFailureLine(status, now: now, context)?.styled
  }

  /// The hints that fit `width`, most important first, shown in their given order.
  static func fitted(_ hints: [Hint], width: Int) -> String {
    var kept = Set<Int>()
    var used = 0
    for index in hints.indices.sorted(by: { hints[$0].priority < hints[$1].priority }) {
      let cost = TerminalText.displayWidth(hints[index].text) + (kept.isEmpty ? 0 : 2)
      if used + cost <= width {
        kept.insert(index)
        used += cost
      }
    }
    return hints.indices.filter(kept.contains).map { hints[$0].text }.joined(separator: "  ")
  }

  /// The home list's hints: `? keys  / search  p pair  c EUR  q quit` and more when wide.
  static func listHints(_ state: HomeState, _ context: HomeRenderContext) -> [Hint] {
    var hints = [
      Hint(text: "? keys", priority: 0),
      Hint(text: context.ascii ? "j/k move" : "↑↓ move", priority: 8),
      Hint(text: "Enter detail", priority: 5),
      Hint(text: "/ search", priority: 2),
      Hint(text: "p pair", priority: 3),
      Hint(text: "d remove", priority: 6),
    ]
    if let undo = state.undoHint { hints.append(Hint(text: undo, priority: 1)) }
    hints.append(Hint(text: "f star", priority: 7))
    if state.currencies.count > 1 {
      let next = state.currencies[(state.currencyIndex + 1) % state.currencies.count]
      hints.append(Hint(text: "c " + TerminalText.sanitize(next), priority: 4))
    }
    hints += [
      Hint(text: "Tab favorites", priority: 9), Hint(text: "r refresh", priority: 10),
      Hint(text: "PgDn page", priority: 11), Hint(text: "D/M/# sort", priority: 12),
      Hint(text: "q quit", priority: 1),
    ]
    return hints
  }
}

// The keys screen.
extension HomeRenderer {
  /// Every key of every screen, by screen: (title, [(keys, what they do)]).
  static func helpSections(ascii: Bool) -> [(String, [(String, String)])] {
    let vertical = ascii ? "up/down k/j" : "↑/↓ k/j"
    let horizontal = ascii ? "left/right h/l" : "←/→ h/l"
    let arrows = ascii ? "up/down" : "↑/↓"
    return [
      ("Home list", [
        (vertical, "move"), ("PgUp/PgDn", "a page"), ("Home/End g/G", "first/last"),
        ("# S N P H D W M V", "sort, again reverses"),
        ("Enter", "detail/value chart"), ("c", "next currency"), ("r", "refresh now"),
        ("/", "search, add coins"), ("p", "add a pair"), ("d/Delete", "remove coin/pair"),
        ("u", "undo, latest first"), ("f", "star/unstar coin"), ("Tab", "favorites"),
        ("?", "these keys"), ("q/Esc", "back, then quit"), ("Ctrl-C", "quit"),
      ]),
      ("Favorites", [
        (vertical, "move"), ("Enter", "detail"), ("f", "unstar"), ("Tab/q/Esc", "back"),
      ]),
      ("Detail", [
        (horizontal, "move a day"), ("Home/End", "first/last day"), ("mouse", "click/drag chart"),
        ("1 2 3 4", "7/30/90/365 days"), ("f", "star/unstar coin"), ("r", "refresh"),
        ("q/Esc", "back"),
      ]),
      ("Search", [
        ("typing", "filter coins"), ("Backspace", "delete a letter"), (arrows, "select"),
        ("Enter", "add to your coins"), ("Esc", "back"),
      ]),
      ("Pair pickers", [
        (arrows + " k/j PgUp/PgDn", "move"), ("Home/End", "first/last"),
        ("a letter, J, K", "jump to a code"), ("Enter", "choose"), ("Esc", "back"),
      ]),
    ]
  }

  /// The keys screen as one column: each screen's title, then `  keys  what they do`.
  static func helpColumn(_ sections: ArraySlice<(String, [(String, String)])>, _ context: HomeRenderContext) -> [String] {
    sections.flatMap { title, keys in
      [context.style.bold(title)] + keys.map { key, meaning in
        "  " + TerminalText.pad(key, toWidth: 18) + meaning
      }
    }
  }

  /// The number of lines of the keys screen in one column (how far it can scroll).
  static var helpLineCount: Int {
    helpSections(ascii: false).reduce(0) { $0 + 1 + $1.1.count }
  }

  /// `?`: every key of every screen, in two columns when the window is wide enough
  /// (one otherwise, scrolled with ↑/↓); any other key closes it.
  static func renderHelp(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    let header = headerLine(state, title: "Keys", context)
    let sections = helpSections(ascii: context.ascii)
    let columnWidth = 40
    var body: [String]
    if context.width >= 2 * columnWidth {
      let left = helpColumn(sections.prefix(2), context)
      let right = helpColumn(sections.dropFirst(2), context)
      body = (0..<max(left.count, right.count)).map { index in
        let cell = index < left.count ? left[index] : ""
        let other = index < right.count ? right[index] : ""
        let line = TerminalText.pad(cell, toWidth: columnWidth) + other
        return other.isEmpty ? cell : line
      }
    } else {
      body = helpColumn(sections[...], context)
    }
    let room = max(0, context.height - 2)
    let first = min(state.helpScroll, max(0, body.count - room))
    body = Array(body.dropFirst(first))
    let more = body.count > room
    let down = context.ascii ? "j" : "↓"
    let footer = context.style.dim(more ? "\(down) more  any other key closes" : "any key closes")
    return compose(header: header, body: body, footer: footer, context)
  }
}
