import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// `/coins/markets` holds at most 250 coins a page: more coins take more pages, no more
/// than needed.
@Suite struct MarketPagingTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  func service(count: Int) throws -> (MarketService, StubTransport) {
    let stub = StubTransport { request, _ in
      let (status, body) = FakeManyCoins.markets(request.queryItems, count: count)
      return (status, [:], body)
    }
    let client = CoinGeckoClient(
      baseURL: URL(string: "https://api.coingecko.com/api/v3")!, key: nil, transport: stub.transport)
    let service = MarketService(
      client: client, cache: JSONFileCache(directory: try scratch.folder()), mode: .normal,
      now: { fixedNow }, notify: { _ in })
    return (service, stub)
  }

  /// Before: one request with 500 ids, of which CoinGecko returned 250.
  @Test func fiveHundredIDsTakeTwoRequestsAndAllArrive() async throws {
    let (service, stub) = try service(count: 800)
    let ids = (1...500).map { FakeManyCoins.id(rank: $0 * 3 / 2) }
    let answer = try await service.markets(currency: "usd", coins: ids.map { Asset(symbol: $0.uppercased(), id: $0) })
    expectEqual(Set(answer.value.map(\.id)), Set(ids))
    expectEqual(stub.requests.count, 2)
    expect(stub.requests.all.allSatisfy { $0.queryItems["per_page"] == "250" })
  }

  /// Before: `per_page` was capped at 250, so the top 600 were the top 250.
  @Test(arguments: [(1, 1, 1), (250, 1, 250), (251, 2, 126), (600, 3, 200), (1000, 4, 250)])
  func theTopNTakesTheFewestPages(_ limit: Int, _ requests: Int, _ perPage: Int) async throws {
    let (service, stub) = try service(count: 2_000)
    let answer = try await service.markets(currency: "eur", top: limit)
    expectEqual(answer.value.map(\.id), (1...limit).map { FakeManyCoins.id(rank: $0) })
    expectEqual(stub.requests.count, requests)
    expectEqual(Set(stub.requests.all.map { $0.queryItems["per_page"] }), [String(perPage)])
    expectEqual(Set(stub.requests.all.compactMap { $0.queryItems["page"] }), Set((1...requests).map(String.init)))
  }

  @Test func aShortMarketEndsEarly() async throws {
    let (service, _) = try service(count: 300)
    let answer = try await service.markets(currency: "eur", top: 600)
    expectEqual(answer.value.count, 300)
  }
}

/// An ids answer with nothing for the coins asked names them by symbol, at the source,
/// so that `top`, `favorites`, `pairs` and `info` agree (issue 14).
@Suite struct MarketsNothingForCoinsTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  func emptyService() throws -> MarketService {
    let stub = StubTransport(body: "[]")
    let client = CoinGeckoClient(
      baseURL: URL(string: "https://api.coingecko.com/api/v3")!, key: nil, transport: stub.transport)
    return MarketService(
      client: client, cache: JSONFileCache(directory: try scratch.folder()), mode: .normal,
      now: { fixedNow }, notify: { _ in })
  }

  /// Before: `coinNotFound("bitcoin, ethereum")`, an unknown coin named by ids.
  @Test func knownCoinsAreMissingDataNamedBySymbol() async throws {
    let coins = [Asset(symbol: "BTC", id: "bitcoin"), Asset(symbol: "ETH", id: "ethereum")]
    await #expect(
      throws: ProviderError.noData(
        provider: .provider(.coinGecko), detail: "the answer has nothing for BTC, ETH, coins it lists")
    ) {
      _ = try await emptyService().markets(currency: "usd", coins: coins)
    }
  }

  @Test func onlyCoinsNotKnownToExistAreUnknown() async throws {
    let coins = [Asset(symbol: "BTC", id: "bitcoin"), Asset(symbol: "no-such-id", id: "no-such-id")]
    await #expect(throws: ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: "no-such-id")) {
      _ = try await emptyService().markets(currency: "usd", coins: coins)
    }
  }

  /// `top`: favorites outside the top come from an ids request; an answer with nothing
  /// for them leaves them out, and the top stands (before: the listing failed).
  @Test func topStandsWhenTheAnswerHasNothingForFavoritesOutsideIt() async throws {
    let stub = StubTransport { request, _ in
      let isIDs = request.queryItems["ids"] != nil
      return (200, [:], isIDs ? "[]" : FakeManyCoins.markets(request.queryItems, count: 150).1)
    }
    let desk = RateDesk(
      configuration: RateDesk.Configuration(
        coinGeckoURL: URL(string: "https://api.coingecko.com/api/v3")!, coinGeckoKey: nil,
        coinDeskURL: URL(string: "https://example.invalid")!,
        frankfurterURL: URL(string: "https://example.invalid")!, forcedProvider: nil,
        cacheDirectory: try scratch.folder(), mode: .normal),
      transport: { _ in stub.transport }, now: { fixedNow }, notify: { _ in })
    let outside = Asset(symbol: "BTC", id: "bitcoin")
    let listings = await desk.listings(in: ["usd"], top: 5, following: [outside]).listings
    expectEqual(listings.first?.top.value.count, 5)
    expect(listings.first?.others == nil)
    expectEqual(stub.requests.count, 2)
  }
}
