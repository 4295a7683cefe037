import RateCore

/// `rates top`: the largest coins by market cap, then the user's coins.
struct TopCommand: RatesCommand {
  static let name = "top"
  static let abstract = "the top coins by market cap, then your coins"
  struct Declared: Declarations {
    let limit = Option.integer("--limit", value: "N", in: 1...1000, default: defaultLimit) {
      "how many coins, \($0.rangeAndDefault))"
    }
    let currencies = Option.currencies(
      help: "currencies, comma-separated (default: RATES_CURRENCY or USD); market caps are in the first")
  }
  static let discussion = """
    Each row: rank, symbol, name, price, 24-hour change and market cap; starred coins
    (favorites) are marked. Your coins (rates coins) that are not in the top N follow. One
    request per currency and 250 coins (CoinGecko's page), concurrently (your coins outside
    the top 100 cost one more per 250 of them); answers are cached for a minute.
    """
  static let examples = [
    "rates top",
    "rates top --limit 20 --in EUR,USD",
    "rates top --json | jq '.coins[] | {symbol, rate: .quotes[0].rate}'",
  ]

  let limit: Int
  /// How many coins `top` lists without `--limit`.
  static let defaultLimit = 5
  let currencies: [String]

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    limit = try scanner.read(Self.declared.limit)
    currencies = try CurrencyList.parse(
      try scanner.read(Self.declared.currencies), default: defaults.currency)
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    try CurrencyList.requireCoinGeckoQuotes(currencies)
    let data = invocation.userData()
    let coins = try data.readCoins()
    let favoriteIDs = Set(try data.favorites.read().map(\.id))
    let fetched = await invocation.desk.listings(
      in: currencies.map { CurrencyCode($0) }, top: limit, following: coins.map(\.asset))
    let answers = fetched.listings
    let staleness = answers.flatMap { [$0.top.staleness, $0.others?.staleness] }.compactMap { $0 }
      .min { $0.fetchedAt < $1.fetchedAt }
    invocation.report(staleness)
    let missing =
      fetched.missing
      + MissingFigure.leftOut(answers.flatMap(\.top.missing), by: .provider(.coinGecko))
    try invocation.report(partial: missing, arrived: !answers.isEmpty)
    let now = invocation.context.now()
    try invocation.write(
      MarketTable.output(
        Self.rows(answers, coins: coins, favoriteIDs: favoriteIDs), currencies: currencies,
        fetchedAt: answers.map(\.top.fetchedAt).min() ?? now, staleness: staleness,
        missing: missing, now: now))
    return .success
  }

  /// The top coins of the first listing that arrived, then your coins outside them (a coin
  /// no answer had shows as such, with dashes, as in `coins`), each priced in every listing.
  static func rows(_ answers: [RateCore.MarketListing], coins: [FavoriteCoin], favoriteIDs: Set<String>)
    -> [MarketRow]
  {
    guard let primary = answers.first else { return [] }
    let top = primary.top.value.map { ($0, true) }
    let others = (primary.others?.value ?? []).map { ($0, false) }
    var shown = Set((top + others).map(\.0.id))
    let absent = coins.filter { shown.insert($0.id).inserted }.map { (CoinMarket.placeholder($0), false) }
    return (top + others + absent).map { coin, inTop in
      var byCurrency: [String: CoinMarket] = [:]
      for answer in answers {
        let all = answer.top.value + (answer.others?.value ?? [])
        byCurrency[answer.currency.text] = all.first { $0.id == coin.id }
      }
      let favorite = favoriteIDs.contains(coin.id)
      return MarketRow(
        coin: coin, favorite: favorite, inTop: inTop, byCurrency: byCurrency, starMark: favorite,
        belowTop: !inTop)
    }
  }
}

/// Parses `--in` lists: comma-separated or repeated codes, upper-cased, deduplicated.
enum CurrencyList {
  static func parse(_ values: [String], default fallback: String) throws(UsageError) -> [String] {
    var currencies: [String] = []
    for item in values.flatMap({ $0.split(separator: ",") }) {
      guard let code = CurrencyCode(item.trimming(.whitespaces), shape: .quote)?.text else {
        throw UsageError.invalidValue(
          option: "--in", value: String(item), expected: "currency codes such as EUR,USD")
      }
      if !currencies.contains(code) { currencies.append(code) }
    }
    guard currencies.isEmpty else { return currencies }
    guard CurrencyCode.isValid(fallback, shape: .quote) else {
      throw UsageError.invalid(
        "RATES_CURRENCY '\(TerminalText.sanitize(fallback))' is not a currency code: use one such as USD or EUR")
    }
    return [CurrencyCode(fallback).text]
  }

  /// Refuses, before any request, currencies CoinGecko does not price in.
  static func requireCoinGeckoQuotes(_ currencies: [String]) throws {
    for currency in currencies where !CurrencyCodes.coinGeckoQuotes.contains(currency) {
      throw ProviderError.invalidCurrency(provider: .provider(.coinGecko), currency: currency)
    }
  }
}
