import Synchronization

/// The fallback policy, its one home: sources asked in order (coins:
/// CoinGecko → Coinbase → Kraken), the next one answering when one fails
/// with a timeout or no connection, a 5xx, a 429, a malformed answer or a
/// range past its plan (``ProviderError/historyTooOld(provider:)``), or
/// does not list the pair (``ProviderError/notCovered(provider:what:)``);
/// a fallback's failure of any kind passes on too.
///
/// A 429 pauses its provider (``ProviderPauses``) so later calls, in this
/// run or the next, skip it until the pause ends. Any other error (an
/// unknown coin, a bad currency) is the user's and is thrown at once. When
/// every source fails, the first error of a source that was asked is thrown
/// (one skipped for its plan or listing only when none was), so cached data
/// may stand in as before. Every figure carries the answering source's
/// name as its `source`. A pinned provider (`--provider`) is never put in
/// a chain.
public enum SourceChain {
  /// The coin sources in their default order.
  public static let coinOrder: [Provider] = [.coinGecko, .coinbase, .kraken]

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
    combined.members = ([primary] + fallbacks).flatMap { $0.answeringSources }
    let ask = Asker(sources: [primary] + fallbacks, pauses: pauses, now: now)
    combined.prices = { pairs in try await ask.first { try await $0.prices(pairs) } }
    combined.dailyCloses = { asset, currency, days in
      try await ask.first { source in
        var answer = try await source.dailyCloses(asset, currency, days)
        answer.source = answer.source ?? source.name
        return answer
      }
    }
    return combined
  }

  /// `sources` in order as one source with `identity`'s name, resolver, quote
  /// check and first day (CoinGecko's when it is among them: it resolves any
  /// coin, and the exchanges ask by symbol).
  public static func chain(
    _ sources: [PriceSource], identity: PriceSource, pauses: ProviderPauses,
    now: @escaping @Sendable () -> Date
  ) -> PriceSource {
    guard let first = sources.first else { return identity }
    var combined = chain(first, then: Array(sources.dropFirst()), pauses: pauses, now: now)
    combined.name = identity.name
    combined.resolve = identity.resolve
    combined.validateQuote = identity.validateQuote
    combined.firstDay = identity.firstDay
    combined.freshness = identity.freshness
    return combined
  }

  /// Asks the sources in order.
  struct Asker: Sendable {
    /// The sources that timed out, could not be reached or answered 5xx during
    /// this chain's life (one command): not asked again by its later calls
    /// (a history's price after its closes), so a hang costs one timeout.
    final class Down: Sendable {
      let errors = Mutex<[String: ProviderError]>([:])
    }
    /// A source that was not really asked (the pair is not listed there, the
    /// range is past its plan): its error is told only when no source that
    /// was asked failed otherwise.
    static func isSkip(_ error: ProviderError) -> Bool {
      switch error {
      case .historyTooOld, .notCovered: return true
      default: return false
      }
    }

    let sources: [PriceSource]
    let pauses: ProviderPauses
    let now: @Sendable () -> Date
    let down = Down()

    func first<T: Sendable>(_ call: @Sendable (PriceSource) async throws -> T) async throws -> T {
      var firstError: ProviderError?
      var skipped: ProviderError?
      for (index, source) in sources.enumerated() {
        if let error = down.errors.withLock({ $0[source.name] }) {
          firstError = firstError ?? error
          continue
        }
        if let end = pauses.pausedUntil(source.name, now: now()) {
          firstError = firstError ?? .rateLimited(
            provider: source.name, retryAfter: Int(end.timeIntervalSince(now()).rounded(.up)))
          continue
        }
        do {
          return try await call(source)
        } catch let error as ProviderError where index > 0 || fallsThrough(error) {
          // A fallback's own failure never hides the first source's.
          switch error {
          case .rateLimited(let provider, let seconds):
            pauses.pause(provider, seconds: seconds, now: now())
          case .serverError, .network:
            down.errors.withLock { $0[source.name] = error }
          default:
            break
          }
          if Self.isSkip(error) {
            skipped = skipped ?? error
          } else {
            firstError = firstError ?? error
          }
        }
      }
      throw firstError ?? skipped
        ?? ProviderError.noData(provider: sources.first?.name ?? "", detail: "no source answered")
    }
  }
}
