import RateCore

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
