import RateCore

// The words for a chain whose every source failed: which sources were asked and what each
// said, in one line (`no price for PEPE/USD: CoinGecko unavailable (HTTP 503), Coinbase
// Exchange and Kraken do not list it: try again in a few minutes`).

extension ProviderError {
  /// The whole message of ``noSourceAnswered(pairs:closes:failures:)``: what was asked, then
  /// ``sourcesAccount(_:)``; any other error's own message.
  func noSourceMessage(keySetup: KeySetup?) -> String {
    guard case .noSourceAnswered(let pairs, let closes, let failures) = self else {
      return answerMessage()
    }
    return "no \(closes ? "daily closes" : "price") for \(TerminalText.sanitize(pairs)): "
      + Self.sourcesAccount(failures, keySetup: keySetup)
  }

  /// What each source said, sources that said the same grouped (`Coinbase Exchange and
  /// Kraken do not list it`), then the decisive failure's own message (its next step).
  static func sourcesAccount(_ failures: [ProviderError], keySetup: KeySetup? = nil) -> String {
    var groups: [(names: [String], said: SourceSaid)] = []
    for failure in failures {
      let said = SourceSaid(failure)
      let name = failure.source?.displayName ?? ""
      if let index = groups.firstIndex(where: { $0.said == said }) {
        if !groups[index].names.contains(name) { groups[index].names.append(name) }
      } else {
        groups.append(([name], said))
      }
    }
    let parts = groups.map { group in
      Self.and(group.names) + " " + (group.names.count > 1 ? group.said.plural : group.said.singular)
    }
    let decisive = ProviderError.noSourceAnswered(pairs: "", closes: false, failures: failures)
      .decisive
    return parts.joined(separator: ", ") + nextStep(after: decisive, keySetup: keySetup)
  }

  /// `; ` and the decisive failure's own message (with its next step) when the source was
  /// down, limited or unreadable; nothing after an answer about the pair itself.
  static func nextStep(after decisive: ProviderError, keySetup: KeySetup?) -> String {
    switch decisive {
    case .rateLimited, .serverError, .network, .malformedResponse, .httpStatus:
      return "; " + ErrorReport(decisive, keySetup: keySetup).message
    default:
      return ""
    }
  }

  /// `A`, `A and B`, `A, B and C`.
  static func and(_ items: [String]) -> String {
    guard items.count > 1, let last = items.last else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + last
  }

  /// The source a failure is about (nil for one that names none).
  var source: RateSource? {
    switch self {
    case .rateLimited(let provider, _), .coinNotFound(let provider, _),
      .invalidCurrency(let provider, _), .unsupported(let provider, _),
      .apiKeyMissing(let provider), .apiKeyRejected(let provider, _),
      .paidPlanOnly(let provider, _, _), .keyPlanMismatch(let provider, _, _),
      .historyTooOld(let provider), .serverError(let provider, _),
      .httpStatus(let provider, _, _), .network(let provider, _),
      .malformedResponse(let provider, _, _), .noData(let provider, _),
      .leftOut(let provider, _, _, _), .notCovered(let provider, _):
      return provider
    case .noProvider, .noSourceAnswered:
      return nil
    }
  }
}

/// One source's failure in a few words, as a verb phrase for one source or several.
struct SourceSaid: Equatable {
  var singular: String
  var plural: String

  init(_ singular: String, _ plural: String? = nil) {
    self.singular = singular
    self.plural = plural ?? singular
  }

  init(_ failure: ProviderError) {
    switch failure {
    case .rateLimited(_, let seconds):
      self.init("rate limited" + (seconds.map { " (for \($0) s)" } ?? ""))
    case .serverError(_, let status): self.init("unavailable (HTTP \(status))")
    case .network(_, .timedOut(_, let seconds)): self.init("did not answer within \(seconds) s")
    case .network: self.init("unreachable")
    case .malformedResponse(_, _, let detail):
      self.init("sent an unreadable answer (\(UntrustedText.sanitize(detail)))")
    case .httpStatus(_, let status, _): self.init("answered HTTP \(status)")
    case .notCovered: self.init("does not list it", "do not list it")
    case .historyTooOld: self.init("serves only the past 365 days keyless", "serve only the past 365 days keyless")
    case .invalidCurrency(_, let currency):
      let code = UntrustedText.sanitize(currency)
      self.init("does not price in \(code)", "do not price in \(code)")
    case .coinNotFound: self.init("does not know it", "do not know it")
    case .noData(_, SourceChain.leftOut): self.init("sent no price for it")
    case .noData: self.init("has no data for it", "have no data for it")
    default:
      self.init("refused: " + ErrorReport(failure).message)
    }
  }
}
