/// Everything that can go wrong while asking a provider for data, in terms a
/// user can act on.
public enum ProviderError: Error, Equatable, Sendable {
  /// HTTP 429; `retryAfter` holds the server's `Retry-After` seconds when sent.
  case rateLimited(provider: RateSource, retryAfter: Int?)
  /// The provider does not know this coin.
  case coinNotFound(provider: RateSource, coin: String)
  /// The provider does not price in this currency.
  case invalidCurrency(provider: RateSource, currency: String)
  /// The provider cannot do this at all (CoinDesk and anything but Bitcoin).
  case unsupported(provider: RateSource, detail: String)
  /// The host needs an API key and none was sent.
  case apiKeyMissing(provider: RateSource)
  /// The plan lacks the endpoint, or the key was refused for another reason.
  case apiKeyRejected(provider: RateSource, detail: String)
  /// `endpoint` is not served on the plan of the key sent as `sent` (`nil`:
  /// no key was sent, a keyless request): CoinGecko's code 10005. The key
  /// itself is good.
  case paidPlanOnly(provider: RateSource, endpoint: String, sent: APIKeyPlan?)
  /// The key and the host belong to different plans: CoinGecko's `code`
  /// 10010 (a Pro key on the public host) or 10011 (a Demo key on the pro
  /// host). `sent` is the plan the key was sent as (`nil`: no key was sent).
  case keyPlanMismatch(provider: RateSource, code: Int, sent: APIKeyPlan?)
  /// Keyless and demo plans reach only the past 365 days, and the request
  /// asked for more.
  case historyTooOld(provider: RateSource)
  /// A 5xx status after the retries.
  case serverError(provider: RateSource, status: Int)
  /// Any other unexpected status, with the provider's own message.
  case httpStatus(provider: RateSource, status: Int, message: String)
  /// No HTTP response at all.
  case network(provider: RateSource, HTTPError)
  /// The body was not the documented shape.
  case malformedResponse(provider: RateSource, endpoint: String, detail: String)
  /// The provider answered, but with no data for the request.
  case noData(provider: RateSource, detail: String)
  /// The provider's answers left out `day` of `pair` (`EUR/GBP`), a day it
  /// should have had: it is asked again at `askAgain` (the day store's backoff).
  case leftOut(provider: RateSource, pair: String, day: Day, askAgain: Date)
  /// The provider covers only some assets (CoinDesk: Bitcoin; the ECB: fiat
  /// currencies), and `what` is not one of them.
  case notCovered(provider: RateSource, what: String)
  /// No provider covers this pair of currencies (say, a street rate).
  case noProvider(base: String, quote: String)
  /// Every source of a chain (``SourceChain``) failed for `pairs` (`PEPE/USD`): each
  /// source's own failure, in the order the chain holds them (a source skipped for a
  /// pause or an earlier failure in this run has that failure). `closes`: daily closes
  /// were asked, else current prices. ``decisive`` is what it means for exit codes and
  /// the cache.
  case noSourceAnswered(pairs: String, closes: Bool, failures: [ProviderError])

  /// Whether cached data may stand in for a fresh answer.
  ///
  /// Transient and server-side failures qualify; mistakes in the request
  /// (an unknown coin or currency) do not.
  public var allowsStaleFallback: Bool {
    switch self {
    case .noSourceAnswered: return decisive.allowsStaleFallback
    case .rateLimited, .serverError, .network, .malformedResponse, .httpStatus, .noData:
      return true
    case .coinNotFound, .invalidCurrency, .unsupported, .apiKeyMissing, .apiKeyRejected,
      .paidPlanOnly, .keyPlanMismatch, .historyTooOld, .noProvider, .notCovered, .leftOut:
      return false
    }
  }

  /// Whether the provider could not be reached or was down (no response, a
  /// timeout, a 5xx after the retries): the failures for which the ECB
  /// snapshot may stand in when nothing is cached (``CacheFallback``).
  public var isUnavailable: Bool {
    switch self {
    case .noSourceAnswered: return decisive.isUnavailable
    case .serverError: return true
    case .network(_, let failure):
      switch failure {
      case .cancelled, .invalidRequest, .bodyTooLarge: return false
      default: return true
      }
    default: return false
    }
  }
}

extension ProviderError {
  /// The failure that decides what this error means (its exit code, whether the cache or
  /// the ECB snapshot may stand in), the one rule for a chain's failures: of
  /// ``noSourceAnswered(pairs:closes:failures:)``, the first failure of a source that was
  /// really asked (not one skipped because it does not list the pair or the range is past
  /// its plan), else the first; any other error is itself.
  public var decisive: ProviderError {
    guard case .noSourceAnswered(let pairs, _, let failures) = self else { return self }
    let asked = failures.first { !SourceChain.isSkip($0) } ?? failures.first
    guard let asked, asked != self else { return .noneAsked(pairs) }
    return asked.decisive
  }

  /// The failure of a chain that asked no source for `pairs` (`PEPE/USD`): no provider
  /// has the pair. A chain always holds a source, so this is the rule for a case that
  /// cannot arise rather than one users meet.
  static func noneAsked(_ pairs: String) -> ProviderError {
    let parts = pairs.split(separator: "/", maxSplits: 1).map(String.init)
    return .noProvider(base: parts.first ?? pairs, quote: parts.count > 1 ? parts[1] : "")
  }

  /// This error as it concerns `asset`, which the user typed as `typed`.
  ///
  /// A "coin not found" about a coin known to exist
  /// (``CoinResolver/isVerified(_:)``) is missing data, never an unknown
  /// coin; otherwise it names what the user typed rather than the
  /// provider's id. Other errors are returned unchanged.
  public func about(_ asset: Asset, typed: String) -> ProviderError {
    guard case .coinNotFound(let provider, _) = self else { return self }
    return Self.nothing(for: [(asset, typed)], provider: provider)
  }

  /// The error for an answer from `provider` that has nothing for `coins`,
  /// each named by its ``Asset/symbol`` (what the user typed or sees), never
  /// by the provider's id: the coins not known to exist
  /// (``CoinResolver/isVerified(_:)``) are unknown; when every one is known,
  /// the data is missing.
  public static func nothing(for coins: [Asset], provider: RateSource) -> ProviderError {
    nothing(for: coins.map { ($0, $0.symbol) }, provider: provider)
  }

  static func nothing(for coins: [(asset: Asset, typed: String)], provider: RateSource)
    -> ProviderError
  {
    let unknown = coins.filter { !CoinResolver.isVerified($0.asset) }.map(\.typed)
    guard unknown.isEmpty else {
      return .coinNotFound(provider: provider, coin: NameList.capped(unknown))
    }
    let names = coins.map(\.typed)
    return .noData(
      provider: provider,
      detail: "the answer has nothing for \(NameList.capped(names)), "
        + (names.count == 1 ? "a coin it lists" : "coins it lists"))
  }
}

/// The plan an API key was sent as: CoinGecko's free Demo plan (public host)
/// or a paid Pro plan (pro host).
public enum APIKeyPlan: String, Sendable, Equatable {
  case demo
  case pro
}
