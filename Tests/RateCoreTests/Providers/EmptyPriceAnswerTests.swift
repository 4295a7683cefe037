import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// `/simple/price` answers `{}` for ids it does not know, and sometimes for
/// ids it does: a coin known to exist is then missing data (the cache may
/// stand in), never an unknown coin.
@Suite struct EmptyPriceAnswerTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  func source(_ stub: StubTransport) throws -> PriceSource {
    let client = CoinGeckoClient(
      baseURL: URL(string: "https://gecko.test/api/v3")!, key: nil, transport: stub.transport)
    let cache = JSONFileCache(directory: try scratch.folder())
    let resolver = CoinResolver(
      client: client, cache: cache, now: { fixedNow }, offline: true, notify: { _ in })
    return .coinGecko(client: client, resolver: resolver, now: { fixedNow })
  }

  @Test func aWellKnownCoinMissingFromTheAnswerIsNoData() async throws {
    let pair = AssetQuote(asset: Asset(symbol: "BTC", id: "bitcoin"), quote: "EUR")
    await #expect(
      throws: ProviderError.noData(provider: .provider(.coinGecko), detail: "no current BTC price in the answer")
    ) {
      _ = try await source(StubTransport(body: "{}")).prices([pair])
    }
  }

  @Test func anUnverifiedIdMissingFromTheAnswerIsUnknown() async throws {
    let pair = AssetQuote(asset: Asset(symbol: "no-such-coin", id: "no-such-coin"), quote: "EUR")
    await #expect(throws: ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: "no-such-coin")) {
      _ = try await source(StubTransport(body: "{}")).prices([pair])
    }
  }

  @Test func aFilledCacheAnswersStaleWhenTheAnswerIsEmpty() async throws {
    let directory = try scratch.folder()
    let cache = JSONFileCache(directory: directory)
    let pair = AssetQuote(asset: Asset(symbol: "BTC", id: "bitcoin"), quote: "EUR")
    let good = StubTransport(body: #"{"bitcoin":{"eur":61234,"last_updated_at":1718000000}}"#)
    let first = RateService(
      source: try source(good), cache: cache, mode: .normal, now: { fixedNow }, notify: { _ in })
    _ = try await first.quotes(for: [pair])
    let empty = RateService(
      source: try source(StubTransport(body: "{}")), cache: cache, mode: .refresh, now: { fixedNow },
      notify: { _ in })
    let result = try await empty.quotes(for: [pair])
    expectEqual(result.quotes.map(\.rate), [61234])
    expectEqual(
      result.staleness?.reason, .noData(provider: .provider(.coinGecko), detail: "no current BTC price in the answer")
    )
  }

  @Test func aPartialAnswerKeepsWhatArrivedAndNamesWhatDidNot() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let notices = Recorder<Notice>()
    let btc = AssetQuote(asset: Asset(symbol: "BTC", id: "bitcoin"), quote: "EUR")
    let sol = AssetQuote(asset: Asset(symbol: "SOL", id: "solana"), quote: "EUR")
    let eth = AssetQuote(asset: Asset(symbol: "ETH", id: "ethereum"), quote: "EUR")
    let stub = StubTransport(body: #"{"bitcoin":{"eur":62891},"ethereum":{"eur":3540.9}}"#)
    let service = RateService(
      source: try source(stub), cache: cache, mode: .normal, now: { fixedNow },
      notify: { notices.append($0) })
    let result = try await service.quotes(for: [btc, sol, eth])
    expectEqual(result.quotes.map(\.base), ["BTC", "ETH"])
    expectEqual(result.missing, [sol])
    expectEqual(result.aligned(with: [btc, sol, eth]).map { $0?.rate }, [62891, nil, 3540.9])
    expectEqual(notices.all, [.missingFromAnswer(provider: .provider(.coinGecko), pairs: ["SOL/EUR"])])
  }
}
