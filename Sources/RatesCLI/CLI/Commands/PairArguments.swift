import RateCore

/// Reads `<BASE> [<QUOTE>]`, also written `BASE-QUOTE` or `BASE/QUOTE`.
struct PairArguments: Sendable, Equatable {
  var base: String
  var quote: String
}

extension PairArguments {
  /// Reads the pair `base` and `quote` declare (``read(_:base:quote:defaultQuote:splitting:)``)
  /// and validates it as typed (so messages quote it as typed); the quote upper-cased.
  init(
    parsing scanner: inout ArgumentScanner, base: Argument<String>, quote: Argument<String?>,
    defaultQuote: String?
  ) throws(UsageError) {
    let typed = try Self.read(&scanner, base: base, quote: quote, defaultQuote: defaultQuote)
    try Self.validate(base: typed.base, quote: typed.quote)
    self.base = typed.base
    self.quote = CurrencyCode(typed.quote).text
  }

  /// The one reading of a pair's words, as `base` and `quote` declare them: one word that
  /// `splitting` splits (``split(_:)`` unless given), else BASE and then QUOTE, which is
  /// `defaultQuote` when left out, or missing without one (QUOTE is optional on the usage
  /// line as the pair may be one word).
  static func read(
    _ scanner: inout ArgumentScanner, base: Argument<String>, quote: Argument<String?>,
    defaultQuote: String? = nil,
    splitting: (String) -> (String, String)? = PairArguments.split
  ) throws(UsageError) -> (base: String, quote: String) {
    let first = try scanner.read(base)
    if let (pairBase, pairQuote) = splitting(first) {
      // QUOTE was read too, from the same word.
      scanner.argumentsAskedFor.insert(quote.spec)
      return (pairBase, pairQuote)
    }
    guard let defaultQuote else { return (first, try scanner.require(quote)) }
    return (first, try scanner.read(quote) ?? defaultQuote)
  }

  /// The pairs one `COIN|PAIR` word names (`current`, `watch`): the word split (``split(_:)``),
  /// else the coin in each of `currencies`; each validated as typed, a split quote upper-cased.
  static func pairs(_ word: String, in currencies: [String]) throws(UsageError) -> [PairArguments] {
    if let (base, quote) = split(word) {
      try validate(base: base, quote: quote)
      return [PairArguments(base: base, quote: CurrencyCode(quote).text)]
    }
    return try currencies.map { currency throws(UsageError) in
      try validate(base: word, quote: currency)
      return PairArguments(base: word, quote: currency)
    }
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
