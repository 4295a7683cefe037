import RateCore

/// Prices and 24-hour changes of a list of the user's coins, as a table or the `market`
/// JSON document: `rates coins` and `rates favorites`.
struct MarketListing: Sendable {
  /// The coins, in the list's order.
  let coins: [FavoriteCoin]
  /// The ids of the starred coins.
  let starred: Set<String>
  let currencies: [String]

  /// One request per currency and 250 coins, the currencies concurrently
  /// (``RateDesk/markets(byCurrency:sparkline:)``); a currency that fails is named as missing
  /// and the others are shown.
  func show(_ invocation: Invocation, markStarred: Bool) async throws -> ExitCode {
    let assets = coins.map(\.asset)
    let results = await invocation.desk.markets(
      byCurrency: Dictionary(uniqueKeysWithValues: currencies.map { (CurrencyCode($0), assets) }))
    var answers: [String: MarketService.Answer<[CoinMarket]>] = [:]
    var missing: [MissingFigure] = []
    for currency in currencies {
      switch results[CurrencyCode(currency)] {
      case .success(let answer)?:
        answers[currency] = answer
        missing += MissingFigure.leftOut(answer.missing, by: .provider(.coinGecko))
      case .failure(let error)?:
        missing += coins.map { MissingFigure("\($0.symbol)/\(currency)", failure: error) }
      case nil: break
      }
    }
    let staleness = answers.values.compactMap(\.staleness).min { $0.fetchedAt < $1.fetchedAt }
    invocation.report(staleness)
    try invocation.report(partial: missing, arrived: !answers.isEmpty)
    let now = invocation.context.now()
    try invocation.write(
      MarketTable.output(
        rows(answers, markStarred: markStarred), currencies: currencies,
        fetchedAt: answers.values.map(\.fetchedAt).min() ?? now, staleness: staleness,
        missing: missing, now: now))
    return .success
  }

  /// The coins in the list's order, each priced in every currency that answered; here `inTop`
  /// says whether plain `rates top` lists the coin.
  func rows(_ answers: [String: MarketService.Answer<[CoinMarket]>], markStarred: Bool)
    -> [MarketRow]
  {
    coins.map { coin in
      var byCurrency: [String: CoinMarket] = [:]
      for currency in currencies {
        byCurrency[currency] = answers[currency]?.value.first { $0.id == coin.id }
      }
      // The first currency's row (as `currencies` orders them) names the coin.
      let market = currencies.lazy.compactMap { byCurrency[$0] }.first ?? CoinMarket.placeholder(coin)
      let favorite = starred.contains(market.id)
      return MarketRow(
        coin: market, favorite: favorite,
        inTop: (market.marketCapRank ?? .max) <= TopCommand.defaultLimit, byCurrency: byCurrency,
        starMark: markStarred && favorite, belowTop: false)
    }
  }

  /// Resolves `inputs` and checks each coin has a market at CoinGecko (one request), for
  /// `add`; the coins to store, in the order typed.
  static func check(_ inputs: [String], currency: String, _ invocation: Invocation) async throws
    -> [FavoriteCoin]
  {
    let resolver = invocation.desk.resolver()
    var assets: [Asset] = []
    for input in inputs { assets.append(try await resolver.resolve(input)) }
    let answer = try await invocation.desk.marketService().markets(currency: CurrencyCode(currency), coins: assets)
    var found: [FavoriteCoin] = []
    for (input, asset) in zip(inputs, assets) {
      guard let market = answer.value.first(where: { $0.id == asset.id }) else {
        throw ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: input)
          .about(asset, typed: input)
      }
      found.append(
        FavoriteCoin(id: market.id, symbol: market.symbol, name: market.name, addedAt: invocation.context.now()))
    }
    return found
  }
}
