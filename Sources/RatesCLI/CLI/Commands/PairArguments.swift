import RateCore

/// Reads `<BASE> [<QUOTE>]`, also written `BASE-QUOTE` or `BASE/QUOTE`.
struct PairArguments: Sendable, Equatable {
  init(base: String, quote: String) {
    self.base = base
    self.quote = quote
  }

  var base: String
  var quote: String

  init(parsing scanner: inout ArgumentScanner, defaultQuote: String) throws(UsageError) {
    guard let first = scanner.positional() else { throw UsageError.missingArgument("base") }
    let typedQuote: String
    if let (pairBase, pairQuote) = Self.split(first) {
      base = pairBase
      typedQuote = pairQuote
    } else {
      base = first
      typedQuote = scanner.positional() ?? defaultQuote
    }
    // Validate what the user typed, so messages quote it as typed.
    try Self.validate(base: base, quote: typedQuote)
    quote = CurrencyCode(typedQuote).text
  }

  /// Rejects empty names, malformed codes and a currency paired with itself.
  static func validate(base: String, quote: String) throws(UsageError) {
    guard !base.isEmpty, base.count <= 100 else {
      throw UsageError.invalid("the coin name is empty or too long")
    }
    guard CurrencyCode.isValid(quote, shape: .quote) else {
      throw UsageError.invalid(
        "'\(TerminalText.sanitize(quote))' is not a currency code: use a code such as USD, EUR or BTC")
    }
    let quote = CurrencyCode(quote)
    if CurrencyCode(base) == quote {
      throw UsageError.invalid(
        "\(quote) in \(quote) is always 1: pick two different currencies, e.g. 'BTC \(quote == "EUR" ? "USD" : "EUR")'")
    }
  }

  /// Splits `BASE/QUOTE` always, and `BASE-QUOTE` only when both sides are
  /// known codes: `usd-coin` and `binance-usd` are CoinGecko ids, not pairs.
  static func split(_ text: String) -> (String, String)? {
    guard let name = PairName(text), CurrencyCode.isValid(name.quote, shape: .quote),
      name.slashed || (isKnownCode(name.base) && isKnownCode(name.quote))
    else { return nil }
    return (name.base, name.quote)
  }

  /// A fiat code, a CoinGecko quote currency or a well-known coin symbol.
  static func isKnownCode(_ text: String) -> Bool {
    let code = CurrencyCode(text).text
    return CurrencyCodes.fiat.contains(code) || CurrencyCodes.coinGeckoQuotes.contains(code)
      || CoinResolver.wellKnown[code] != nil
  }
}
