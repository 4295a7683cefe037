import RateCore

/// The words for the domain's notices, one line each for stderr.
enum NoticeText {
  /// The line for `notice`, starting `warning:` or `note:`.
  static func line(_ notice: Notice) -> String {
    switch notice {
    case .cacheUnusable(let problem):
      return "warning: \(TerminalText.sanitize(problem.description))"
    case .cacheNotUpdated(let reason):
      return "warning: could not update the cache: \(TerminalText.sanitize(reason))"
    case .ambiguousSymbol(let symbol, let chosen, let alternatives):
      // Ids and symbols come from the provider's coin list: outside text.
      let (symbol, chosen) = (TerminalText.sanitize(symbol), TerminalText.sanitize(chosen))
      let example = alternatives.first.map { TerminalText.sanitize($0) } ?? chosen
      return "note: \(symbol) is the symbol of \(alternatives.count + 1) coins;"
        + " using '\(chosen)' (highest market cap). Name another by its id, e.g. '\(example)'"
    case .dataEndsEarly(let provider, let pair, let newest, let days):
      let pair = TerminalText.sanitize(pair)
      return "note: \(Providers.displayName(provider)) has no \(pair) data after"
        + " \(newest); showing the \(days) days up to it"
    case .missingFromAnswer(let provider, let pairs):
      let names = NameList.capped(pairs.map { TerminalText.sanitize($0) })
      return "warning: \(Providers.displayName(provider)) sent no price for \(names);"
        + " showing the prices that arrived"
    }
  }
}
