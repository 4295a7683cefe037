import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The service's cache rules, through an inline ``PriceSource`` that counts calls.
@Suite struct RateServiceTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  final class Calls: @unchecked Sendable {
    let prices = Recorder<[String]>()
    let histories = Recorder<ClosedRange<Day>>()
  }

  /// A source whose day D closes at `100 + D's day-of-month` and whose price
  /// is 200; `failure` makes every call throw.
  static func source(
    calls: Calls, now: @escaping @Sendable () -> Date, failure: ProviderError? = nil,
    skipDays: Set<Day> = [], carriesForward: Bool = false
  ) -> PriceSource {
    PriceSource(
      name: .kraken,
      carriesForward: carriesForward,
      resolve: { Asset(symbol: $0.uppercased(), id: $0.lowercased()) },
      validateQuote: { _ in },
      prices: { pairs in
        var ids: [String] = []
        for pair in pairs where !ids.contains(pair.asset.id) { ids.append(pair.asset.id) }
        calls.prices.append(ids)
        if let failure { throw failure }
        return pairs.map {
          Quote(
            base: $0.asset.symbol, quote: $0.quote, rate: 200, change24hPercent: 1.5, source: .provider(.kraken),
            fetchedAt: now(), updatedAt: now())
        }
      },
      dailyCloses: { asset, currency, days in
        calls.histories.append(days)
        if let failure { throw failure }
        let today = Day(containing: now())
        var closes: [RatePoint] = []
        var day = days.lowerBound
        while day < today {
          if !skipDays.contains(day) {
            closes.append(RatePoint(date: day, rate: 100 + Double(day.components.day)))
          }
          day = day.adding(days: 1)
        }
        let latest = Quote(
          base: asset.symbol, quote: currency, rate: 150, change24hPercent: nil, source: .provider(.kraken),
          fetchedAt: now(), updatedAt: now())
        return DailyCloses(closes: closes, latest: latest)
      })
  }

  func service(
    _ source: PriceSource, cache: JSONFileCache, mode: CacheMode = .normal, clock: TestClock,
    warnings: Recorder<String> = .init()
  ) -> RateService {
    RateService(
      source: source, cache: cache, mode: mode, now: { clock.now },
      notify: { warnings.append("\($0)") })
  }

  @Test func coldHistoryIsOneRequestAndWarmIsNone() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: fixedNow)
    let calls = Calls()
    let source = Self.source(calls: calls, now: { clock.now })
    let first = try await service(source, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 28)
    expectEqual(first.series.points.count, 28)
    expectEqual(first.series.points.last, RatePoint(date: Day(containing: fixedNow), rate: 150))
    expectEqual(first.series.points.first?.date, Day("2024-05-14"))
    expectEqual(first.staleness, nil)
    expect(calls.histories.count == 1 && calls.prices.count == 0)

    clock.advance(by: 30)
    let second = try await service(source, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 28)
    expectEqual(second.series.points, first.series.points)
    expect(calls.histories.count == 1 && calls.prices.count == 0)
  }

  @Test func afterAMinuteOnlyTodaysPriceIsFetched() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: fixedNow)
    let calls = Calls()
    let source = Self.source(calls: calls, now: { clock.now })
    _ = try await service(source, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 28)
    clock.advance(by: 120)
    let later = try await service(source, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 28)
    expectEqual(calls.histories.count, 1)
    expectEqual(calls.prices.count, 1)
    expectEqual(later.series.points.last?.rate, 200)
    expectEqual(later.series.points.count, 28)
  }

  @Test func aFailedFetchFallsBackToStaleCache() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: fixedNow)
    let calls = Calls()
    _ = try await service(Self.source(calls: calls, now: { clock.now }), cache: cache, clock: clock)
      .history(of: "btc", in: "EUR", days: 28)
    clock.advance(by: 7200)
    let failing = Self.source(
      calls: calls, now: { clock.now }, failure: .rateLimited(provider: .provider(.kraken), retryAfter: 30))
    let result = try await service(failing, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 28)
    let staleness = try require(result.staleness)
    expectEqual(staleness.fetchedAt, fixedNow)
    expectEqual(staleness.reason, .rateLimited(provider: .provider(.kraken), retryAfter: 30))
    expectEqual(result.series.points.count, 28)
  }

  @Test func userMistakesNeverFallBack() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: fixedNow)
    let calls = Calls()
    _ = try await service(Self.source(calls: calls, now: { clock.now }), cache: cache, clock: clock)
      .quotes(of: ["btc"], in: ["EUR"])
    clock.advance(by: 7200)
    let failing = Self.source(
      calls: calls, now: { clock.now }, failure: .coinNotFound(provider: .provider(.kraken), coin: "btc"))
    await #expect(throws: ProviderError.coinNotFound(provider: .provider(.kraken), coin: "btc")) {
      _ = try await service(failing, cache: cache, clock: clock).quotes(of: ["btc"], in: ["EUR"])
    }
  }

  @Test func failureWithoutCacheIsTheProvidersError() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: fixedNow)
    let failing = Self.source(
      calls: Calls(), now: { clock.now }, failure: .serverError(provider: .provider(.kraken), status: 503))
    await #expect(throws: ProviderError.serverError(provider: .provider(.kraken), status: 503)) {
      _ = try await service(failing, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 7)
    }
  }

  @Test func offlineNeverCallsTheSource() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: fixedNow)
    let calls = Calls()
    let source = Self.source(calls: calls, now: { clock.now })
    await #expect(throws: RateService.ServiceError.nothingCached("BTC/EUR")) {
      _ = try await service(source, cache: cache, mode: .offline, clock: clock)
        .history(of: "btc", in: "EUR", days: 7)
    }
    _ = try await service(source, cache: cache, clock: clock).quotes(of: ["btc", "eth"], in: ["EUR", "USD"])
    expectEqual(calls.prices.count, 1)
    clock.advance(by: 86_400 * 3)
    let offline = try await service(source, cache: cache, mode: .offline, clock: clock)
      .quotes(of: ["btc", "eth"], in: ["EUR", "USD"])
    expectEqual(offline.quotes.map(\.quote), ["EUR", "USD", "EUR", "USD"])
    expectEqual(offline.staleness?.reason, nil)
    expect(offline.staleness != nil)
    expectEqual(calls.prices.count, 1)
  }

  @Test func refreshIgnoresAFreshCache() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: fixedNow)
    let calls = Calls()
    let source = Self.source(calls: calls, now: { clock.now })
    _ = try await service(source, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 5)
    _ = try await service(source, cache: cache, mode: .refresh, clock: clock).history(of: "btc", in: "EUR", days: 5)
    expectEqual(calls.histories.count, 2)
  }

  @Test func currentPricesAreBatchedAndReused() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: fixedNow)
    let calls = Calls()
    let source = Self.source(calls: calls, now: { clock.now })
    let result = try await service(source, cache: cache, clock: clock)
      .quotes(of: ["btc", "eth"], in: ["EUR", "USD"])
    expectEqual(result.quotes.count, 4)
    expectEqual(calls.prices.all, [["btc", "eth"]])
    _ = try await service(source, cache: cache, clock: clock).quotes(of: ["eth"], in: ["USD"])
    expectEqual(calls.prices.count, 1)
  }

  @Test func aCoinsMissingDayIsAGapNotACarriedValue() async throws {
    // Coins trade every day: a day the provider skipped is a hole, not a closure.
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: fixedNow)
    let gap = Day(containing: fixedNow).adding(days: -3)
    let source = Self.source(calls: Calls(), now: { clock.now }, skipDays: [gap])
    let result = try await service(source, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 7)
    expect(result.series.points.filter(\.carried).isEmpty)
    expect(!result.series.points.contains { $0.date == gap })
    expectEqual(result.series.points.count, 6)
  }

  @Test func daysWithoutDataAreNotRefetchedOnceCovered() async throws {
    // Like ECB weekends: the provider never has these days.
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: fixedNow)
    let calls = Calls()
    let today = Day(containing: fixedNow)
    let source = Self.source(
      calls: calls, now: { clock.now }, skipDays: [today.adding(days: -1), today.adding(days: -2)],
      carriesForward: true)
    let first = try await service(source, cache: cache, clock: clock).history(of: "eur", in: "USD", days: 7)
    expectEqual(first.series.points.filter(\.carried).count, 2)
    clock.advance(by: 30)
    let second = try await service(source, cache: cache, clock: clock).history(of: "eur", in: "USD", days: 7)
    expectEqual(second.series.points, first.series.points)
    expectEqual(calls.histories.count, 1)
  }

  @Test func holesInACoinSeriesAreFetchedAgain() async throws {
    // A provider that left a day out: it is asked again after the backoff, not before.
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: fixedNow)
    let calls = Calls()
    let today = Day(containing: fixedNow)
    let holes = Self.source(calls: calls, now: { clock.now }, skipDays: [today.adding(days: -3)])
    _ = try await service(holes, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 7)
    // Not before the backoff (1 h): the price alone is asked.
    clock.advance(by: 3590)
    let healed = Self.source(calls: calls, now: { clock.now })
    let waiting = try await service(healed, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 7)
    expectEqual(calls.histories.count, 1)
    expectEqual(waiting.series.gaps, [today.adding(days: -3)])
    clock.advance(by: 10)
    let result = try await service(healed, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 7)
    expectEqual(calls.histories.all.last, today.adding(days: -3)...today.adding(days: -3))
    expectEqual(calls.histories.count, 2)
    expect(result.series.gaps.isEmpty)
    expect(result.series.points.filter(\.carried).isEmpty)
  }

  @Test func aFutureFetchTimeIsNotFresh() {
    expect(!CacheFreshness.isFresh(fixedNow.addingTimeInterval(3600), at: fixedNow, for: 60))
    expect(CacheFreshness.isFresh(fixedNow.addingTimeInterval(-30), at: fixedNow, for: 60))
    expect(!CacheFreshness.isFresh(fixedNow.addingTimeInterval(-60), at: fixedNow, for: 60))
  }

  @Test func unsettledClosesAreShownNeverStoredAndAskedAgainOnlyOnceStale() async throws {
    // Ten minutes after midnight, yesterday's close may not be final yet.
    let justAfterMidnight = Day(containing: fixedNow).start.addingTimeInterval(600)
    let yesterday = Day(containing: justAfterMidnight).adding(days: -1)
    let folder = try scratch.folder()
    let cache = JSONFileCache(directory: folder)
    let clock = TestClock(now: justAfterMidnight)
    let calls = Calls()
    let source = Self.source(calls: calls, now: { clock.now })
    let run = { try await service(source, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 3) }
    let first = try await run()
    let shown = try require(first.series.points.first { $0.date == yesterday })
    expectEqual(calls.histories.count, 1)
    // A run within the source's freshness answers from the cache, yesterday included.
    clock.advance(by: 30)
    let second = try await run()
    expectEqual(calls.histories.count, 1)
    expectEqual(second.series.points.first { $0.date == yesterday }, shown)
    expectEqual(second.staleness, nil)
    // Never stored: the day store knows nothing of yesterday.
    let stored = DayStore(directory: folder).load(key: "kraken/btc-EUR").0
    expectEqual(stored.value(yesterday), nil)
    // Once stale, it is asked again.
    clock.advance(by: 31)
    _ = try await run()
    expectEqual(calls.histories.count, 2)
    expectEqual(calls.histories.all.last?.contains(yesterday), true)
  }

  @Test func aCorruptCacheFileWarnsAndRefetches() async throws {
    let directory = try scratch.folder()
    let cache = JSONFileCache(directory: directory)
    let url = cache.fileURL(for: "kraken/history/btc-EUR")
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("{\"version\":1,".utf8).write(to: url)
    let clock = TestClock(now: fixedNow)
    let calls = Calls()
    let warnings = Recorder<String>()
    let result = try await service(
      Self.source(calls: calls, now: { clock.now }), cache: cache, clock: clock, warnings: warnings
    ).history(of: "btc", in: "EUR", days: 5)
    expectEqual(result.series.points.count, 5)
    expect(warnings.all.contains { $0.contains("corrupt") })
    expect(cache.load(RateService.HistoryCacheValue.self, key: "kraken/history/btc-EUR").entry != nil)
  }
}

@Suite struct RateServiceRecordedDataTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  /// Issue 22: "the last 7 days" answered with days two years old is not that
  /// window (``AnswerGate``): refused, nothing cached. It used to be shown
  /// with a note that the data ended early.
  @Test func aRecordingReplayedTwoYearsLaterIsRefused() async throws {
    // A mirror replaying a 2024 recording, asked in 2026.
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let chart = try Fixtures.string("coingecko/market_chart_bitcoin_eur_28d_daily.json")
    let price = try Fixtures.string("coingecko/simple_price.json")
    let stub = StubTransport { request, _ in
      (200, [:], request.url.path.hasSuffix("/simple/price") == true ? price : chart)
    }
    let client = CoinGeckoClient(
      baseURL: URL(string: "https://gecko.test/api/v3")!, key: nil, transport: stub.transport)
    let cache = JSONFileCache(directory: try scratch.folder())
    let resolver = CoinResolver(client: client, cache: cache, now: { now }, offline: false, notify: { _ in })
    let notes = Recorder<String>()
    let service = RateService(
      source: .coinGecko(client: client, resolver: resolver, now: { now }), cache: cache,
      mode: .normal, now: { now }, notify: { notes.append("\($0)") })
    await #expect {
      _ = try await service.history(of: "BTC", in: "EUR", days: 7)
    } throws: { error in
      guard case .malformedResponse(let provider, _, let detail)? = error as? ProviderError
      else { return false }
      return provider == .provider(.coinGecko) && detail.contains("outside the asked")
    }
    expect(notes.all.isEmpty)
    let stored = try FileManager.default.subpathsOfDirectory(atPath: cache.directory.path)
    expect(!stored.contains { $0.contains("history") }, "\(stored)")
  }
}

@Suite struct CarryForwardTests {
  @Test func aWindowStartingOnAClosureCarriesThePublicationBeforeIt() {
    // 2024-06-07 is a Friday; the window starts on Saturday 2024-06-08.
    let friday = Day("2024-06-07")!
    let monday = Day("2024-06-10")!
    let byDay = [
      friday: RatePoint(date: friday, rate: 1.08),
      monday: RatePoint(date: monday, rate: 1.09),
    ]
    let window = Day("2024-06-08")!...monday
    let points = MarketClosure.rates(in: window, today: monday) { byDay[$0] }
    expectEqual(
      points,
      [
        RatePoint(date: Day("2024-06-08")!, rate: 1.08, carried: true),
        RatePoint(date: Day("2024-06-09")!, rate: 1.08, carried: true),
        RatePoint(date: monday, rate: 1.09),
      ])
    expect(RateService.gaps(in: window, points: points).isEmpty)
  }

  @Test func aHoleOnAWorkingDayIsNeverBridged() {
    // Thursday 2024-06-06 has a rate, Friday none: the weekend stays empty.
    let thursday = Day("2024-06-06")!
    let points = MarketClosure.rates(in: thursday...thursday.adding(days: 3), today: Day("2024-07-01")!) {
      $0 == thursday ? RatePoint(date: thursday, rate: 1.08) : nil
    }
    expectEqual(points, [RatePoint(date: thursday, rate: 1.08)])
  }

  @Test func standingRatesCarryThroughTheWeekendToToday() {
    let friday = Day("2024-06-07")!
    let sunday = Day("2024-06-09")!
    let byDay = [friday: RatePoint(date: friday, rate: 1.08)]
    let points = MarketClosure.rates(in: friday.adding(days: -1)...sunday, today: sunday) { byDay[$0] }
    expectEqual(points.map(\.date), [friday, friday.adding(days: 1), sunday])
    expectEqual(points.map(\.carried), [false, true, true])
  }

  @Test func todayIsTheStandingRateEvenWhenPublishedBeforeTheWindow() {
    let friday = Day("2024-06-07")!
    let sunday = Day("2024-06-09")!
    let byDay = [friday: RatePoint(date: friday, rate: 1.08)]
    let points = MarketClosure.rates(in: sunday...sunday, today: sunday) { byDay[$0] }
    expectEqual(points, [RatePoint(date: sunday, rate: 1.08, carried: true)])
  }
}
