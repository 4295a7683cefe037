import RateCore

/// Prices and 24-hour changes of a list of the user's coins, as a table or the `market`
/// JSON document: `rates coins` and `rates favorites`.
struct MarketListing: Sendable {
  /// The coins, in the list's order.
  let coins: [FavoriteCoin]
  /// The ids of the starred coins.
  let starred: Set<String>
  let currencies: [String]

  /// One request per currency and 250 coins, the currencies concurrently.
  func show(_ invocation: Invocation, markStarred: Bool) async throws -> ExitCode {
    let service = invocation.desk.marketService()
    let assets = coins.map(\.asset)
    let answers = try await withThrowingTaskGroup(of: (String, MarketService.Answer<[CoinMarket]>).self) { group in
      for currency in currencies {
        group.addTask { (currency, try await service.markets(currency: currency, coins: assets)) }
      }
      var results: [String: MarketService.Answer<[CoinMarket]>] = [:]
      for try await (currency, answer) in group { results[currency] = answer }
      return results
    }
    let staleness = answers.values.compactMap(\.staleness).min { $0.fetchedAt < $1.fetchedAt }
    invocation.report(staleness)
    let missing = currencies.flatMap { answers[$0]?.missing ?? [] }
    invocation.report(missing: missing, from: Providers.coinGecko)
    let rows = coins.map { coin -> (coin: CoinMarket, byCurrency: [String: CoinMarket]) in
      var byCurrency: [String: CoinMarket] = [:]
      for currency in currencies {
        if let market = answers[currency]?.value.first(where: { $0.id == coin.id }) {
          byCurrency[currency] = market
        }
      }
      return (byCurrency.values.first ?? CoinMarket.placeholder(coin), byCurrency)
    }
    if invocation.options.json {
      let fetchedAt = answers.values.map(\.fetchedAt).min() ?? invocation.context.now()
      try invocation.printJSON(
        MarketDocument(
          currencies: currencies, fetchedAt: fetchedAt, stale: staleness != nil,
          coins: rows.map {
            // Here `inTop` says whether plain `rates top` lists the coin.
            MarketDocument.Coin(
              $0.coin, favorite: starred.contains($0.coin.id),
              inTop: ($0.coin.marketCapRank ?? .max) <= TopCommand.defaultLimit,
              byCurrency: $0.byCurrency, currencies: currencies, fetchedAt: fetchedAt,
              stale: staleness != nil, now: invocation.context.now())
          },
          missing: missing))
      return .success
    }
    invocation.out(
      MarketTable.render(
        rows: rows.map { ($0.coin, markStarred && starred.contains($0.coin.id), true, $0.byCurrency) },
        currencies: currencies, invocation: invocation, staleness: staleness))
    return .success
  }

  /// Resolves `inputs` and checks each coin has a market at CoinGecko (one request), for
  /// `add`; the coins to store, in the order typed.
  static func check(_ inputs: [String], currency: String, _ invocation: Invocation) async throws
    -> [FavoriteCoin]
  {
    let resolver = invocation.desk.resolver()
    var assets: [Asset] = []
    for input in inputs { assets.append(try await resolver.resolve(input)) }
    let answer = try await invocation.desk.marketService().markets(currency: currency, coins: assets)
    var found: [FavoriteCoin] = []
    for (input, asset) in zip(inputs, assets) {
      guard let market = answer.value.first(where: { $0.id == asset.id }) else {
        throw ProviderError.coinNotFound(provider: Providers.coinGecko, coin: input)
          .about(asset, typed: input)
      }
      found.append(
        FavoriteCoin(id: market.id, symbol: market.symbol, name: market.name, addedAt: invocation.context.now()))
    }
    return found
  }
}
