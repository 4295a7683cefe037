import RateCore

// The search frame.
extension HomeRenderer {
  static func renderSearch(_ state: HomeState, _ context: HomeRenderContext) -> [String] {
    let search = state.search
    let style = context.style
    var body = [searchPrompt(search.query, context), ""]
    if search.query.isEmpty {
      body.append(
        style.dim(
          firstFitting(
            ["Type a coin's name or symbol, e.g. bitcoin or BTC", "Type a name or symbol: bitcoin, BTC"],
            context.width)))
    } else if search.hits.isEmpty {
      body.append(style.dim(search.localAnswered || search.remoteAnswered ? "No coins match" : ""))
    } else {
      body += searchRows(state, room: max(1, context.height - 2 - body.count), context)
    }
    return compose(
      header: style.bold("Search coins") + "  Enter adds to your coins",
      body: body, footer: searchFooter(state, context), context)
  }

  /// `> query▏`; a query too long for the width keeps its end, where the typing happens
  /// (`> …query▏`).
  static func searchPrompt(_ query: String, _ context: HomeRenderContext) -> String {
    let caret = context.ascii ? "_" : "▏"
    let ellipsis = context.ascii ? "..." : "…"
    var shown = asciiFolded(TerminalText.sanitize(query), context.ascii)
    let room = context.width - 3
    guard TerminalText.displayWidth(shown) > room else { return "> " + shown + caret }
    while !shown.isEmpty, TerminalText.displayWidth(ellipsis + shown) > room { shown.removeFirst() }
    return "> " + ellipsis + shown + caret
  }

  /// The hits that fit in `room` lines (scrolled to keep the selected one in view), and
  /// the legend of `*` when a shown symbol is shared.
  static func searchRows(_ state: HomeState, room: Int, _ context: HomeRenderContext) -> [String] {
    let search = state.search
    let shared = search.hits.contains(where: \.sharedSymbol)
    let rows = max(1, room - (shared ? 1 : 0))
    let first = min(max(0, search.cursor - rows + 1), max(0, search.hits.count - rows))
    let added = Set(state.lists.coins.map(\.id))
    let starred = Set(state.lists.favorites.map(\.id))
    let marker = context.ascii ? ">" : "›"
    let star = context.ascii ? "*" : "★"
    var table = TextTable(
      columns: [
        .init("", priority: TextTable.required), .init("", priority: TextTable.required),
        .init("", fit: .shrinks, priority: TextTable.required), .init("", alignment: .right, priority: 1),
        .init("", priority: TextTable.required),
      ], showsHeader: false)
    for index in first..<min(search.hits.count, first + rows) {
      let hit = search.hits[index]
      let symbol =
        asciiFolded(TerminalText.sanitize(hit.symbol), context.ascii) + (hit.sharedSymbol ? "*" : "")
      table.append([
        // The selection, then the list's mark of a starred coin.
        (index == search.cursor ? marker : " ")
          + (starred.contains(hit.id) ? context.style.yellow(star) : " "), symbol,
        asciiFolded(TerminalText.name(hit.name, symbol: hit.symbol), context.ascii),
        hit.marketCapRank.map { "#\($0)" } ?? "",
        added.contains(hit.id) ? context.style.dim("added") : "",
      ])
    }
    var lines = table.render(maxWidth: context.width, ascii: context.ascii)
    for (offset, line) in lines.enumerated() where first + offset == search.cursor {
      lines[offset] = context.style.bold(line)
    }
    let legend = firstFitting(
      ["* symbol shared by several coins: pick by name", "* shared symbol: pick by name"], context.width)
    if shared { lines.append(context.style.dim(legend)) }
    return lines
  }

  /// The answer to the last Enter, else the loader's news, else the keys.
  static func searchFooter(_ state: HomeState, _ context: HomeRenderContext) -> String {
    if let message = state.search.message { return message }
    if let status = pauseOrFailureLine(state.status, now: state.now, context)?.styled { return status }
    if state.search.searchingRemote { return "Searching CoinGecko" + (context.ascii ? "..." : "…") }
    let arrows = context.ascii ? "Up/Down" : "↑/↓"
    return context.style.dim("\(arrows) select  Enter add  Esc back")
  }
}
