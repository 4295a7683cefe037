import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// A clock that only moves when the code under test sleeps.
final class WatchTestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date
  private var slept: [TimeInterval] = []

  init(_ start: Date = fixedNow) { current = start }

  var now: Date {
    lock.lock()
    defer { lock.unlock() }
    return current
  }

  var sleeps: [TimeInterval] {
    lock.lock()
    defer { lock.unlock() }
    return slept
  }

  func sleep(_ duration: Duration) {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    lock.lock()
    current = current.addingTimeInterval(seconds)
    slept.append(seconds)
    lock.unlock()
  }
}

/// An inline CoinGecko-like source: counts requests (also in the meter),
/// answers 100, 101, 102, … or the scripted failure for request N.
final class CountingSource: @unchecked Sendable {
  private let lock = NSLock()
  private var times: [Date] = []
  let clock: WatchTestClock
  let meter: RequestMeter
  let failures: [Int: ProviderError]
  let rates: [Double]?

  init(clock: WatchTestClock, meter: RequestMeter, failures: [Int: ProviderError] = [:], rates: [Double]? = nil) {
    self.clock = clock
    self.meter = meter
    self.failures = failures
    self.rates = rates
  }

  var requestTimes: [Date] {
    lock.lock()
    defer { lock.unlock() }
    return times
  }

  private func next() -> Int {
    lock.lock()
    defer { lock.unlock() }
    times.append(clock.now)
    return times.count - 1
  }

  var source: PriceSource {
    PriceSource(
      name: Provider.coinGecko,
      resolve: { Asset(symbol: $0.uppercased(), id: $0.lowercased()) },
      validateQuote: { _ in },
      prices: { [self] pairs in
        let index = next()
        await meter.record(.provider(.coinGecko), at: clock.now)
        if let failure = failures[index] { throw failure }
        let rate = rates.map { $0[min(index, $0.count - 1)] } ?? 100 + Double(index)
        return pairs.map {
          Quote(
            base: $0.asset.symbol, quote: $0.quote, rate: rate, change24hPercent: 1.5,
            source: .provider(.coinGecko), fetchedAt: clock.now, updatedAt: nil)
        }
      },
      dailyCloses: { _, _, _ in DailyCloses(closes: [], latest: nil) })
  }
}

@Suite struct WatchEngineTests {
  struct Setup {
    var clock = WatchTestClock()
    var meter = RequestMeter()
    var cache: JSONFileCache
    var counting: CountingSource
    /// The cache's folder, removed with the last copy of this setup.
    let folder: TemporaryDirectory

    init(failures: [Int: ProviderError] = [:], rates: [Double]? = nil) throws {
      folder = try TemporaryDirectory()
      cache = JSONFileCache(directory: folder.url)
      counting = CountingSource(clock: clock, meter: meter, failures: failures, rates: rates)
    }

    func engine(
      interval: Int, budget: Int, count: Int, alerts: [WatchEngine.Alert] = [], exitOnAlert: Bool = false,
      redraw: TimeInterval? = nil
    ) -> WatchEngine {
      let clock = self.clock
      let pairs = [
        AssetQuote(asset: Asset(symbol: "BTC", id: "bitcoin"), quote: "USD"),
        AssetQuote(asset: Asset(symbol: "ETH", id: "ethereum"), quote: "USD"),
      ]
      let service = RateService(
        source: counting.source, cache: cache, mode: .refresh, now: { clock.now }, notify: { _ in })
      let feed = WatchFeeds.prices(service: service, pairs: pairs, now: { clock.now })
      return WatchEngine(
        feeds: [feed],
        targets: [
          .init(feed: 0, pair: 0, inverted: false, base: "BTC", quote: "USD"),
          .init(feed: 0, pair: 1, inverted: false, base: "ETH", quote: "USD"),
        ],
        alerts: alerts, interval: interval, budgetPerMinute: budget, count: count,
        exitOnAlert: exitOnAlert, redrawEvery: redraw, now: { clock.now },
        sleep: { clock.sleep($0) }, meter: meter)
    }
  }

  @Test func oneRequestPerUpdateAtTheInterval() async throws {
    let setup = try Setup()
    let events = Recorder<(WatchEngine.Event, WatchState)>()
    let outcome = try await setup.engine(interval: 15, budget: 4, count: 3).run { events.append(($0, $1)) }
    expectEqual(outcome, .finished)
    let times = setup.counting.requestTimes.map { $0.timeIntervalSince(fixedNow) }
    expectEqual(times, [0, 15, 30])
    let updates = events.all.filter { $0.0 == .update }.map(\.1)
    expectEqual(updates.count, 3)
    expectEqual(events.all.first?.0, .cached)
    let last = try require(updates.last)
    expectEqual(last.items.map(\.rate), [102, 102])
    expectEqual(last.items[0].sinceLast, 1)
    expectEqual(last.items[0].seen, [100, 101, 102])
    expect(last.items.allSatisfy { !$0.stale && !$0.cached })
    expectEqual(last.requestsLastMinute, 3)
  }

  @Test(arguments: [99_999_999_999, 2_000_000_000])
  func anAbsurdRetryAfterIsCappedAtFiveMinutes(_ seconds: Int) async throws {
    let setup = try Setup(failures: [1: .rateLimited(provider: .provider(.coinGecko), retryAfter: seconds)])
    let outcome = try await setup.engine(interval: 15, budget: 4, count: 3).run { _, _ in }
    expectEqual(outcome, .finished)
    let times = setup.counting.requestTimes.map { $0.timeIntervalSince(fixedNow) }
    // 0 ok, 15 → 429 with a Retry-After years away: asked again 5 minutes later.
    expectEqual(times, [0, 15, 315])
  }

  @Test func rateLimitInTheMiddleKeepsGoingStaleAndHonoursRetryAfter() async throws {
    let setup = try Setup(failures: [1: .rateLimited(provider: .provider(.coinGecko), retryAfter: 40)])
    let events = Recorder<(WatchEngine.Event, WatchState)>()
    let outcome = try await setup.engine(interval: 15, budget: 4, count: 4).run { events.append(($0, $1)) }
    expectEqual(outcome, .finished)
    let times = setup.counting.requestTimes.map { $0.timeIntervalSince(fixedNow) }
    // 0 ok, 15 → 429 (Retry-After 40), next not before 55, then the interval again.
    expectEqual(times, [0, 15, 55, 70])
    let updates = events.all.filter { $0.0 == .update }.map(\.1)
    expectEqual(updates.count, 4)
    let failed = updates[1]
    expect(failed.items.allSatisfy { $0.stale && $0.rate == 100 })
    expect(failed.retrying)
    expectEqual(failed.nextUpdate, fixedNow.addingTimeInterval(55))
    expectEqual(failed.lastError?.contains("rate limit"), true)
    expect(updates[2].items.allSatisfy { !$0.stale && $0.rate == 102 })
    // Never more than the budget in any 60 seconds.
    for time in times {
      expect(times.filter { $0 > time - 60 && $0 <= time }.count <= 4)
    }
  }

  @Test func budgetIsEnforcedEvenWhenTheIntervalWouldAllowMore() async throws {
    let setup = try Setup()
    let outcome = try await setup.engine(interval: 5, budget: 3, count: 5).run { _, _ in }
    expectEqual(outcome, .finished)
    let times = setup.counting.requestTimes.map { $0.timeIntervalSince(fixedNow) }
    expectEqual(times.count, 5)
    for time in times {
      expect(times.filter { $0 > time - 60 && $0 <= time }.count <= 3, "\(times)")
    }
    expectEqual(times, [0, 5, 10, 60, 65])
  }

  @Test func serverErrorsBackOffAndNothingEverShownReportsTheError() async throws {
    let failure = ProviderError.serverError(provider: .provider(.coinGecko), status: 503)
    let setup = try Setup(failures: [0: failure, 1: failure, 2: failure])
    await #expect(throws: ProviderError.self) {
      _ = try await setup.engine(interval: 10, budget: 6, count: 3).run { _, _ in }
    }
    let times = setup.counting.requestTimes.map { $0.timeIntervalSince(fixedNow) }
    expectEqual(times, [0, 10, 30])
  }

  @Test func unknownCoinEndsTheWatch() async throws {
    let setup = try Setup(failures: [1: .coinNotFound(provider: .provider(.coinGecko), coin: "x")])
    await #expect(throws: ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: "x")) {
      _ = try await setup.engine(interval: 15, budget: 4, count: 5).run { _, _ in }
    }
  }

  @Test func firstFrameComesFromTheCacheMarkedWithItsAge() async throws {
    let setup = try Setup()
    let old = Quote(
      base: "BTC", quote: "USD", rate: 90, change24hPercent: -1, source: .provider(.coinGecko),
      fetchedAt: fixedNow.addingTimeInterval(-300), updatedAt: nil)
    try setup.cache.save(
      old, key: "coingecko/price/bitcoin-USD", source: "coingecko",
      fetchedAt: fixedNow.addingTimeInterval(-300))
    let events = Recorder<(WatchEngine.Event, WatchState)>()
    _ = try await setup.engine(interval: 15, budget: 4, count: 1).run { events.append(($0, $1)) }
    let first = try require(events.all.first)
    expectEqual(first.0, .cached)
    expectEqual(setup.counting.requestTimes.isEmpty, false)
    expect(first.1.items[0].rate == 90 && first.1.items[0].cached)
    expectEqual(first.1.items[1].rate, nil)
    let lines = WatchRenderer.render(first.1, width: 80, style: Style(enabled: false))
    expect(lines.joined(separator: "\n").contains("cached 5 min"))
    let update = try require(events.all.last?.1)
    expect(update.items[0].rate == 100 && update.items[0].previousRate == 90)
  }

  @Test func alertsAreReportedOncePerCrossingAndCanEndTheWatch() async throws {
    let rule = try AlertRule.parse("BTC>100.5")
    let setup = try Setup(rates: [100, 101, 102, 99, 103])
    let events = Recorder<(WatchEngine.Event, WatchState)>()
    let outcome = try await setup.engine(
      interval: 15, budget: 4, count: 5, alerts: [.init(rule: rule, targets: [0])]
    ).run { events.append(($0, $1)) }
    expectEqual(outcome, .finished)
    let updates = events.all.filter { $0.0 == .update }.map(\.1)
    expectEqual(updates.map { $0.items[0].newAlert }, [nil, "BTC>100.5", nil, nil, "BTC>100.5"])
    expectEqual(updates.map { $0.items[0].alert }, [nil, "BTC>100.5", "BTC>100.5", nil, "BTC>100.5"])
    expect(updates.allSatisfy { $0.items[1].alert == nil })

    let stopping = try Setup(rates: [100, 101, 102])
    let stopped = try await stopping.engine(
      interval: 15, budget: 4, count: 5, alerts: [.init(rule: rule, targets: [0])], exitOnAlert: true
    ).run { _, _ in }
    expectEqual(stopped, .alert)
    expectEqual(stopping.counting.requestTimes.count, 2)
  }

  @Test func terminalRedrawsCountDownAndHighlightChangesForOneFrame() async throws {
    let setup = try Setup()
    let events = Recorder<(WatchEngine.Event, WatchState)>()
    _ = try await setup.engine(interval: 3, budget: 60, count: 2, redraw: 1).run { events.append(($0, $1)) }
    let kinds = events.all.map(\.0)
    expectEqual(kinds, [.cached, .update, .tick, .tick, .tick, .update])
    let states = events.all.map(\.1)
    expect(states[5].items[0].highlight)
    expect(!states[2].items[0].highlight)
    expectEqual(setup.clock.sleeps, [1, 1, 1])
  }

  @Test func cancellationEndsTheLoop() async throws {
    let setup = try Setup()
    let engine = setup.engine(interval: 15, budget: 4, count: 1000)
    let clock = setup.clock
    var cancelling = engine
    cancelling.sleep = { duration in
      clock.sleep(duration)
      throw CancellationError()
    }
    await #expect(throws: CancellationError.self) { _ = try await cancelling.run { _, _ in } }
  }
}
