import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// A day an answer left out is never a gap for good: a coin stored as trading the day before
/// is never settled as "none", and a none that cannot be (a coin's day after a stored value,
/// an ECB working day) is asked again by the next run that needs it, once a run.
@Suite struct AskAgainTests {
  let scratch = Scratch()
  typealias Fake = DayStoreRepairTests.Fake

  static func day(_ offset: Int) -> Day { DayStoreRepairTests.day(offset) }
  static let key = DayStoreRepairTests.key

  func history(
    _ fake: Fake, _ directory: URL, clock: TestClock, asked: AskedDays = AskedDays(),
    window: ClosedRange<Day> = DayStoreRepairTests.window
  ) async throws -> RateService.HistoryResult {
    let service = RateService(
      source: fake.source, cache: JSONFileCache(directory: directory), mode: .normal,
      now: { clock.now }, notify: { _ in }, asked: asked)
    return try await service.history(of: "eur", in: "USD", window: window)
  }

  func stored(_ directory: URL) -> DayStore.Days {
    DayStore(directory: directory).load(key: Self.key).0
  }

  /// Stores `day` as having no value, as an earlier version could leave it.
  func storeNone(_ day: Day, in directory: URL) throws {
    var none = DayStore.Days()
    none.set(day, nil, from: DayStore.Fetch(provider: "test", fetchedAt: fixedNow))
    try DayStore(directory: directory).save(none, key: Self.key, replacing: true)
  }

  @Test(arguments: [false, true])
  func aNoneThatCannotBeIsAskedAgainOnceARun(_ ecb: Bool) async throws {
    let directory = try scratch.folder()
    let clock = TestClock(now: fixedNow)
    let fake = Fake(ecb: ecb)
    _ = try await history(fake, directory, clock: clock)
    let missing = Self.day(-5)  // a Wednesday: an ECB working day, a coin trading before it
    expect(!MarketClosure.isECBClosed(missing))
    try storeNone(missing, in: directory)
    expect(stored(directory).isEmpty(missing))

    // The provider still leaves it out: one run asks once, however many histories it makes.
    fake.set(leaveOut: [missing])
    let run = AskedDays()
    let first = try await history(fake, directory, clock: clock, asked: run)
    _ = try await history(fake, directory, clock: clock, asked: run)
    expectEqual(fake.requests.all.dropFirst(), [missing...missing], "asked once in the run")
    expectEqual(first.series.gaps, [missing])

    // The next run asks again, and the day arrives.
    fake.set()
    let healed = try await history(fake, directory, clock: clock)
    expectEqual(fake.requests.all.dropFirst(), [missing...missing, missing...missing])
    expect(healed.series.gaps.isEmpty)
    expectEqual(stored(directory).value(missing), DayStoreRepairTests.truth(missing))
  }

  @Test func aCoinStoredAsTradingTheDayBeforeIsNeverSettledAsNone() async throws {
    let directory = try scratch.folder()
    let clock = TestClock(now: fixedNow)
    let fake = Fake(ecb: false)
    let earlier = Self.day(-20)...Self.day(-10)
    _ = try await history(fake, directory, clock: clock, window: earlier)
    // The rest of the window: its first day is left out, the days after it answered.
    let missing = Self.day(-9)
    fake.set(leaveOut: [missing])
    for _ in 0..<4 {
      _ = try await history(fake, directory, clock: clock)
      clock.advance(by: 86_400)
    }
    let state = stored(directory).state(missing)
    expect(state != .none, "a coin that traded the day before has a value that day")
    expectEqual(state, .unanswered(leftOut: 4))
    fake.set()
    _ = try await history(fake, directory, clock: clock)
    expectEqual(stored(directory).value(missing), DayStoreRepairTests.truth(missing))
  }
}
