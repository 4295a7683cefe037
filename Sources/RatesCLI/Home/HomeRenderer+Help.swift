import RateCore

// The keys screen.
extension HomeRenderer {
  /// Every key of every screen, by screen: (title, [(keys, what they do)]).
  static func helpSections(ascii: Bool) -> [(String, [(String, String)])] {
    let vertical = ascii ? "up/down k/j" : "↑/↓ k/j"
    let horizontal = ascii ? "left/right h/l" : "←/→ h/l"
    let arrows = ascii ? "up/down" : "↑/↓"
    return [
      (
        "Home list",
        [
          (vertical, "move"), ("PgUp/PgDn", "a page"), ("Home/End g/G", "first/last"),
          ("sort by column (again: reverse)", ""),
        ] + sortKeyLines.map { ($0, "") } + [
          ("Enter", "detail/value chart"), ("c", "next currency"), ("r", "refresh now"),
          ("/", "search, add coins"), ("p", "add a pair"), ("d/Delete", "remove coin/pair"),
          ("u", "undo, latest first"), ("f", "star/unstar coin"), ("Tab", "favorites"),
          ("q/Esc", "back, then quit"),
        ]
      ),
      (
        "Favorites",
        [
          (vertical, "move"), ("Enter", "detail"), ("f", "unstar"), ("Tab/q/Esc", "back"),
        ]
      ),
      (
        "Detail",
        [
          (horizontal, "move a day"), ("Home/End", "first/last day"), ("mouse", "click/drag chart"),
          ("1 2 3 4", "7/30/90/365 days"), ("f", "star/unstar coin"), ("r", "refresh"),
          ("q/Esc", "back"),
        ]
      ),
      (
        "Search",
        [
          ("typing", "filter coins"), ("Backspace", "delete a letter"), (arrows, "select"),
          ("Enter", "add to your coins"), ("Esc", "back"),
        ]
      ),
      (
        "Pair pickers",
        [
          (arrows + " k/j PgUp/PgDn", "move"), ("Home/End", "first/last"),
          ("a letter, J, K", "jump to a code"), ("Enter", "choose"), ("Esc", "back"),
        ]
      ),
      ("Anywhere", [("Ctrl-C", "quit")]),
    ]
  }

  /// The sort keys, each with the title of the column it sorts by as the header row shows
  /// it (``marketColumns``), on lines that fit the keys screen's half (38 columns):
  /// `# #  S Coin  N Name  P Price  H 1h`, then `D 24h  W 7d  M Market cap  V Volume`.
  static var sortKeyLines: [String] {
    let entries = marketColumns.compactMap { column in column.sort.map { "\($0.key) \(column.title)" } }
    return TerminalText.packed(entries, separator: "  ", width: 35).map { " " + $0 }
  }

  /// The keys screen as one column: each screen's title, then `  keys  what they do`; a
  /// line with nothing in its second half is written whole.
  static func helpColumn(_ sections: ArraySlice<(String, [(String, String)])>, _ context: HomeRenderContext) -> [String]
  {
    sections.flatMap { title, keys in
      [context.style.bold(title)]
        + keys.map { key, meaning in
          meaning.isEmpty ? "  " + key : "  " + TerminalText.pad(key, toWidth: 18) + meaning
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
