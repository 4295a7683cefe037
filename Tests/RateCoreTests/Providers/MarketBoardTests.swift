import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct MarketBoardTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  func desk(_ stub: StubTransport, mode: CacheMode = .normal) throws -> RateDesk {
    RateDesk(
      configuration: RateDesk.Configuration(
        coinGeckoURL: URL(string: "https://api.coingecko.com/api/v3")!, coinGeckoKey: nil,
        coinDeskURL: URL(string: "https://example.invalid")!,
        frankfurterURL: URL(string: "https://api.frankfurter.dev/v1")!, forcedProvider: nil,
        cacheDirectory: try scratch.folder(), mode: mode),
      transport: { _ in stub.transport }, now: { fixedNow }, notify: { _ in })
  }

  static let doge = FavoriteCoin(id: "dogecoin", symbol: "DOGE", name: "Dogecoin", addedAt: fixedNow)

  @Test func aFailedTopPageLeavesPlaceholdersNamesWhatIsMissingAndAsksNothingMore() async throws {
    let stub = StubTransport(status: 500, body: "down")
    let desk = try desk(stub)
    let board = await desk.marketBoard(
      currency: "usd", coins: [Self.doge], favorites: [], pairs: [])
    expect(board.top.isEmpty && board.isEmpty)
    expect(board.coins.map(\.id) == ["dogecoin"] && board.coins.first?.currentPrice == nil)
    expectEqual(board.missing, ["the top 100 coins in USD", "DOGE/USD"])
    expectEqual(board.failures.count, 1)
    expectEqual(stub.requests.count, 1)
  }

  /// Issue 24: the home screen's board lists every pair that arrived when one (GBP/KRW, against
  /// a Frankfurter mirror without KRW) refuses the ECB set; before, every ECB pair was missing.
  @Test func aPairNoSourceServesIsMissingAloneFromTheBoard() async throws {
    let clock = TestClock()
    let fake = FakeAPIs.handler(now: { clock.now })
    let server = InProcessServer(clock: clock) { request in
      request.path.hasPrefix("/frankfurter/") && request.target.contains("KRW")
        ? .json(#"{"message":"not found"}"#, status: 404) : fake(request)
    }
    try await withTemporaryDirectory { cache in
      let desk = RateDesk(
        configuration: RateDesk.Configuration(
          coinGeckoURL: URL(string: "https://fake.test/api/v3")!, coinGeckoKey: nil,
          coinDeskURL: URL(string: "https://fake.test/v1/bpi")!,
          frankfurterURL: URL(string: "https://fake.test/frankfurter")!, forcedProvider: nil,
          cacheDirectory: cache, mode: .normal),
        transport: { _ in server.transport() }, now: { clock.now }, notify: { _ in })
      let pairs = [["GBP", "USD"], ["GBP", "KRW"], ["EUR", "JPY"], ["BTC", "USD"]].map {
        ConfiguredPair(base: $0[0], quote: $0[1], addedAt: fixedNow)
      }
      let board = await desk.marketBoard(currency: "usd", coins: [], favorites: [], pairs: pairs)
      expectEqual(board.pairs.map(\.pair.name), ["GBP-USD", "EUR-JPY", "BTC-USD"])
      expect(board.pairs.allSatisfy { $0.rate != nil })
      expectEqual(board.missing, ["GBP/KRW"])
      expectEqual(board.failures.count, 1)
    }
  }

  @Test func topPagesWithSparklinesAreCachedApartFromThoseWithout() async throws {
    let stub = StubTransport { request, _ in
      (200, [:], FakeManyCoins.markets(request.queryItems, count: 10).1)
    }
    let service = try desk(stub).marketService()
    _ = try await service.markets(currency: "usd", top: 5)
    _ = try await service.markets(currency: "usd", top: 5, sparkline: true)
    _ = try await service.markets(currency: "usd", top: 5, sparkline: true)
    expectEqual(stub.requests.all.map { $0.queryItems["sparkline"] }, ["false", "true"])
  }

  @Test func todayFollowsTheLivePrice() {
    let today = Day(containing: fixedNow)
    let series = RateSeries(
      base: "BTC", quote: "USD", source: .provider(.coinGecko), fetchedAt: fixedNow,
      points: [RatePoint(date: today.adding(days: -1), rate: 1), RatePoint(date: today, rate: 2)])
    expectEqual(RateDesk.following(series, price: 3, today: today).points.map(\.rate), [1, 3])
    var ending = series
    ending.points.removeLast()
    ending.gaps = [today]
    let added = RateDesk.following(ending, price: 4, today: today)
    expect(added.points.map(\.rate) == [1, 4] && added.gaps.isEmpty)
  }

  @Test func aWeekIsEverySixthHourThenTheCurrentPrice() {
    var coin = CoinMarket.placeholder(Self.doge)
    coin.sparkline7d = (0..<168).map(Double.init)
    coin.currentPrice = 500
    expect(coin.week.count == 29 && coin.week.prefix(2) == [0, 6] && coin.week.last == 500)
  }

  @Test func localSearchRanksExactThenPrefixThenRankAndFindsSharedSymbols() {
    let known =
      LocalCoinSearch.wellKnown + [
        CoinGeckoClient.SearchResult(
          id: "ethereum-wormhole", symbol: "ETH", name: "Ethereum (Wormhole)", marketCapRank: nil),
        CoinGeckoClient.SearchResult(id: "ethereum", symbol: "ETH", name: "Ethereum", marketCapRank: 2),
      ]
    let hits = LocalCoinSearch.matches("eth", in: known)
    expectEqual(hits.prefix(2).map(\.id), ["ethereum", "ethereum-wormhole"])
    expectEqual(hits.first?.marketCapRank, 2)
    expect(hits.contains { $0.id == "ethereum-classic" })
    expectEqual(Set(hits.map(\.id)).count, hits.count)
    expectEqual(LocalCoinSearch.sharedSymbols(known), ["ETH"])
    expect(LocalCoinSearch.matches(" ", in: known).isEmpty)
  }
}
