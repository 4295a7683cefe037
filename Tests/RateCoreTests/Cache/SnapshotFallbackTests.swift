import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The ECB snapshot as the last resort of fiat rates (``CacheFallback`` rule 4):
/// Frankfurter unreachable or down, or offline, and nothing cached.
@Suite struct SnapshotFallbackTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  /// 2026-11-25 12:00 UTC, a Wednesday after the snapshot's last day.
  static let afterSnapshot = Date(timeIntervalSince1970: 1_795_608_000)

  func snapshot() throws -> ECBSnapshot { try require(ECBSnapshot.embedded) }

  func service(
    _ transport: HTTPTransport, mode: CacheMode = .normal, now: Date = fixedNow,
    cache: JSONFileCache? = nil, notices: Recorder<Notice> = Recorder()
  ) throws -> RateService {
    let client = FrankfurterClient(baseURL: URL(string: "https://fx.test/v1")!, transport: transport)
    return RateService(
      source: .frankfurter(client: client, now: { now }),
      cache: try cache ?? JSONFileCache(directory: scratch.folder()), mode: mode,
      now: { now }, notify: { notices.append($0) })
  }

  func usdEUR() -> AssetQuote { AssetQuote(asset: Asset(symbol: "USD", id: "USD"), quote: "EUR") }

  @Test func anUnreachableFrankfurterAndAnEmptyCacheGiveTheSnapshotsNewestRate() async throws {
    let snapshot = try snapshot()
    let service = try service(.unreachable, now: Self.afterSnapshot)
    let result = try await service.quotes(for: [usdEUR()])
    let quote = try require(result.quotes.first)
    let expected = try require(
      snapshot.rate(base: "USD", quote: "EUR", on: snapshot.lastDay, today: snapshot.lastDay)?.point)
    expectEqual(quote.rate, expected.rate)
    expectEqual(quote.source, snapshot.source)
    expectEqual(quote.updatedAt, snapshot.lastDay.start)
    expect(quote.change24hPercent != nil)
    expectEqual(result.staleness?.snapshotThrough, snapshot.lastDay)
    expectEqual(result.staleness?.reason, .network(provider: .provider(.frankfurter), .cannotConnect(host: "fx.test")))
  }

  @Test func aServerErrorAlsoFallsBackToTheSnapshot() async throws {
    let service = try service(StubTransport(status: 503, body: "down").transport)
    let result = try await service.quotes(for: [usdEUR()])
    expectEqual(result.quotes.first?.source.name.hasPrefix("ECB snapshot to "), true)
    expectEqual(result.staleness?.reason, .serverError(provider: .provider(.frankfurter), status: 503))
  }

  @Test func aRefusalOrARateLimitIsNotCoveredByTheSnapshot() async throws {
    let limited = try service(StubTransport(status: 429, body: "{}").transport)
    await #expect(throws: ProviderError.self) { try await limited.quotes(for: [usdEUR()]) }
  }

  @Test func offlineWithAnEmptyCacheTheSnapshotAnswersFiatHistory() async throws {
    let snapshot = try snapshot()
    let service = try service(.unreachable, mode: .offline)
    let result = try await service.history(of: "GBP", in: "USD", days: 28)
    let today = Day(containing: fixedNow)
    let own = result.series.ownPoints
    expectEqual(own, snapshot.series(base: "GBP", quote: "USD", in: today.adding(days: -27)...today))
    expectEqual(result.series.points.last?.date, today)
    expectEqual(result.series.source, snapshot.source)
    expectEqual(
      result.staleness,
      Staleness(
        fetchedAt: snapshot.publishedAt, reason: nil, snapshotThrough: snapshot.lastDay))
  }

  @Test func aSnapshotEndingBeforeTheLastWorkingDayShowsTheDaysUpToItsEnd() async throws {
    let snapshot = try snapshot()
    let notices = Recorder<Notice>()
    let service = try service(.unreachable, now: Self.afterSnapshot, notices: notices)
    let result = try await service.history(of: "GBP", in: "USD", days: 28)
    expectEqual(result.series.points.last?.date, snapshot.lastDay)
    expectEqual(result.series.days.first?.day, snapshot.lastDay.adding(days: -27))
    expectEqual(result.staleness?.snapshotThrough, snapshot.lastDay)
    expectEqual(
      notices.all,
      [
        .dataEndsEarly(provider: .ecbSnapshot(through: nil), pair: "GBP/USD", newest: snapshot.lastDay, days: 28)
      ])
  }

  @Test func cachedRatesStillComeBeforeTheSnapshot() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let body =
      #"{"amount":1.0,"base":"USD","start_date":"2024-06-03","end_date":"2024-06-07","rates":{"2024-06-07":{"EUR":0.5}}}"#
    _ = try await service(StubTransport(body: body).transport, cache: cache).quotes(for: [usdEUR()])
    let result = try await service(.unreachable, mode: .refresh, cache: cache).quotes(for: [usdEUR()])
    expectEqual(result.quotes.first?.rate, 0.5)
    expectEqual(result.staleness?.snapshotThrough, nil)
  }

  @Test func aCacheOlderThanTheSnapshotGivesWayToIt() async throws {
    let snapshot = try snapshot()
    let cache = JSONFileCache(directory: try scratch.folder())
    let body =
      #"{"amount":1.0,"base":"USD","start_date":"2024-06-03","end_date":"2024-06-07","rates":{"2024-06-07":{"EUR":0.5}}}"#
    _ = try await service(StubTransport(body: body).transport, cache: cache).quotes(for: [usdEUR()])
    for (transport, mode) in [(HTTPTransport.unreachable, CacheMode.normal), (.unreachable, .offline)] {
      let later = try service(transport, mode: mode, now: Self.afterSnapshot, cache: cache)
      let result = try await later.quotes(for: [usdEUR()])
      expectEqual(result.quotes.first?.source, snapshot.source)
      expectEqual(result.staleness?.snapshotThrough, snapshot.lastDay)
    }
    // A rate limit is not the network being down: the cache answers, stale.
    let limited = try service(
      StubTransport(status: 429, body: "{}").transport, now: Self.afterSnapshot, cache: cache)
    let result = try await limited.quotes(for: [usdEUR()])
    expectEqual(result.quotes.first?.rate, 0.5)
    expectEqual(result.staleness?.reason, .rateLimited(provider: .provider(.frankfurter), retryAfter: nil))
  }

  @Test func aCachedHistoryOlderThanTheSnapshotGivesWayToIt() async throws {
    let snapshot = try snapshot()
    let cache = JSONFileCache(directory: try scratch.folder())
    let body =
      #"{"amount":1.0,"base":"GBP","start_date":"2024-05-14","end_date":"2024-06-10","rates":{"2024-06-07":{"USD":1.5}}}"#
    let first = try await service(StubTransport(body: body).transport, cache: cache)
      .history(of: "GBP", in: "USD", days: 28)
    expectEqual(first.series.source, .provider(.frankfurter))
    let offline = try await service(.unreachable, mode: .offline, now: Self.afterSnapshot, cache: cache)
      .history(of: "GBP", in: "USD", days: 28)
    expectEqual(offline.series.source, snapshot.source)
    expectEqual(offline.series.points.last?.date, snapshot.lastDay)
  }

  @Test func coinsHaveNoSnapshot() async throws {
    let source = PriceSource(
      name: .kraken, resolve: { Asset(symbol: $0, id: $0) }, validateQuote: { _ in },
      prices: { _ in throw ProviderError.network(provider: .provider(.kraken), .cannotConnect(host: "x")) },
      dailyCloses: { _, _, _ in throw ProviderError.network(provider: .provider(.kraken), .cannotConnect(host: "x")) })
    let service = RateService(
      source: source, cache: JSONFileCache(directory: try scratch.folder()), mode: .normal,
      now: { fixedNow }, notify: { _ in })
    await #expect(throws: ProviderError.network(provider: .provider(.kraken), .cannotConnect(host: "x"))) {
      try await service.quotes(of: ["BTC"], in: ["EUR"])
    }
  }

  // MARK: - One day's rate, any day

  func desk(_ transport: HTTPTransport, mode: CacheMode) throws -> RateDesk {
    let url = URL(string: "https://api.test/v1")!
    return RateDesk(
      configuration: .init(
        coinGeckoURL: url, coinGeckoKey: nil, coinDeskURL: url, frankfurterURL: url,
        forcedProvider: nil, cacheDirectory: try scratch.folder(), mode: mode),
      transport: { _ in transport }, now: { fixedNow }, notify: { _ in })
  }

  @Test func anOldDaysRateComesFromOneRequestForItsWeek() async throws {
    let stub = StubTransport(
      body:
        #"{"amount":1.0,"base":"USD","start_date":"2015-05-27","end_date":"2015-06-01","rates":{"2015-05-29":{"EUR":0.91},"2015-06-01":{"EUR":0.9137}}}"#
    )
    let rate = try await desk(stub.transport, mode: .normal)
      .rate(base: "USD", quote: "EUR", on: try require(Day("2015-06-01")))
    expectEqual(rate.point, RatePoint(date: try require(Day("2015-06-01")), rate: 0.9137))
    expectEqual(rate.source, .provider(.frankfurter))
    expectEqual(rate.staleness, nil)
    // Past the day by AnswerGate's margin: an exclusive end would still hold it.
    expectEqual(stub.requests.all.map(\.url.path), ["/v1/2015-05-27..2015-06-02"])
  }

  @Test func anOldDaysRateOfflineOrUnreachableComesFromTheSnapshot() async throws {
    let snapshot = try snapshot()
    let day = try require(Day("2015-06-01"))
    for (transport, mode) in [(HTTPTransport.unreachable, CacheMode.normal), (.unreachable, .offline)] {
      let rate = try await desk(transport, mode: mode).rate(base: "USD", quote: "EUR", on: day)
      expectEqual(rate.point, RatePoint(date: day, rate: Figure.crossRate(1, per: 1.0944)))
      expectEqual(rate.source, snapshot.source)
      expectEqual(rate.staleness?.snapshotThrough, snapshot.lastDay)
    }
  }
}
