import RateCore

// The words for domain errors: RateCore reports typed values, the command line
// says what happened and what to do.

extension ProviderError: LocalizedError {
  public var errorDescription: String? { message(keySetup: nil) }

  /// The one-line message, with key advice that fits `keySetup` (the
  /// user's CoinGecko key and where it comes from; `nil` when unknown).
  func message(keySetup: KeySetup?) -> String {
    if case .noSourceAnswered = self { return noSourceMessage(keySetup: keySetup) }
    return keyMessage(keySetup) ?? answerMessage()
  }

  /// The messages about access: rate limits, API keys and plans, with key advice.
  func keyMessage(_ keySetup: KeySetup?) -> String? {
    switch self {
    case .rateLimited(let provider, let retryAfter):
      let wait = retryAfter.map { "retry in \($0) s" } ?? "wait a minute and retry"
      return "\(provider.displayName) rate limit reached: \(wait)"
        + (provider == .provider(.coinGecko) ? KeyAdvice.rateLimitHint(keySetup) : "")
    case .apiKeyMissing(let provider):
      return "\(provider.displayName) needs an API key for this host: "
        + KeyAdvice.missing(keySetup)
    case .apiKeyRejected(let provider, let detail):
      return "\(provider.displayName) rejected the API key: \(detail)"
    case .paidPlanOnly(let provider, let endpoint, nil):
      return "\(provider.displayName) serves \(endpoint) only on its paid plans"
        + " (no API key is set): set COINGECKO_PRO_API_KEY to a paid plan's key to use it"
    case .paidPlanOnly(let provider, let endpoint, let sent?):
      return "\(provider.displayName) does not serve \(endpoint) on your key's plan"
        + " (\(sent == .demo ? "Demo" : "Pro"), the key itself is accepted): use the key of a plan"
        + " that includes it (\(sent == .demo ? "COINGECKO_PRO_API_KEY" : "see your CoinGecko dashboard"))"
        + ", or another provider (--provider coindesk prices Bitcoin)"
    case .keyPlanMismatch(let provider, let code, let sent):
      return "\(provider.displayName) rejected the API key (error \(code)): "
        + KeyAdvice.planMismatch(code: code, sent: sent, keySetup)
    case .historyTooOld(let provider):
      return "\(provider.displayName) only serves the past 365 days on its free plans "
        + "(keyless and Demo): pick days within the last year, or set COINGECKO_PRO_API_KEY "
        + "(a paid plan) for older ones"
    default:
      return nil
    }
  }

  /// An exchange (Coinbase, Kraken) does not list `what`: what the exchanges are asked for.
  static func notListed(_ provider: RateSource, _ what: String) -> String {
    "\(provider.displayName) does not list \(TerminalText.sanitize(what)): the"
      + " exchanges are asked for \(ExchangeListings.coins.sorted().joined(separator: ", ")) in"
      + " \(ExchangeListings.quotes.sorted().joined(separator: ", ")) only; CoinGecko prices more"
      + " (drop --provider, or put coingecko in 'rates config set providers')"
  }

  /// The messages about what a provider answered, or could not: the rest.
  func answerMessage() -> String {
    switch self {
    case .coinNotFound(let provider, let coin):
      let name = UntrustedText.sanitize(coin)
      let guess = Suggestions.coin(near: coin).map { ": did you mean '\($0)'?" } ?? ":"
      return "unknown coin '\(name)' at \(provider.displayName)\(guess)"
        + " try 'rates search \(name)'"
    case .invalidCurrency(let provider, let currency):
      let codes = currency.split(separator: ",").map { UntrustedText.sanitize(String($0)) }
      let what = codes.count > 1 ? "one of \(codes.joined(separator: ", "))" : "'\(codes.first ?? "")'"
      let guess = codes.count == 1 ? Suggestions.currency(near: currency).map { "did you mean '\($0)'? " } : nil
      return "\(provider.displayName) does not price in \(what): "
        + (guess ?? "") + "see 'rates currencies' for the codes"
    case .unsupported(let provider, let detail):
      return "\(provider.displayName): \(detail)"
    case .serverError(let provider, let status):
      return "\(provider.displayName) is having trouble (HTTP \(status)): try again in a few minutes"
    case .httpStatus(let provider, let status, let message):
      let text = message.isEmpty ? "" : ": \(UntrustedText.sanitize(Self.shortened(message)))"
      return "\(provider.displayName) answered HTTP \(status)\(text)"
    case .network(let provider, let error):
      return "\(provider.displayName): \(error.userMessage)"
    case .malformedResponse(let provider, let endpoint, let detail):
      // Asking again gets the same answer: say what is wrong, not "try later".
      return Self.unreadable(provider, endpoint, detail, retrying: false)
    case .noData(let provider, let detail):
      return "\(provider.displayName) has no data: \(detail)"
    case .noSourceAnswered: return noSourceMessage(keySetup: nil)
    case .leftOut(let provider, let pair, let day, let askAgain):
      return "\(provider.displayName) left \(pair) on \(day) out of its answer: "
        + "it is asked again after \(ISO8601.format(askAgain)), or now with --refresh"
    case .notCovered(let provider, let what) where provider == .provider(.coinDesk):
      return "\(provider.displayName): the Bitcoin Price Index covers Bitcoin only,"
        + " not '\(TerminalText.sanitize(what))': use --provider coingecko"
    case .notCovered(let provider, let what) where provider.standsIn == .coinGecko:
      return Self.notListed(provider, what)
    case .notCovered(let provider, let what):
      return "\(provider.displayName): ECB reference rates cover fiat currencies only"
        + " (\(FiatCurrencies.ecb.count) of them, see 'rates currencies'); \(TerminalText.sanitize(what))"
        + " is not one: drop --provider"
    case .noProvider(let base, let quote):
      return "no provider has \(base)/\(quote) rates: ECB rates cover \(FiatCurrencies.ecb.count) currencies"
        + " (see 'rates currencies') and CoinGecko prices coins; for a street rate, record your"
        + " exchanges with 'rates ledger add', then 'rates pairs add \(base) \(quote)' or"
        + " 'rates ledger rate \(base) \(quote)' (convert and stats take --ledger)"
    case .rateLimited, .apiKeyMissing, .apiKeyRejected, .paidPlanOnly, .keyPlanMismatch,
      .historyTooOld:
      return keyMessage(nil) ?? ""
    }
  }
}

extension ProviderError {
  /// The words for an answer refused as malformed: what was wrong, and what to
  /// do. A command that ends says asking again will not help; one that asks
  /// again by itself (`watch`) says what to do if it keeps coming.
  static func unreadable(_ provider: RateSource, _ endpoint: String, _ detail: String, retrying: Bool)
    -> String
  {
    let variable =
      [
        Provider.coinGecko: EnvironmentVariable.coinGeckoURL.name,
        Provider.coinDesk: EnvironmentVariable.coinDeskURL.name,
        Provider.frankfurter: EnvironmentVariable.frankfurterURL.name,
        Provider.coinbase: EnvironmentVariable.coinbaseURL.name,
        Provider.kraken: EnvironmentVariable.krakenURL.name,
      ][provider.provider ?? .ecb].map { " (\($0))" } ?? ""
    return "\(provider.displayName) sent an unreadable response from \(endpoint)"
      + " (\(detail)): "
      + (retrying ? "if it keeps coming, check" : "asking again will not help; check")
      + " the provider URL\(variable) or report the problem"
  }

  /// The one-line message for a failure `watch` will ask again after: as on
  /// exit (``message(keySetup:)``), but an unreadable answer does not say that
  /// asking again will not help.
  func retryingMessage(keySetup: KeySetup?) -> String {
    guard case .malformedResponse(let provider, let endpoint, let detail) = self else {
      return ErrorReport(self, keySetup: keySetup).message
    }
    return Self.unreadable(provider, endpoint, detail, retrying: true)
  }
}

extension CoinResolver.Refusal: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .currencyCode(let code):
      let name = TerminalText.sanitize(code)
      return "\(name) is a currency, not a coin: to mean a coin with the symbol \(name), name it by"
        + " its CoinGecko id ('rates search \(name)' lists them, e.g. rates coins add <id>)"
    }
  }
}

extension ProviderError {
  /// The longest provider message shown, in characters.
  static let messageLimit = 160

  /// `message` when it fits ``messageLimit``; else its whole sentences that
  /// fit (or, with none, its whole words), then "…", never cut mid-word.
  static func shortened(_ message: String) -> String {
    let text = message.trimming(.whitespacesAndNewlines)
    guard text.count > messageLimit else { return text }
    let head = text.prefix(messageLimit)
    let sentence = head.ranges(of: ". ").last.map { head[..<$0.upperBound] }
    let words = head.ranges(of: " ").last.map { head[..<$0.lowerBound] + " " }
    return String(sentence ?? words ?? head).trimming(.whitespaces) + " …"
  }
}

extension HTTPError {
  /// The next step that works without the network. Nothing was cached for the request (or
  /// it would have been shown), so `--offline` would not help; currency pairs always work
  /// from the built-in ECB rates.
  static let offlineHint =
    "'rates doctor' checks each provider; currency pairs work offline from the built-in"
    + " ECB rates (rates convert 100 EUR USD)"

  /// `message` without ``offlineHint``, for a note beside data that was shown anyway.
  static func droppingOfflineHint(_ message: String) -> String {
    message.replacing("; " + offlineHint, with: "")
      .replacing(" " + offlineHint, with: "")
  }

  /// A one-line explanation with the next step.
  var userMessage: String {
    switch self {
    case .timedOut(let host, let seconds):
      return "\(host) did not answer within \(seconds) s: check your connection or try again; \(Self.offlineHint)"
    case .bodyTooLarge(let host, let limit):
      return
        "\(host) sent more than \(limit / 1_048_576 > 0 ? "\(limit / 1_048_576) MiB" : "\(limit) bytes"): refusing the response"
    case .secureConnectionFailed(let host):
      return
        "the secure connection to \(host) failed (TLS or certificate): check the date and time, proxies and the URL"
    case .invalidRequest(let detail):
      return "the request could not be sent: \(detail)"
    case .unavailable(let detail):
      return "no HTTP client: \(detail); \(Self.offlineHint)"
    case .cannotConnect(let host):
      return "could not connect to \(host): check your connection; \(Self.offlineHint)"
    case .cannotFindHost(let host):
      return "could not resolve \(host): are you offline? \(Self.offlineHint)"
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
  /// The closest well-known coin symbol, id or name to `input`; `nil` when
  /// `input` already names a well-known coin, so a suggestion never repeats
  /// what was typed (`ETH` for `ETH`, `bitcoin` for `BTC`).
  static func coin(near input: String) -> String? {
    let upper = CurrencyCode(input).text
    let lower = input.lowercased()
    guard CoinResolver.wellKnown[upper] == nil, !CoinResolver.knownIDs.contains(lower) else {
      return nil
    }
    let candidates = Array(CoinResolver.wellKnown.values) + Array(CoinResolver.wellKnown.keys)
    guard let near = EditDistance.suggestion(for: input, in: candidates.sorted()), near.lowercased() != lower
    else { return nil }
    return near
  }

  /// The closest currency code to `input`.
  static func currency(near input: String) -> String? {
    let codes = Set(FiatCurrencies.ecb.keys).union(CurrencyCodes.coinGeckoQuotes)
      .union(CurrencyCodes.fiat)
    // Prefer the codes people use most when several are as close.
    // A provider refusing a code rates knows needs no "did you mean" (not itself, not a
    // neighbour such as TWD for KWD).
    let typed = CurrencyCode(input).text
    guard !codes.contains(typed) else { return nil }
    let ranked = ["EUR", "USD", "GBP"] + codes.subtracting(["EUR", "USD", "GBP"]).sorted()
    return EditDistance.suggestion(for: typed, in: ranked)
  }
}

extension LedgerQueryError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .noExchanges(let base, let quote, let days):
      let span = days == 1 ? "today" : "the last \(days) days"
      return "no exchanges between \(base) and \(quote) in \(span) in your ledger: record one "
        + "with 'rates ledger add'"
    case .neverExchanged(let base, let quote):
      return "no exchanges between \(base) and \(quote) in your ledger, so no street rate: record "
        + "one with 'rates ledger add 100 \(base) <AMOUNT> \(quote) --sell'"
    }
  }
}

extension PortfolioError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .overdrawn(let id, let code, let amount, let held, let day):
      return "withdrawal #\(id) takes \(RateFormat.money(amount, code: code.text)) on \(day), but only "
        + "\(RateFormat.money(held, code: code.text)) is held then: fix it with 'rates ledger remove \(id)'"
    case .unpriced(let code, let reason):
      return "\(code) cannot be valued: \(reason); record an exchange of it against USD or EUR"
    case .noPrice(let code, let day, let reason):
      return "no price for \(code) on \(day): \(reason)"
    }
  }
}

extension RateService.ServiceError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .nothingCached(let what):
      return "no cached data for \(what): run without --offline to fetch it"
    case .notLookedUp(let coin):
      return "\(Provider.coinGecko.displayName) has no data: '\(TerminalText.sanitize(coin))'"
        + " has not been looked up yet; run once without --offline"
    }
  }
}

extension LedgerCSV.ForeignSeparator {
  /// Why `ledger import` refuses the file and what to do: numbers in such a file may use
  /// `,` as the decimal point, so it is not read but saved again with commas.
  var message: String {
    let separated: String
    switch self {
    case .semicolon: separated = "separated by semicolons (;)"
    case .tab: separated = "separated by tabs"
    case .other(let character):
      separated = "separated by \(UntrustedText.sanitize(String(character))) (its sep= line says so)"
    }
    return "the file is \(separated), as some spreadsheets save CSV: save it again as "
      + "comma-separated CSV, with '.' as the decimal point, and import that"
  }
}
