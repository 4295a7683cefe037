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
/// every source fails, each one's failure is thrown together
/// (``ProviderError/noSourceAnswered(pairs:closes:failures:)``, or the one
/// failure of a chain of one), so the message names what each said, while its
/// ``ProviderError/decisive`` failure (the first of a source that was asked)
/// decides the exit code and whether cached data may stand in. Every figure carries the answering source's
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
    let lacking = Lacking()
    combined.prices = { pairs in try await ask.prices(pairs, lacking: lacking) }
    combined.whyLacking = { pair in lacking.reason(for: pair) }
    combined.dailyCloses = { asset, currency, days in
      let question = Question(pairs: "\(asset.symbol)/\(currency)", closes: true)
      return try await ask.first(question) { source in
        var answer = try await source.dailyCloses(asset, currency, days)
        answer.source = answer.source ?? .provider(source.name)
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

  /// Whether `error` says a source was not really asked (the pair is not listed there, the
  /// range is past its plan): it decides a chain's failure only when no source that was
  /// asked failed otherwise (``ProviderError/decisive``).
  public static func isSkip(_ error: ProviderError) -> Bool {
    switch error {
    case .historyTooOld, .notCovered: return true
    default: return false
    }
  }

  /// The detail of a chain's ``ProviderError/noData(provider:detail:)`` for a pair a source's
  /// answer left out.
  public static let leftOut = "left out of its answer"

  /// What a chain is asked: the pairs (`PEPE/USD`) and whether for daily closes.
  struct Question: Sendable {
    var pairs: String
    var closes: Bool

    /// The error for `failures`, one per source in order: the failure itself for a chain of
    /// one, else all of them together.
    func failure(_ failures: [ProviderError]) -> ProviderError {
      guard failures.count > 1 else {
        return failures.first ?? .noneAsked(pairs)
      }
      return .noSourceAnswered(pairs: pairs, closes: closes, failures: failures)
    }
  }

  /// Why pairs were missing from a chain's last answer of prices. In an array searched in
  /// order, not a dictionary: `[AssetQuote: …]` costs every command (the chain is made for each,
  /// its reasons released at the end) a run-time lookup of `AssetQuote: Hashable`.
  final class Lacking: Sendable {
    struct Reason: Sendable {
      var pair: AssetQuote
      var error: ProviderError
    }
    let reasons = Mutex<[Reason]>([])

    /// Why `pair` was missing; nil when it was not.
    func reason(for pair: AssetQuote) -> ProviderError? {
      reasons.withLock { reasons in reasons.first { $0.pair == pair }?.error }
    }
  }

  /// Asks the sources in order.
  struct Asker: Sendable {
    /// The sources that timed out, could not be reached or answered 5xx during
    /// this chain's life (one command): not asked again by its later calls
    /// (a history's price after its closes), so a hang costs one timeout.
    final class Down: Sendable {
      let errors = Mutex<[Provider: ProviderError]>([:])
    }

    let sources: [PriceSource]
    let pauses: ProviderPauses
    let now: @Sendable () -> Date
    let down = Down()

    /// The prices of `pairs`: a pair the answering source lacks is asked of the sources after
    /// it (an exchange may list what another does not); each pair no source priced has every
    /// source's failure for it in `lacking`. Throws when none arrives.
    func prices(_ pairs: [AssetQuote], lacking: Lacking) async throws -> [Quote] {
      var quotes: [Quote] = []
      var accounts: [AssetQuote: [ProviderError]] = [:]
      var remaining = pairs
      var start = 0
      var rounds = 0
      while !remaining.isEmpty, start < sources.count {
        rounds += 1
        let asked = remaining
        do {
          let (answer, index, failures) = try await first(Self.question(asked), from: start) {
            try await $0.prices(asked)
          }
          quotes += answer
          remaining = asked.filter { pair in !answer.contains { $0.answers(pair) } }
          let source = sources[index]
          for pair in remaining {
            let own = source.whyLacking(pair) ?? .noData(provider: .provider(source.name), detail: leftOut)
            accounts[pair, default: []] += failures + [own]
          }
          start = index + 1
        } catch let error as ProviderError where !quotes.isEmpty {
          for pair in remaining { accounts[pair, default: []] += Self.accounts(of: error) }
          remaining = []
        }
      }
      let unpriced = pairs.filter { pair in !quotes.contains { $0.answers(pair) } }
      lacking.reasons.withLock { reasons in
        reasons = []
        for pair in unpriced where !reasons.contains(where: { $0.pair == pair }) {
          reasons.append(.init(pair: pair, error: Self.question([pair]).failure(accounts[pair] ?? [])))
        }
      }
      // Answers of several sources, put back in the order asked.
      return rounds == 1 ? quotes : pairs.compactMap { pair in quotes.first { $0.answers(pair) } }
    }

    /// Each source's failure in `error`.
    static func accounts(of error: ProviderError) -> [ProviderError] {
      guard case .noSourceAnswered(_, _, let failures) = error else { return [error] }
      return failures
    }

    static func question(_ pairs: [AssetQuote]) -> Question {
      Question(pairs: NameList.capped(pairs.map { "\($0.asset.symbol)/\($0.quote)" }), closes: false)
    }

    func first<T: Sendable>(
      _ question: Question, _ call: @Sendable (PriceSource) async throws -> T
    ) async throws -> T {
      try await first(question, from: 0, call).value
    }

    /// The first answer from the sources from `start` on, with the index of the source
    /// that gave it and the failures of those asked before it.
    func first<T: Sendable>(
      _ question: Question, from start: Int, _ call: @Sendable (PriceSource) async throws -> T
    ) async throws -> (value: T, index: Int, failures: [ProviderError]) {
      var failures: [ProviderError] = []
      for (index, source) in sources.enumerated() where index >= start {
        if let error = down.errors.withLock({ $0[source.name] }) {
          failures.append(error)
          continue
        }
        if let end = pauses.pausedUntil(source.name, now: now()) {
          failures.append(
            .rateLimited(
              provider: .provider(source.name), retryAfter: Int(end.timeIntervalSince(now()).rounded(.up))))
          continue
        }
        do {
          let value = try await call(source)
          // An answer that passed the source's validation: its last success (`rates doctor`).
          pauses.succeeded(source.name, now: now())
          return (value, index, failures)
        } catch let error as ProviderError where index > 0 || fallsThrough(error) {
          switch error {
          case .rateLimited(let provider, let seconds):
            if let limited = provider.provider { pauses.pause(limited, seconds: seconds, now: now()) }
          case .serverError, .network:
            down.errors.withLock { $0[source.name] = error }
          default:
            break
          }
          failures.append(error)
        }
      }
      throw question.failure(failures)
    }
  }
}

extension Quote {
  /// Whether this quote prices `pair` (by symbol and currency, as a partial answer is matched).
  func answers(_ pair: AssetQuote) -> Bool {
    base == pair.asset.symbol && quote == pair.quote
  }
}
