import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// A past day's close in the hour after midnight UTC, before it settles
/// (``CacheFreshness/closeSettling``): kept with today's price, never stored, asked again
/// once stale, and standing in (marked stale) when nothing fresher can be had.
@Suite struct UnsettledCloseTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  /// Ten minutes after midnight: yesterday's close is not final yet.
  static let justAfterMidnight = Day(containing: fixedNow).start.addingTimeInterval(600)
  static let today = Day(containing: justAfterMidnight)
  static let yesterday = today.adding(days: -1)

  /// What the source is asked and how it answers: day D closes at `100 + D's day of the month`
  /// (`close`: at that plus `shift`), today's price is 150; `failing` makes it throw.
  final class Answers: @unchecked Sendable {
    let histories = Recorder<ClosedRange<Day>>()
    var failing = false
    var shift = 0.0
    var answeredBy: RateSource?
  }

  static let failure = ProviderError.network(provider: .provider(.coinGecko), .cannotConnect(host: "gecko.test"))

  static func source(_ answers: Answers, clock: TestClock) -> PriceSource {
    PriceSource(
      name: .coinGecko,
      resolve: { Asset(symbol: $0.uppercased(), id: $0.lowercased()) },
      validateQuote: { _ in },
      prices: { pairs in
        if answers.failing { throw Self.failure }
        return pairs.map {
          Quote(
            base: $0.asset.symbol, quote: $0.quote, rate: 150, change24hPercent: nil,
            source: .provider(.coinGecko), fetchedAt: clock.now, updatedAt: clock.now)
        }
      },
      dailyCloses: { asset, currency, days in
        answers.histories.append(days)
        if answers.failing { throw Self.failure }
        let today = Day(containing: clock.now)
        var closes: [RatePoint] = []
        for offset in 0...days.lowerBound.distance(to: min(days.upperBound, today.adding(days: -1))) {
          let day = days.lowerBound.adding(days: offset)
          closes.append(RatePoint(date: day, rate: 100 + Double(day.components.day) + answers.shift))
        }
        let latest = Quote(
          base: asset.symbol, quote: currency, rate: 150, change24hPercent: nil,
          source: answers.answeredBy ?? .provider(.coinGecko), fetchedAt: clock.now, updatedAt: clock.now)
        return DailyCloses(closes: closes, latest: latest, source: answers.answeredBy)
      })
  }

  func service(_ answers: Answers, _ cache: JSONFileCache, _ clock: TestClock, mode: CacheMode = .normal)
    -> RateService
  {
    RateService(
      source: Self.source(answers, clock: clock), cache: cache, mode: mode, now: { clock.now }, notify: { _ in })
  }

  func entry(_ cache: JSONFileCache) throws -> RateService.HistoryCacheValue {
    try require(cache.load(RateService.HistoryCacheValue.self, key: "coingecko/history/btc-EUR").entry?.value)
  }

  @Test func aRangeEndingYesterdayKeepsTodaysCachedPrice() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: Self.justAfterMidnight)
    let answers = Answers()
    _ = try await service(answers, cache, clock).history(of: "btc", in: "EUR", days: 3)
    expectEqual(try entry(cache).latest?.rate, 150)
    // A minute on, a range that ends yesterday asks for it again and keeps the price.
    clock.advance(by: 61)
    _ = try await service(answers, cache, clock).history(
      of: "btc", in: "EUR", window: Self.yesterday.adding(days: -2)...Self.yesterday)
    expectEqual(answers.histories.count, 2)
    expectEqual(try entry(cache).latest?.rate, 150)
    expectEqual(try entry(cache).unsettled?.fetchedAt, clock.now)
  }

  @Test func aStaleCloseStandsInOfflineAndAfterAFailedFetchMarkedStale() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: Self.justAfterMidnight)
    let answers = Answers()
    let first = try await service(answers, cache, clock).history(of: "btc", in: "EUR", days: 3)
    let close = try require(first.series.points.first { $0.date == Self.yesterday })
    clock.advance(by: 120)
    let offline = try await service(answers, cache, clock, mode: .offline).history(of: "btc", in: "EUR", days: 3)
    expectEqual(offline.series.points.first { $0.date == Self.yesterday }, close)
    expect(offline.staleness != nil)
    answers.failing = true
    let failed = try await service(answers, cache, clock).history(of: "btc", in: "EUR", days: 3)
    expectEqual(failed.series.points.first { $0.date == Self.yesterday }, close)
    expect(failed.staleness?.reason != nil)
    // Settled (an hour after midnight), the unsettled answer no longer speaks for the day.
    clock.advance(by: 3600)
    let settled = try await service(answers, cache, clock, mode: .offline).history(of: "btc", in: "EUR", days: 3)
    expect(!settled.series.points.contains { $0.date == Self.yesterday })
  }

  @Test func aNewerAnswerReplacesTheCloseItShows() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: Self.justAfterMidnight)
    let answers = Answers()
    _ = try await service(answers, cache, clock).history(of: "btc", in: "EUR", days: 3)
    clock.advance(by: 61)
    answers.shift = 0.5
    let second = try await service(answers, cache, clock).history(of: "btc", in: "EUR", days: 3)
    let expected = 100 + Double(Self.yesterday.components.day) + 0.5
    expectEqual(second.series.points.first { $0.date == Self.yesterday }?.rate, expected)
    clock.advance(by: 10)
    let third = try await service(answers, cache, clock).history(of: "btc", in: "EUR", days: 3)
    expectEqual(third.series.points.first { $0.date == Self.yesterday }?.rate, expected)
    expectEqual(answers.histories.count, 2)
  }

  @Test func aFallbacksCloseKeepsItsSourceFromTheCache() async throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let clock = TestClock(now: Self.justAfterMidnight)
    let answers = Answers()
    answers.answeredBy = .provider(.coinbase)
    let fetched = try await service(answers, cache, clock).history(of: "btc", in: "EUR", days: 3)
    clock.advance(by: 10)
    let cached = try await service(answers, cache, clock).history(of: "btc", in: "EUR", days: 3)
    expectEqual(answers.histories.count, 1)
    expectEqual(cached.series.source(on: Self.yesterday), .provider(.coinbase))
    expectEqual(cached.series.sources, fetched.series.sources)
  }

  @Test func anImplausibleUnsettledCloseMakesTheEntryUnusable() throws {
    let answer = DailyCloses(closes: [RatePoint(date: Self.yesterday, rate: 1e308)], latest: nil)
    var unsettled = try require(
      RateService.UnsettledCloses(
        answer, in: Self.yesterday...Self.today, settled: Self.yesterday.adding(days: -1), today: Self.today,
        at: Self.justAfterMidnight))
    let value = { (unsettled: RateService.UnsettledCloses) in
      RateService.HistoryCacheValue(closes: [], unsettled: unsettled)
    }
    expect(!value(unsettled).isPlausible)
    unsettled.closes = [RatePoint(date: Self.yesterday.adding(days: -3), rate: 100)]
    expect(!value(unsettled).isPlausible)
    unsettled.closes = [RatePoint(date: Self.yesterday, rate: 100)]
    expect(value(unsettled).isPlausible)
    // Days reaching the day it was fetched on are not unsettled ones: today is the price's.
    unsettled.days.through = Self.today
    expect(!value(unsettled).isPlausible)
  }

  @Test func aPartThatFailedIsNotCachedAsAnswered() throws {
    let cut = DailyCloses.CutShort(
      from: Self.yesterday, failure: .network(provider: .provider(.coinbase), .cannotConnect(host: "gecko.test")))
    let answer = DailyCloses(closes: [], latest: nil, cutShort: cut)
    let unsettled = RateService.UnsettledCloses(
      answer, in: Self.yesterday.adding(days: -3)...Self.today, settled: Self.yesterday.adding(days: -1),
      today: Self.today, at: Self.justAfterMidnight)
    expectEqual(unsettled, nil)
  }
}
