import Foundation

/// Everything that can go wrong while asking a provider for data, in terms a
/// user can act on.
public enum ProviderError: Error, Equatable, Sendable {
  /// HTTP 429; `retryAfter` holds the server's `Retry-After` seconds when sent.
  case rateLimited(provider: String, retryAfter: Int?)
  /// The provider does not know this coin.
  case coinNotFound(provider: String, coin: String)
  /// The provider does not price in this currency.
  case invalidCurrency(provider: String, currency: String)
  /// The provider cannot do this at all (CoinDesk and anything but Bitcoin).
  case unsupported(provider: String, detail: String)
  /// The host needs an API key and none was sent.
  case apiKeyMissing(provider: String)
  /// The key belongs to another plan's host, or the plan lacks the endpoint.
  case apiKeyRejected(provider: String, detail: String)
  /// Keyless and demo plans reach only the past 365 days.
  case historyTooOld(provider: String)
  /// A 5xx status after the retries.
  case serverError(provider: String, status: Int)
  /// Any other unexpected status, with the provider's own message.
  case httpStatus(provider: String, status: Int, message: String)
  /// No HTTP response at all.
  case network(provider: String, HTTPError)
  /// The body was not the documented shape.
  case malformedResponse(provider: String, endpoint: String, detail: String)
  /// The provider answered, but with no data for the request.
  case noData(provider: String, detail: String)

  /// Whether cached data may stand in for a fresh answer.
  ///
  /// Transient and server-side failures qualify; mistakes in the request
  /// (an unknown coin or currency) do not.
  public var allowsStaleFallback: Bool {
    switch self {
    case .rateLimited, .serverError, .network, .malformedResponse, .httpStatus, .noData:
      return true
    case .coinNotFound, .invalidCurrency, .unsupported, .apiKeyMissing, .apiKeyRejected,
      .historyTooOld:
      return false
    }
  }
}

extension ProviderError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .rateLimited(let provider, let retryAfter?):
      return "\(Providers.displayName(provider)) rate limit reached: retry in \(retryAfter) s"
        + (provider == Providers.coinGecko ? " (a free COINGECKO_API_KEY raises the limit)" : "")
    case .rateLimited(let provider, nil):
      return "\(Providers.displayName(provider)) rate limit reached: wait a minute and retry"
        + (provider == Providers.coinGecko ? " (a free COINGECKO_API_KEY raises the limit)" : "")
    case .coinNotFound(let provider, let coin):
      let name = TerminalText.sanitize(coin)
      let guess = Suggestions.coin(near: coin).map { ": did you mean '\($0)'?" } ?? ":"
      return "unknown coin '\(name)' at \(Providers.displayName(provider))\(guess)"
        + " try 'rates search \(name)'"
    case .invalidCurrency(let provider, let currency):
      let codes = currency.split(separator: ",").map { TerminalText.sanitize(String($0)) }
      let what = codes.count > 1 ? "one of \(codes.joined(separator: ", "))" : "'\(codes.first ?? "")'"
      let guess = codes.count == 1 ? Suggestions.currency(near: currency).map { "did you mean '\($0)'? " } : nil
      return "\(Providers.displayName(provider)) does not price in \(what): "
        + (guess ?? "") + "see 'rates currencies' for the codes"
    case .unsupported(let provider, let detail):
      return "\(Providers.displayName(provider)): \(detail)"
    case .apiKeyMissing(let provider):
      return "\(Providers.displayName(provider)) needs an API key for this host: set COINGECKO_PRO_API_KEY, or unset it to use the public host"
    case .apiKeyRejected(let provider, let detail):
      return "\(Providers.displayName(provider)) rejected the API key: \(detail)"
    case .historyTooOld(let provider):
      return "\(Providers.displayName(provider)) only serves the past 365 days on free plans: use --days 365 or less"
    case .serverError(let provider, let status):
      return "\(Providers.displayName(provider)) is having trouble (HTTP \(status)): try again in a few minutes"
    case .httpStatus(let provider, let status, let message):
      let text = message.isEmpty ? "" : ": \(TerminalText.sanitize(String(message.prefix(160))))"
      return "\(Providers.displayName(provider)) answered HTTP \(status)\(text)"
    case .network(let provider, let error):
      return "\(Providers.displayName(provider)): \(error.userMessage)"
    case .malformedResponse(let provider, let endpoint, let detail):
      return "\(Providers.displayName(provider)) sent an unreadable response from \(endpoint) (\(detail)): try again later"
    case .noData(let provider, let detail):
      return "\(Providers.displayName(provider)) has no data: \(detail)"
    }
  }
}

extension HTTPError {
  /// A one-line explanation with the next step.
  public var userMessage: String {
    switch self {
    case .timedOut(let host, let seconds):
      return "\(host) did not answer within \(seconds) s: check your connection or try again (--offline shows cached data)"
    case .bodyTooLarge(let host, let limit):
      return "\(host) sent more than \(limit / 1_048_576 > 0 ? "\(limit / 1_048_576) MiB" : "\(limit) bytes"): refusing the response"
    case .secureConnectionFailed(let host):
      return "the secure connection to \(host) failed (TLS or certificate): check the date and time, proxies and the URL"
    case .invalidRequest(let detail):
      return "the request could not be sent: \(detail)"
    case .unavailable(let detail):
      return "no HTTP client: \(detail) (--offline shows cached data)"
    case .cannotConnect(let host):
      return "could not connect to \(host): check your connection (--offline shows cached data)"
    case .cannotFindHost(let host):
      return "could not resolve \(host): are you offline? (--offline shows cached data)"
    case .connectionLost(let host):
      return "the connection to \(host) dropped mid-response: try again"
    case .cancelled:
      return "the request was cancelled"
    case .other(let host, let code):
      return "request to \(host) failed (error \(code)): try again"
    }
  }
}

/// Close matches for a mistyped coin or currency, from local tables only
/// (a suggestion never costs a request).
enum Suggestions {
  /// The closest well-known coin symbol, id or name to `input`.
  static func coin(near input: String) -> String? {
    let candidates = Array(CoinResolver.wellKnown.values) + Array(CoinResolver.wellKnown.keys)
    return EditDistance.suggestions(for: input, in: candidates.sorted(), limit: 1).first
  }

  /// The closest currency code to `input`.
  static func currency(near input: String) -> String? {
    let codes = Set(FiatCurrencies.ecb.keys).union(CurrencyCodes.coinGeckoQuotes)
      .union(CurrencyCodes.fiat)
    // Prefer the codes people use most when several are as close.
    let ranked = ["EUR", "USD", "GBP"] + codes.subtracting(["EUR", "USD", "GBP"]).sorted()
    return EditDistance.suggestions(for: input.uppercased(), in: ranked, limit: 1).first
  }
}

/// Names of the providers `rates` knows.
public enum Providers {
  /// CoinGecko v3.
  public static let coinGecko = "coingecko"
  /// The CoinDesk Bitcoin Price Index v1 format.
  public static let coinDesk = "coindesk"
  /// Frankfurter v1, the ECB's euro reference rates.
  public static let frankfurter = "frankfurter"
  /// The user's own exchanges (`rates ledger`), a source but not a provider.
  public static let ledger = "ledger"
  /// Every provider name accepted by `--provider`.
  public static let all = [coinGecko, coinDesk, frankfurter]

  /// The provider's name as written in messages.
  public static func displayName(_ name: String) -> String {
    switch name {
    case coinGecko: return "CoinGecko"
    case coinDesk: return "CoinDesk"
    case frankfurter: return "Frankfurter (ECB)"
    case ledger: return "your ledger"
    default: return name
    }
  }
}
