import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The coin fallback chain (CoinGecko → Coinbase → Kraken) against stubs
/// and the exchanges' fakes, counting requests; 429 pauses kept in a real
/// file across chains (runs).
@Suite struct SourceChainTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  static let start = ISO8601.parse("2026-11-26T12:30:00Z")!
  static let btc = AssetQuote(asset: Asset(symbol: "BTC", id: "bitcoin"), quote: "USD")

  /// One run's sources over `gecko`, the fakes and a pause file in `folder`.
  struct Run {
    let gecko: StubTransport
    let coinbase: StubTransport
    let kraken: StubTransport
    let chain: PriceSource

    init(
      gecko: StubTransport, folder: URL, at now: Date,
      coinbase: StubTransport = SourceChainTests.fake(FakeCoinbase.answer),
      kraken: StubTransport = SourceChainTests.fake(FakeKraken.answer)
    ) {
      self.gecko = gecko
      self.coinbase = coinbase
      self.kraken = kraken
      let client = CoinGeckoClient(
        baseURL: URL(string: "https://gecko.test/api/v3")!, key: nil, transport: gecko.transport)
      let resolver = CoinResolver(
        client: client, cache: JSONFileCache(directory: folder), now: { now }, offline: true,
        notify: { _ in })
      chain = SourceChain.chain(
        .coinGecko(client: client, resolver: resolver, now: { now }),
        then: [
          .coinbase(
            client: CoinbaseClient(baseURL: URL(string: "https://cb.test")!, transport: coinbase.transport),
            now: { now }),
          .kraken(
            client: KrakenClient(baseURL: URL(string: "https://kr.test")!, transport: kraken.transport),
            now: { now }),
        ], pauses: ProviderPauses(cacheFolder: folder), now: { now })
    }
  }

  static func fake(_ answer: @escaping @Sendable (String, [String: String], Date) -> (status: Int, body: String))
    -> StubTransport
  {
    StubTransport { request, _ in
      let reply = answer(request.url.path, request.queryItems, start)
      return (reply.status, [:], reply.body)
    }
  }

  @Test func a429IsAnsweredByCoinbaseAndItsPauseHonouredByLaterRuns() async throws {
    let folder = try scratch.folder()
    let limited = { StubTransport(status: 429, headers: ["Retry-After": "120"], body: "Throttled") }
    let first = Run(gecko: limited(), folder: folder, at: Self.start)
    let quote = try require(try await first.chain.prices([Self.btc]).first)
    expectEqual(quote.source, .provider(.coinbase))
    expectEqual(quote.rate, FakeCoinbase.price(base: "BTC", quote: "USD", at: Self.start))
    expect(first.gecko.requests.count == 1 && first.coinbase.requests.count == 1)

    // A later run inside the pause does not ask CoinGecko.
    let second = Run(gecko: limited(), folder: folder, at: Self.start.addingTimeInterval(60))
    expectEqual(try await second.chain.prices([Self.btc]).first?.source, .provider(.coinbase))
    expectEqual(second.gecko.requests.count, 0)

    // After it, CoinGecko answers again.
    let good = StubTransport(body: #"{"bitcoin":{"usd":61234,"last_updated_at":1795000000}}"#)
    let third = Run(gecko: good, folder: folder, at: Self.start.addingTimeInterval(121))
    let again = try require(try await third.chain.prices([Self.btc]).first)
    expect(again.source == .provider(.coinGecko) && again.rate == 61234)
    expectEqual(third.coinbase.requests.count, 0)
  }

  @Test(arguments: [
    (503, "<html>Service Unavailable</html>"), (200, "<html>captive portal</html>"),
    (200, #"{"bitcoin":{"usd":-5}}"#),
  ])
  func aDownOrMalformedCoinGeckoFallsThroughWithoutAPause(_ status: Int, _ body: String)
    async throws
  {
    let folder = try scratch.folder()
    let gecko = StubTransport(status: status, body: body)
    let run = Run(gecko: gecko, folder: folder, at: Self.start)
    expectEqual(try await run.chain.prices([Self.btc]).first?.source, .provider(.coinbase))
    expectEqual(ProviderPauses(cacheFolder: folder).pausedUntil(Provider.coinGecko, now: Self.start), nil)
  }

  @Test func krakenAnswersWhenCoinbaseIsDownToo() async throws {
    let folder = try scratch.folder()
    let run = Run(
      gecko: StubTransport(status: 503, body: ""), folder: folder, at: Self.start,
      coinbase: StubTransport(status: 502, body: "bad gateway"))
    let quote = try require(try await run.chain.prices([Self.btc]).first)
    expectEqual(quote.source, .provider(.kraken))
    expectEqual(run.kraken.requests.all.first?.queryItems["pair"], "XBTUSD")
  }

  @Test func aCoinTheExchangesDoNotListIsNeverAskedThere() async throws {
    let folder = try scratch.folder()
    let run = Run(gecko: StubTransport(status: 503, body: ""), folder: folder, at: Self.start)
    let pepe = AssetQuote(asset: Asset(symbol: "PEPE", id: "pepe"), quote: "USD")
    let failures: [ProviderError] = [
      .serverError(provider: .provider(.coinGecko), status: 503),
      .notCovered(provider: .provider(.coinbase), what: "PEPE/USD"),
      .notCovered(provider: .provider(.kraken), what: "PEPE/USD"),
    ]
    await #expect(
      throws: ProviderError.noSourceAnswered(pairs: "PEPE/USD", closes: false, failures: failures)
    ) {
      _ = try await run.chain.prices([pepe])
    }
    expect(run.coinbase.requests.count == 0 && run.kraken.requests.count == 0)
  }

  @Test func theUsersMistakeIsNotPassedOn() async throws {
    let folder = try scratch.folder()
    let run = Run(gecko: StubTransport(body: "{}"), folder: folder, at: Self.start)
    let unknown = AssetQuote(asset: Asset(symbol: "no-such-coin", id: "no-such-coin"), quote: "USD")
    await #expect(throws: ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: "no-such-coin")) {
      _ = try await run.chain.prices([unknown])
    }
    expectEqual(run.coinbase.requests.count, 0)
  }

  @Test func a2016RangeRefusedByTheFreePlanComesFromCoinbaseIn2Requests() async throws {
    let folder = try scratch.folder()
    let refusal = StubTransport(status: 401, body: FakeCoinGecko.rangeError(now: Self.start))
    let run = Run(gecko: refusal, folder: folder, at: Self.start)
    let days = try require(Day("2016-01-01"))...(try require(Day("2016-12-31")))
    let answer = try await run.chain.dailyCloses(Self.btc.asset, "USD", days)
    expectEqual(answer.closes.count, 366)
    expect(
      answer.closes.allSatisfy {
        $0.rate == FakeCoinbase.price(base: "BTC", quote: "USD", at: $0.date.end)
      })
    expect(run.gecko.requests.count == 1 && run.coinbase.requests.count == 2)
    expectEqual(run.kraken.requests.count, 0)
  }

  @Test(arguments: ["not json", #"{"coingecko":"tomorrow"}"#, #"{"coingecko":"9999-12-31T23:59:59Z"}"#])
  func aHostilePauseFileIsNoLongerThanAnHour(_ text: String) throws {
    let folder = try scratch.folder()
    try Data(text.utf8).write(to: folder.appendingPathComponent(ProviderPauses.fileName))
    let until = ProviderPauses(cacheFolder: folder).pausedUntil(Provider.coinGecko, now: Self.start)
    expect(until == nil || until == Self.start.addingTimeInterval(ProviderPauses.longestPause))
  }
}
