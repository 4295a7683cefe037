/// The fallback policy, its one home: sources asked in order (coins:
/// CoinGecko → Coinbase → Kraken), the next one answering when one fails
/// with a timeout or no connection, a 5xx, a 429, a malformed answer or a
/// range past its plan (``ProviderError/historyTooOld(provider:)``), or
/// does not list the pair (``ProviderError/notCovered(provider:what:)``).
///
/// A 429 pauses its provider (``ProviderPauses``) so later calls, in this
/// run or the next, skip it until the pause ends. Any other error (an
/// unknown coin, a bad currency) is the user's and is thrown at once. When
/// every source fails, the first source's error is thrown, so cached data
/// may stand in as before. Every figure carries the answering source's
/// name as its `source`. A pinned provider (`--provider`) is never put in
/// a chain.
public enum SourceChain {
  /// Whether `error` passes the question to the next source.
  public static func fallsThrough(_ error: ProviderError) -> Bool {
    switch error {
    case .rateLimited, .serverError, .malformedResponse, .historyTooOld, .notCovered:
      return true
    case .network:
      return error.isUnavailable
    default:
      return false
    }
  }

  /// `primary` then `fallbacks` as one source: the primary's name, resolver
  /// and quote check (the chain's identity), each call answered by the first
  /// source that can.
  public static func chain(
    _ primary: PriceSource, then fallbacks: [PriceSource], pauses: ProviderPauses,
    now: @escaping @Sendable () -> Date
  ) -> PriceSource {
    var combined = primary
    let ask = Asker(sources: [primary] + fallbacks, pauses: pauses, now: now)
    combined.prices = { pairs in try await ask.first { try await $0.prices(pairs) } }
    combined.dailyCloses = { asset, currency, days in
      try await ask.first { try await $0.dailyCloses(asset, currency, days) }
    }
    return combined
  }

  /// Asks the sources in order.
  struct Asker: Sendable {
    let sources: [PriceSource]
    let pauses: ProviderPauses
    let now: @Sendable () -> Date

    func first<T: Sendable>(_ call: @Sendable (PriceSource) async throws -> T) async throws -> T {
      var firstError: ProviderError?
      for source in sources {
        if let end = pauses.pausedUntil(source.name, now: now()) {
          firstError = firstError ?? .rateLimited(
            provider: source.name, retryAfter: Int(end.timeIntervalSince(now()).rounded(.up)))
          continue
        }
        do {
          return try await call(source)
        } catch let error as ProviderError where fallsThrough(error) {
          if case .rateLimited(let provider, let seconds) = error {
            pauses.pause(provider, seconds: seconds, now: now())
          }
          firstError = firstError ?? error
        }
      }
      throw firstError
        ?? ProviderError.noData(provider: sources.first?.name ?? "", detail: "no source answered")
    }
  }
}
