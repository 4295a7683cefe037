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
      return "note: \(provider.displayName) has no \(pair) data after"
        + " \(newest); showing the \(days) days up to it"
    case .missingFromAnswer(let provider, let pairs):
      return missing(MissingFigure.leftOut(pairs, by: provider))
    case .answerCutShort(let pair, let from, let reason):
      return "warning: \(TerminalText.sanitize(pair)) from \(from) did not arrive: "
        + "\(why(reason, keySetup: nil)); keeping the days before it, asking again next run"
    }
  }

  /// One line naming what a partial answer lacks, grouped by why: `warning: CoinGecko sent no
  /// price for ETH/EUR; no price for GBP/KRW: <the failure>; showing the prices that arrived`.
  static func missing(_ figures: [MissingFigure], keySetup: KeySetup? = nil) -> String {
    var groups: [(why: String?, provider: RateSource?, names: [String])] = []
    for figure in figures {
      let why = figure.failure.map { Self.why($0, keySetup: keySetup) }
      let name = TerminalText.sanitize(figure.name)
      if let index = groups.firstIndex(where: { $0.why == why && $0.provider == figure.provider }) {
        groups[index].names.append(name)
      } else {
        groups.append((why, figure.provider, [name]))
      }
    }
    let parts = groups.map { group in
      let names = NameList.capped(group.names)
      if let why = group.why { return "no price for \(names): \(why)" }
      let who = group.provider.map(\.displayName) ?? "the provider"
      return "\(who) sent no price for \(names)"
    }
    return "warning: " + parts.joined(separator: "; ") + "; showing the prices that arrived"
  }

  /// Why a figure is missing, after `no price for <names>: `: every source's account when
  /// a chain failed (not its whole message, which names the pair again), else the message.
  static func why(_ failure: any Error, keySetup: KeySetup?) -> String {
    if case .noSourceAnswered(_, _, let failures)? = failure as? ProviderError {
      return TerminalText.sanitize(ProviderError.sourcesAccount(failures, keySetup: keySetup))
    }
    return ErrorReport(failure, keySetup: keySetup).message
  }
}
