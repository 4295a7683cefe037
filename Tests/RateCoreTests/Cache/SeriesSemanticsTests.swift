import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// Series that never invent or misplace a value: carrying only across real
/// market closures, settled closes that stay settled, partial answers, and
/// the shapes of real recorded responses.
@Suite struct SeriesSemanticsTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  typealias Calls = RateServiceTests.Calls

  func service(
    _ source: PriceSource, cache: JSONFileCache, mode: CacheMode = .normal, clock: TestClock
  ) -> RateService {
    RateService(source: source, cache: cache, mode: mode, now: { clock.now }, notify: { _ in })
  }

  static func at(_ text: String) -> Date {
    ISO8601DateFormatter().date(from: text) ?? .distantPast
  }

  // MARK: - The ECB calendar

  @Test func theECBCalendarKnowsWeekendsAndTheTargetHolidays() {
    let closed = [
      "2024-03-29", "2024-04-01",  // Good Friday, Easter Monday (Easter 2024-03-31)
      "2025-04-18", "2025-04-21",  // Easter 2025-04-20
      "2019-04-19", "2019-04-22", "2000-04-21", "2000-04-24", "2038-04-23", "2038-04-26",
      "2024-01-01", "2024-05-01", "2024-12-25", "2024-12-26", "2024-06-08", "2024-06-09",
    ]
    for day in closed { expect(MarketClosure.isECBClosed(Day(day)!), "\(day)") }
    for day in ["2024-03-28", "2024-04-02", "2024-12-24", "2024-12-27", "2024-06-07", "2024-06-10"] {
      expect(!MarketClosure.isECBClosed(Day(day)!), "\(day)")
    }
  }

  @Test func aRateStandsOverTheLongestClosureAndNoLonger() {
    let thursday = Day("2024-03-28")!
    let easterMonday = Day("2024-04-01")!
    let tuesday = Day("2024-04-02")!
    expectEqual(MarketClosure.maximumCarriedDays, 4)
    expect(MarketClosure.rateStands(from: thursday, on: easterMonday, today: tuesday))
    // Today's rate may not be published yet: Thursday's still stands on that Tuesday…
    expect(MarketClosure.rateStands(from: thursday, on: tuesday, today: tuesday))
    // …but not on a past Tuesday, and Wednesday's never crosses a working Thursday.
    expect(!MarketClosure.rateStands(from: thursday, on: tuesday, today: tuesday.adding(days: 1)))
    expect(!MarketClosure.rateStands(from: thursday.adding(days: -1), on: easterMonday, today: tuesday))
  }

  // MARK: - Carrying in a history

  @Test func anECBRateIsCarriedOverEasterButNotOverAMissingWorkingDay() async throws {
    let tuesday = Self.at("2024-04-02T10:00:00Z")
    let clock = TestClock(now: tuesday)
    let easter = Set(["2024-03-29", "2024-03-30", "2024-03-31", "2024-04-01"].compactMap(Day.init))
    let standing = RateServiceTests.source(
      calls: Calls(), now: { clock.now }, skipDays: easter, carriesForward: true)
    let result = try await service(
      standing, cache: JSONFileCache(directory: try scratch.folder()), clock: clock
    ).history(of: "eur", in: "USD", days: 7)
    expectEqual(result.series.points.filter(\.carried).map(\.date), easter.sorted())
    expectEqual(result.series.points.count, 7)

    // The same with the Thursday before missing too: a working day without
    // a rate is a hole, and nothing is carried across it.
    let holed = RateServiceTests.source(
      calls: Calls(), now: { clock.now }, skipDays: easter.union([Day("2024-03-28")!]),
      carriesForward: true)
    let gapped = try await service(
      holed, cache: JSONFileCache(directory: try scratch.folder()), clock: clock
    ).history(of: "eur", in: "USD", days: 7)
    expect(gapped.series.points.filter(\.carried).isEmpty)
    expectEqual(gapped.series.points.map(\.date.description), ["2024-03-27", "2024-04-02"])
  }

  @Test func aFrankfurterSeriesStartingBeforeTheWindowCarriesItsFirstDayIntoIt() async throws {
    // Asked for 2024-01-01..05 (New Year is a holiday), Frankfurter starts
    // the series on 2023-12-29, before the window: its rate stands on New Year.
    let body = try Fixtures.string(
      "real/frankfurter/timeseries_2024-01-01..05_USD_CAD_starts_before_holiday__unidentified-repo-id70119726670.json")
    let now = Self.at("2024-01-05T17:00:00Z")
    let result = try await frankfurterHistory(body: body, now: now, days: 5)
    expectEqual(
      result.series.points.map(\.date.description),
      ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"])
    expectEqual(result.series.points.first?.rate, 1.3251)
    expectEqual(result.series.points.map(\.carried), [true, false, false, false, false])
    expectEqual(result.series.points.dropFirst().first?.rate, 1.3294)
    expect(result.series.gaps.isEmpty)
  }

  @Test func anEndDateLaterThanTheLastRateCarriesItOverTheWeekendToToday() async throws {
    let body = """
      {"amount":1.0,"base":"USD","start_date":"2024-01-04","end_date":"2024-01-08",
       "rates":{"2024-01-04":{"CAD":1.3332},"2024-01-05":{"CAD":1.3369}}}
      """
    let monday = Self.at("2024-01-08T10:00:00Z")
    let result = try await frankfurterHistory(body: body, now: monday, days: 5)
    expectEqual(result.series.points.map(\.carried), [false, false, true, true, true])
    expectEqual(result.series.points.last?.rate, 1.3369)
    expect(result.series.gaps.isEmpty)
  }

  func frankfurterHistory(body: String, now: Date, days: Int) async throws -> RateService.HistoryResult {
    let stub = StubTransport(body: body)
    let client = FrankfurterClient(baseURL: URL(string: "https://fx.test/v1")!, transport: stub.transport)
    let service = RateService(
      source: .frankfurter(client: client, now: { now }),
      cache: JSONFileCache(directory: try scratch.folder()), mode: .normal, now: { now },
      notify: { _ in })
    return try await service.history(of: "USD", in: "CAD", days: days)
  }

  // MARK: - Settled closes and latest prices

  @Test func aLatePriceOfAPastDayNeverReplacesItsSettledClose() async throws {
    let clock = TestClock(now: fixedNow)
    let cache = JSONFileCache(directory: try scratch.folder())
    let source = RateServiceTests.source(calls: Calls(), now: { clock.now })
    let service = service(source, cache: cache, mode: .offline, clock: clock)
    let today = Day(containing: fixedNow)
    let yesterday = today.adding(days: -1)
    // Yesterday's settled close, and a price fetched late yesterday.
    var settled = DayStore.Days()
    settled.set(yesterday, 100)
    service.saveHistory(
      settled,
      latest: RateService.LatestPoint(
        point: RatePoint(date: yesterday, rate: 555), fetchedAt: yesterday.end.addingTimeInterval(-600)),
      key: "kraken/history/btc-EUR", at: fixedNow)
    let result = try await service.history(of: "btc", in: "EUR", days: 2)
    expectEqual(result.series.points, [RatePoint(date: yesterday, rate: 100)])
    expectEqual(result.series.gaps, [today])
  }

  @Test func aPriceStampedEarlierNeverDisplacesALaterOne() async throws {
    let clock = TestClock(now: fixedNow)
    let cache = JSONFileCache(directory: try scratch.folder())
    let source = RateServiceTests.source(calls: Calls(), now: { clock.now })
    // The chart's "now" point (150, stamped now) is cached with the history.
    _ = try await service(source, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 3)
    // A current price fetched later, but last updated ten minutes earlier.
    let older = Quote(
      base: "BTC", quote: "EUR", rate: 200, change24hPercent: nil, source: .provider(.kraken),
      fetchedAt: fixedNow.addingTimeInterval(10), updatedAt: fixedNow.addingTimeInterval(-600))
    try cache.save(older, key: "kraken/price/btc-EUR", source: "kraken", fetchedAt: fixedNow.addingTimeInterval(10))
    clock.advance(by: 20)
    let result = try await service(source, cache: cache, mode: .offline, clock: clock)
      .history(of: "btc", in: "EUR", days: 3)
    expectEqual(result.series.points.last?.rate, 150)
  }

  @Test func aRefreshReplacesTheSettledClosesItAnswered() async throws {
    let clock = TestClock(now: fixedNow)
    let cache = JSONFileCache(directory: try scratch.folder())
    _ = try await service(
      RateServiceTests.source(calls: Calls(), now: { clock.now }), cache: cache, clock: clock
    ).history(of: "btc", in: "EUR", days: 3)
    // A later answer whose values for the same past days differ: `--refresh`
    // replaces them (a plain run never does).
    let drifting = PriceSource(
      name: .kraken, resolve: { Asset(symbol: $0.uppercased(), id: $0) }, validateQuote: { _ in },
      prices: { _ in [] },
      dailyCloses: { asset, currency, days in
        let today = Day(containing: clock.now)
        let closes = (1...2).map { RatePoint(date: today.adding(days: -$0), rate: 999) }
        return DailyCloses(
          closes: closes,
          latest: Quote(
            base: asset.symbol, quote: currency, rate: 151, change24hPercent: nil, source: .provider(.kraken),
            fetchedAt: clock.now, updatedAt: clock.now))
      })
    clock.advance(by: 120)
    let result = try await service(drifting, cache: cache, mode: .refresh, clock: clock)
      .history(of: "btc", in: "EUR", days: 3)
    expectEqual(result.series.points.map(\.rate), [999, 999, 151])
    // Stored from the refresh, with its provenance.
    let stored = DayStore(directory: cache.directory).load(key: "kraken/btc-EUR").0
    let yesterday = Day(containing: clock.now).adding(days: -1)
    expectEqual(stored.value(yesterday), 999)
    expectEqual(stored.origin(yesterday), DayStore.Fetch(provider: "kraken", fetchedAt: clock.now))
    // A plain run later answers from the store: the refreshed values.
    let warm = try await service(drifting, cache: cache, mode: .offline, clock: clock)
      .history(of: "btc", in: "EUR", days: 3)
    expectEqual(warm.series.points.dropLast().map(\.rate), [999, 999])
  }

  // MARK: - Partial answers

  @Test func closesThatArriveAreShownAndCachedWhenThePriceFailsTwice() async throws {
    let clock = TestClock(now: fixedNow)
    let cache = JSONFileCache(directory: try scratch.folder())
    let calls = Calls()
    let failure = ProviderError.serverError(provider: .provider(.kraken), status: 503)
    let source = PriceSource(
      name: .kraken, resolve: { Asset(symbol: $0.uppercased(), id: $0) }, validateQuote: { _ in },
      prices: { _ in
        calls.prices.append([])
        throw failure
      },
      dailyCloses: { _, _, days in
        calls.histories.append(days)
        let today = Day(containing: clock.now)
        return DailyCloses(
          closes: (1...4).map { RatePoint(date: today.adding(days: -$0), rate: Double(100 + $0)) },
          latest: nil)
      })
    let today = Day(containing: fixedNow)
    for run in 1...2 {
      let result = try await service(source, cache: cache, clock: clock).history(of: "btc", in: "EUR", days: 5)
      expectEqual(result.series.points.count, 4, "run \(run)")
      expectEqual(result.series.gaps, [today], "run \(run)")
      expectEqual(result.latestMissing, failure, "run \(run)")
      expectEqual(result.staleness, nil, "run \(run)")
      clock.advance(by: 5)
    }
    expectEqual(calls.histories.count, 1, "the closes were cached by the first run")
    expectEqual(calls.prices.count, 2)
  }

  // MARK: - Real CoinGecko shapes

  func coinGecko(body: String, now: Date) throws -> (PriceSource, JSONFileCache) {
    let stub = StubTransport(body: body)
    let client = CoinGeckoClient(
      baseURL: URL(string: "https://gecko.test/api/v3")!, key: nil, transport: stub.transport)
    let cache = JSONFileCache(directory: try scratch.folder())
    let resolver = CoinResolver(client: client, cache: cache, now: { now }, offline: false, notify: { _ in })
    return (.coinGecko(client: client, resolver: resolver, now: { now }), cache)
  }

  @Test func hourlyDataWithoutMidnightSamplesClosesEachDayOnTheReadingNearestItsEnd() async throws {
    let body = try Fixtures.string(
      "real/coingecko/market_chart_days2_hourly_eur_zero_mcaps__unidentified-repo-id3539300908.json")
    let now = Date(timeIntervalSince1970: 1_716_645_610)
    let (source, cache) = try coinGecko(body: body, now: now)
    let result = try await RateService(
      source: source, cache: cache, mode: .normal, now: { now }, notify: { _ in }
    ).history(of: Asset(symbol: "MAGA", id: "maga-hat"), in: "EUR", days: 2)
    expectEqual(result.series.points.map(\.date.description), ["2024-05-24", "2024-05-25"])
    // 00:01:24 on 05-25, the reading at 05-24's end (not 23:07:57's 8.506443084369698e-05).
    expectEqual(result.series.points.first?.rate, 8.777568255610852e-05)
    expectEqual(result.series.points.last?.rate, 0.00013556790057101786)  // the "now" point
  }

  @Test func aFinalNowPointStampedEarlierDoesNotDisplaceTheLaterSample() async throws {
    let body = try Fixtures.string(
      "real/coingecko/market_chart_days2_sparse_last_point_earlier__unidentified-repo-id8856441360.json")
    let now = Date(timeIntervalSince1970: 1_623_938_700)
    let (source, _) = try coinGecko(body: body, now: now)
    let today = Day(containing: now)
    let closes = try await source.dailyCloses(
      Asset(symbol: "X", id: "x"), "usd", today.adding(days: -1)...today)
    expectEqual(closes.latest?.updatedAt, Date(timeIntervalSince1970: 1_623_938_675.631))
    expect(closes.closes.allSatisfy { $0.date < today })
  }

  @Test func ninetyOneDailyPointsForNinetyDaysShowNinetyDays() async throws {
    let now = fixedNow
    let today = Day(containing: now)
    // 91 midnights (today-90 … today) and the "now" point.
    var prices = (0...90).map { offset in
      "[\(Int(today.adding(days: offset - 90).start.timeIntervalSince1970) * 1000),\(1000 + offset)]"
    }
    prices.append("[\(Int(now.timeIntervalSince1970) * 1000 - 5000),2000]")
    let body = #"{"prices":[\#(prices.joined(separator: ","))],"market_caps":[],"total_volumes":[]}"#
    let (source, cache) = try coinGecko(body: body, now: now)
    let result = try await RateService(
      source: source, cache: cache, mode: .normal, now: { now }, notify: { _ in }
    ).history(of: Asset(symbol: "BTC", id: "bitcoin"), in: "EUR", days: 90)
    expectEqual(result.series.points.count, 90)
    expect(result.series.gaps.isEmpty)
    expectEqual(result.series.points.first?.date, today.adding(days: -89))
    // Day today-89 closes at the next midnight (offset 2).
    expectEqual(result.series.points.first?.rate, 1002)
    expectEqual(result.series.points.last?.rate, 2000)
  }
}
