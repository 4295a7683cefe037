import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct CoinResolverTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  func resolver(
    _ stub: StubTransport, cache: JSONFileCache, offline: Bool = false, notes: Recorder<String> = .init(),
    now: Date = fixedNow
  ) -> CoinResolver {
    let client = CoinGeckoClient(
      baseURL: URL(string: "https://gecko.test/api/v3")!, key: nil, transport: stub.transport)
    return CoinResolver(
      client: client, cache: cache, now: { now }, offline: offline, notify: { notes.append("\($0)") })
  }

  @Test(arguments: [("BTC", "bitcoin"), ("eth", "ethereum"), ("bitcoin", "bitcoin"), ("SOL", "solana")])
  func wellKnownCoinsNeedNoRequest(_ input: String, _ id: String) async throws {
    let stub = StubTransport(status: 500, body: "")
    let cache = JSONFileCache(directory: try scratch.folder())
    let asset = try await resolver(stub, cache: cache).resolve(input)
    expectEqual(asset.id, id)
    expectEqual(stub.requests.count, 0)
  }

  /// Issue 34: a coin typed by its id is labelled by its symbol, as every other coin is
  /// (`base` is the upper-case symbol whatever the user typed), looked up once a day; a symbol
  /// that names another coin (a well-known one, or a better-ranked result), a search that
  /// fails and offline keep the id as typed.
  @Test func idsWithADashAreLabelledByTheirSymbol() async throws {
    let body = #"""
      {"coins":[
        {"id":"wrapped-bitcoin","name":"Wrapped Bitcoin","symbol":"WBTC","market_cap_rank":15},
        {"id":"ethereum-wormhole","name":"Ethereum (Wormhole)","symbol":"ETH","market_cap_rank":null},
        {"id":"zed-bridged","name":"Zed (bridged)","symbol":"ZED","market_cap_rank":900},
        {"id":"zed-token","name":"Zed","symbol":"ZED","market_cap_rank":41}],
       "exchanges":[],"icos":[],"categories":[],"nfts":[]}
      """#
    let stub = StubTransport(body: body)
    let cache = JSONFileCache(directory: try scratch.folder())
    let wrapped = try await resolver(stub, cache: cache).resolve("Wrapped-Bitcoin")
    expectEqual(wrapped, Asset(symbol: "WBTC", id: "wrapped-bitcoin"))
    expectEqual(stub.requests.count, 1)
    expectEqual(try await resolver(stub, cache: cache).resolve("wrapped-bitcoin"), wrapped)
    expectEqual(stub.requests.count, 1)
    for id in ["ethereum-wormhole", "zed-bridged", "not-listed"] {
      expectEqual(try await resolver(stub, cache: cache).resolve(id), Asset(symbol: id, id: id))
    }
    let failing = StubTransport(status: 500, body: "")
    let fresh = JSONFileCache(directory: try scratch.folder())
    expectEqual(try await resolver(failing, cache: fresh).resolve("wrapped-bitcoin").symbol, "wrapped-bitcoin")
    expectEqual(
      try await resolver(stub, cache: fresh, offline: true).resolve("wrapped-bitcoin").symbol, "wrapped-bitcoin")
  }

  /// Issue 22: a currency code means the currency, before any request; the coin with that
  /// symbol resolves by its id (and routes by it: ``Asset/routingName``).
  @Test func aCurrencyCodeIsRefusedAndTheCoinResolvesByItsID() async throws {
    let body = #"{"coins":[{"id":"poundtoken","name":"poundtoken","symbol":"GBP","market_cap_rank":900}]}"#
    let stub = StubTransport(body: body)
    let directory = try scratch.folder()
    let resolver = resolver(stub, cache: JSONFileCache(directory: directory))
    for code in ["GBP", "gbp", " usd ", "SATS"] {
      await #expect(throws: CoinResolver.Refusal.currencyCode(code.trimmingCharacters(in: .whitespaces).uppercased())) {
        _ = try await resolver.resolve(code)
      }
    }
    expectEqual(stub.requests.count, 0)
    let coin = try await resolver.resolve("poundtoken")
    expectEqual(coin, Asset(symbol: "GBP", id: "poundtoken"))
    expectEqual(coin.routingName, "poundtoken")
    expectEqual(Asset(symbol: "BTC", id: "bitcoin").routingName, "BTC")
    expectEqual(try PairRouter.route(base: coin.routingName, quote: "USD", forced: nil).provider, .coinGecko)
  }

  @Test func sharedSymbolPicksTheHighestRankAndSaysSo() async throws {
    let body = #"""
      {"coins":[
        {"id":"wrapped-zed","name":"Wrapped Zed","api_symbol":"wrapped-zed","symbol":"ZED","market_cap_rank":null},
        {"id":"zed-token","name":"Zed","api_symbol":"zed-token","symbol":"ZED","market_cap_rank":41},
        {"id":"zed-classic","name":"Zed Classic","api_symbol":"zed-classic","symbol":"ZED","market_cap_rank":900}],
       "exchanges":[],"icos":[],"categories":[],"nfts":[]}
      """#
    let stub = StubTransport(body: body)
    let notes = Recorder<String>()
    let cache = JSONFileCache(directory: try scratch.folder())
    let asset = try await resolver(stub, cache: cache, notes: notes).resolve("zed")
    expectEqual(asset, Asset(symbol: "ZED", id: "zed-token"))
    expectEqual(stub.requests.all.first?.queryItems["query"], "zed")
    expectEqual(notes.all.count, 1)
    expectEqual(notes.all.first?.contains("zed-token"), true)

    // The answer is cached: the second lookup makes no request.
    let again = try await resolver(stub, cache: cache).resolve("ZED")
    expectEqual(again, asset)
    expectEqual(stub.requests.count, 1)
  }

  @Test func unknownCoinIsCoinNotFound() async throws {
    let stub = StubTransport(body: try Fixtures.string("coingecko/search_empty.json"))
    let cache = JSONFileCache(directory: try scratch.folder())
    await #expect(throws: ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: "bitcon")) {
      _ = try await resolver(stub, cache: cache).resolve("bitcon")
    }
  }

  @Test func offlineWithoutACachedLookupSaysSo() async throws {
    let stub = StubTransport(body: "{}")
    let cache = JSONFileCache(directory: try scratch.folder())
    await #expect(throws: RateService.ServiceError.notLookedUp("zed")) {
      _ = try await resolver(stub, cache: cache, offline: true).resolve("zed")
    }
    expectEqual(stub.requests.count, 0)
  }
}
