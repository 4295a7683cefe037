import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The day store against hostile answers and poisoned files: only the asked days are stored,
/// a day left out is asked again after the backoff (never settled by one answer), format 1 is
/// migrated, and `--refresh` and `cache verify --fix` repair a poisoned store, leaving
/// everything else as it was.
@Suite struct DayStoreRepairTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  /// A provider whose day D is worth ``truth(_:)``, answering what it is told to leave out
  /// or add, and counting its range requests.
  final class Fake: @unchecked Sendable {
    private let lock = NSLock()
    private var state = (leaveOut: Set<Day>(), headMissing: 0, extra: [RatePoint]())
    let requests = Recorder<ClosedRange<Day>>()
    let ecb: Bool

    init(ecb: Bool) { self.ecb = ecb }

    func set(leaveOut: Set<Day> = [], headMissing: Int = 0, extra: [RatePoint] = []) {
      lock.withLock { state = (leaveOut, headMissing, extra) }
    }

    func closes(_ span: ClosedRange<Day>) -> [RatePoint] {
      requests.append(span)
      let (leaveOut, head, extra) = lock.withLock { state }
      var points: [RatePoint] = []
      for offset in head..<(span.lowerBound.distance(to: span.upperBound) + 1) {
        let day = span.lowerBound.adding(days: offset)
        guard !leaveOut.contains(day), !(ecb && MarketClosure.isECBClosed(day)) else { continue }
        points.append(RatePoint(date: day, rate: DayStoreRepairTests.truth(day)))
      }
      return (points + extra).sorted { $0.date < $1.date }
    }

    var source: PriceSource {
      PriceSource(
        name: .kraken, carriesForward: ecb, firstDay: ecb ? DayStoreRepairTests.firstDay : nil,
        resolve: { Asset(symbol: $0.uppercased(), id: $0.lowercased()) }, validateQuote: { _ in },
        prices: { _ in [] },
        dailyCloses: { _, _, span in DailyCloses(closes: self.closes(span), latest: nil) })
    }
  }

  static let today = Day(containing: fixedNow)
  static let firstDay = today.adding(days: -60)
  /// The window asked: the 20 settled days up to yesterday.
  static let window = today.adding(days: -20)...today.adding(days: -1)
  static let key = "kraken/eur-USD"

  static func truth(_ day: Day) -> Double { 1 + Double(day.daysSinceEpoch % 97) / 1000 }

  static func day(_ offset: Int) -> Day { today.adding(days: offset) }

  func history(
    _ fake: Fake, _ directory: URL, clock: TestClock, mode: CacheMode = .normal,
    window: ClosedRange<Day> = window
  ) async throws -> RateService.HistoryResult {
    let service = RateService(
      source: fake.source, cache: JSONFileCache(directory: directory), mode: mode,
      now: { clock.now }, notify: { _ in })
    return try await service.history(of: "eur", in: "USD", window: window)
  }

  func stored(_ directory: URL) -> DayStore.Days {
    DayStore(directory: directory).load(key: Self.key).0
  }

  /// Each day's state over `range`, without provenance.
  func states(_ days: DayStore.Days, _ range: ClosedRange<Day>) -> [DayStore.State] {
    (0...range.lowerBound.distance(to: range.upperBound)).map {
      days.state(range.lowerBound.adding(days: $0))
    }
  }

  /// What a clean run over `window` stores.
  func cleanStore(ecb: Bool, window: ClosedRange<Day> = window) async throws -> DayStore.Days {
    let directory = try scratch.folder()
    _ = try await history(Fake(ecb: ecb), directory, clock: TestClock(now: fixedNow), window: window)
    return stored(directory)
  }

  /// Format 1 bytes: the header, then a Float64 per day from `first` (`nil`: none; 0: unknown).
  static func formatOne(first: Day, _ values: [Double?]) -> Data {
    var data = Data("RDAYS01\n".utf8)
    withUnsafeBytes(of: Int32(first.daysSinceEpoch).littleEndian) { data.append(contentsOf: $0) }
    withUnsafeBytes(of: Int32(values.count).littleEndian) { data.append(contentsOf: $0) }
    for value in values {
      let bits = value.map(\.bitPattern) ?? DayStore.noValueBits
      withUnsafeBytes(of: bits.littleEndian) { data.append(contentsOf: $0) }
    }
    return data
  }

  func write(_ data: Data, in directory: URL) throws {
    let url = DayStore(directory: directory).fileURL(key: Self.key)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
  }

  // MARK: - Format 1

  @Test func formatOneBytesAreReadWithUnknownProvenanceAndMigratedOnTheNextWrite() throws {
    let directory = try scratch.folder()
    let first = Self.day(-10)
    try write(Self.formatOne(first: first, [1.5, nil, 0, 1e308]), in: directory)
    let store = DayStore(directory: directory)
    let (loaded, problem) = store.load(key: Self.key)
    expectEqual(problem, nil)
    // 1e308 fails the gate (AnswerGate.isPrice): read as left out, never shown, asked again.
    expectEqual(
      states(loaded, first...first.adding(days: 3)),
      [
        .value(1.5), .none, .unanswered(leftOut: 0), .unanswered(leftOut: 1),
      ])
    expectEqual(loaded.origin(first), nil)
    // A write that adds nothing still migrates; one that adds a day keeps every old one.
    try store.save(DayStore.Days(), key: Self.key)
    let url = store.fileURL(key: Self.key)
    expectEqual(try Data(contentsOf: url).prefix(8), Data("RDAYS02\n".utf8))
    expectEqual(store.load(key: Self.key).0, loaded)
    var more = DayStore.Days()
    let fetch = DayStore.Fetch(provider: "kraken", fetchedAt: fixedNow)
    more.set(first.adding(days: 2), 2, from: fetch)
    try store.save(more, key: Self.key)
    let migrated = store.load(key: Self.key).0
    expectEqual(
      states(migrated, first...first.adding(days: 3)), [.value(1.5), .none, .value(2), .unanswered(leftOut: 1)])
    expectEqual(migrated.origin(first.adding(days: 2)), fetch)
    expectEqual(migrated.origin(first), nil)
  }

  // MARK: - Hostile answers

  @Test func anAnswerCarryingOtherDaysStoresOnlyTheDaysAsked() async throws {
    let directory = try scratch.folder()
    let fake = Fake(ecb: false)
    let outside = [Self.window.lowerBound.adding(days: -3), Self.window.lowerBound.adding(days: -1)]
    fake.set(extra: outside.map { RatePoint(date: $0, rate: 7) })
    _ = try await history(fake, directory, clock: TestClock(now: fixedNow))
    let days = stored(directory)
    expectEqual(days.span, Self.window)
    expectEqual(days, (try await cleanStore(ecb: false)))
  }

  @Test func aRealFrankfurterAnswerWithAnExtraDayAndAMissingWorkingDay() async throws {
    // Asked for 1999-01-05…08: the answer carries 01-04 and leaves out Wednesday 01-06.
    let body = """
      {"amount":1.0,"base":"EUR","start_date":"1999-01-04","end_date":"1999-01-08","rates":{
      "1999-01-04":{"USD":1.1789},"1999-01-05":{"USD":1.179},
      "1999-01-07":{"USD":1.1632},"1999-01-08":{"USD":1.1659}}}
      """
    let stub = StubTransport(body: body)
    let directory = try scratch.folder()
    let client = FrankfurterClient(baseURL: URL(string: "https://fx.test/v1")!, transport: stub.transport)
    let service = RateService(
      source: .frankfurter(client: client, now: { fixedNow }),
      cache: JSONFileCache(directory: directory), mode: .normal, now: { fixedNow }, notify: { _ in })
    let asked = Day("1999-01-05")!...Day("1999-01-08")!
    let result = try await service.history(of: "EUR", in: "USD", window: asked)
    expectEqual(result.series.gaps, [Day("1999-01-06")!])
    let days = DayStore(directory: directory).load(key: "frankfurter/EUR-USD").0
    expectEqual(days.span, asked)
    expectEqual(states(days, asked), [.value(1.179), .unanswered(leftOut: 1), .value(1.1632), .value(1.1659)])
    expectEqual(days.origin(asked.lowerBound), DayStore.Fetch(provider: "frankfurter", fetchedAt: fixedNow))
  }

  @Test func aWorkingDayLeftOutIsAskedAgainAfterTheBackoffAndNotBefore() async throws {
    let directory = try scratch.folder()
    let clock = TestClock(now: fixedNow)
    let fake = Fake(ecb: true)
    let missing = Self.day(-5)  // a Wednesday
    expect(!MarketClosure.isECBClosed(missing))
    fake.set(leaveOut: [missing])
    let first = try await history(fake, directory, clock: clock)
    expectEqual(first.series.gaps, [missing])
    expectEqual(stored(directory).state(missing), .unanswered(leftOut: 1))
    fake.set()
    clock.advance(by: 3599)
    _ = try await history(fake, directory, clock: clock)
    expectEqual(fake.requests.count, 1, "no request during the backoff")
    clock.advance(by: 1)
    let healed = try await history(fake, directory, clock: clock)
    expectEqual(fake.requests.all, [Self.window, missing...missing])
    expect(healed.series.gaps.isEmpty)
    expectEqual(states(stored(directory), Self.window), states(try await cleanStore(ecb: true), Self.window))
  }

  @Test func anECBWorkingDayLeftOutIsNeverSettledAndItsBackoffGrows() async throws {
    let directory = try scratch.folder()
    let clock = TestClock(now: fixedNow)
    let fake = Fake(ecb: true)
    let missing = Self.day(-5)
    fake.set(leaveOut: [missing])
    _ = try await history(fake, directory, clock: clock)
    clock.advance(by: 3600)
    _ = try await history(fake, directory, clock: clock)
    expectEqual(stored(directory).state(missing), .unanswered(leftOut: 2))
    clock.advance(by: 7199)
    _ = try await history(fake, directory, clock: clock)
    expectEqual(fake.requests.count, 2, "the second backoff is 2 h")
    clock.advance(by: 1)
    _ = try await history(fake, directory, clock: clock)
    expectEqual(fake.requests.count, 3)
    expectEqual(stored(directory).state(missing), .unanswered(leftOut: 3), "a working day is never settled as none")
    clock.advance(by: 4 * 3600 - 1)
    _ = try await history(fake, directory, clock: clock)
    expectEqual(fake.requests.count, 3, "the third backoff is 4 h")
    clock.advance(by: 1)
    fake.set()
    let healed = try await history(fake, directory, clock: clock)
    expectEqual(fake.requests.count, 4)
    expect(healed.series.gaps.isEmpty)
    expectEqual(stored(directory).value(missing), Self.truth(missing))
  }

  @Test func quickRefreshesDoNotCountALeftOutDay() async throws {
    let directory = try scratch.folder()
    let clock = TestClock(now: fixedNow)
    let fake = Fake(ecb: true)
    let missing = Self.day(-5)
    fake.set(leaveOut: [missing])
    for _ in 0..<3 {
      _ = try await history(fake, directory, clock: clock, mode: .refresh)
      clock.advance(by: 5)
    }
    expectEqual(fake.requests.count, 3)
    expectEqual(stored(directory).state(missing), .unanswered(leftOut: 1))
    expectEqual(stored(directory).origin(missing)?.fetchedAt, fixedNow, "the first count's time stands")
    fake.set()
    clock.advance(by: 3600)
    let healed = try await history(fake, directory, clock: clock)
    expectEqual(fake.requests.all.last, missing...missing)
    expect(healed.series.gaps.isEmpty)
  }

  @Test func onlyACoinsHeadDaysSettleAfterThreeSpacedAnswers() async throws {
    let directory = try scratch.folder()
    let clock = TestClock(now: fixedNow)
    let fake = Fake(ecb: false)
    let middle = Self.day(-5)
    fake.set(leaveOut: [middle], headMissing: 2)
    _ = try await history(fake, directory, clock: clock)
    clock.advance(by: 3600)
    _ = try await history(fake, directory, clock: clock)
    clock.advance(by: 7200)
    _ = try await history(fake, directory, clock: clock)
    expectEqual(fake.requests.count, 3)
    let days = stored(directory)
    let head = Self.window.lowerBound...Self.window.lowerBound.adding(days: 1)
    expectEqual(states(days, head), [.none, .none], "not trading yet")
    expectEqual(days.state(middle), .unanswered(leftOut: 3))
  }

  @Test func aStoredValueTheGateRefusesIsNeverShownAndIsAskedAgain() async throws {
    let directory = try scratch.folder()
    let poisoned = Self.day(-5)
    try write(Self.poisoned(Self.window, poison: [poisoned: 1e308]), in: directory)
    let fake = Fake(ecb: true)
    let result = try await history(fake, directory, clock: TestClock(now: fixedNow))
    expect(!result.series.points.contains { !AnswerGate.isPrice($0.rate) })
    expectEqual(fake.requests.all, [poisoned...poisoned])
    expectEqual(result.series.points.first { $0.date == poisoned }?.rate, Self.truth(poisoned))
    expectEqual(stored(directory).value(poisoned), Self.truth(poisoned))
  }

  @Test func aDayWaitingToBeAskedAgainIsReportedAsLeftOutWithWhen() async throws {
    let directory = try scratch.folder()
    let clock = TestClock(now: fixedNow)
    let fake = Fake(ecb: true)
    let missing = Self.day(-5)
    fake.set(leaveOut: [missing])
    let asked = fixedNow.addingTimeInterval(3600)
    let first = try await history(fake, directory, clock: clock)
    expectEqual(first.leftOut, [missing: asked])
    clock.advance(by: 60)
    let cached = try await history(fake, directory, clock: clock)
    expectEqual(fake.requests.count, 1)
    expectEqual(cached.leftOut, [missing: asked])
    let error = RateDesk.noRate(on: missing, in: cached) as? ProviderError
    expectEqual(error, .leftOut(provider: .provider(.kraken), pair: "EUR/USD", day: missing, askAgain: asked))
  }

  @Test func aCoinWithoutAPriceNeverMentionsWorkingDays() throws {
    let day = Self.day(-5)
    let series = RateSeries(
      base: "BTC", quote: "EUR", source: .provider(.coinGecko), fetchedAt: fixedNow, points: [], gaps: [day])
    let error = RateDesk.noRate(on: day, in: RateService.HistoryResult(series: series, staleness: nil))
    expectEqual(error as? ProviderError, .noData(provider: .provider(.coinGecko), detail: "no BTC/EUR price on \(day)"))
  }

  @Test func daysLeftOutAtTheHeadOfACoinRangeAreNotSettledAsNotTradingYet() async throws {
    let directory = try scratch.folder()
    let clock = TestClock(now: fixedNow)
    let fake = Fake(ecb: false)
    fake.set(headMissing: 3)
    _ = try await history(fake, directory, clock: clock)
    let head = Self.window.lowerBound...Self.window.lowerBound.adding(days: 2)
    expectEqual(states(stored(directory), head), Array(repeating: .unanswered(leftOut: 1), count: 3))
    fake.set()
    clock.advance(by: 3600)
    _ = try await history(fake, directory, clock: clock)
    expectEqual(fake.requests.all.last, head)
    expectEqual(states(stored(directory), Self.window), states(try await cleanStore(ecb: false), Self.window))
  }

  @Test func daysBeforeTheSourcesFirstDayAreDroppedNotStored() async throws {
    let directory = try scratch.folder()
    // An old version wrote "none" for 1,000 days before the first day (a range from year 0).
    let start = Self.firstDay.adding(days: -1_000)
    try write(Self.formatOne(first: start, Array(repeating: nil, count: 1_000)), in: directory)
    let fromYearZero = Day.earliest...Self.window.upperBound
    let result = try await history(Fake(ecb: true), directory, clock: TestClock(now: fixedNow), window: fromYearZero)
    expectEqual(result.series.points.first?.date, Self.firstDay)
    let days = stored(directory)
    expectEqual(days.span?.lowerBound, Self.firstDay)
    expectEqual(days, (try await cleanStore(ecb: true, window: fromYearZero)))
  }

  // MARK: - Repair

  /// A format 1 store over `range` as an old version could leave it: the clean values, with
  /// 1e308 on one working day, a wrong value on a day an answer carried outside its range,
  /// a working day stored as none, and a closure stored with a value.
  static func poisoned(_ range: ClosedRange<Day>, poison: [Day: Double?]) -> Data {
    let values: [Double?] = (0...range.lowerBound.distance(to: range.upperBound)).map { offset in
      let day = range.lowerBound.adding(days: offset)
      if let poisoned = poison[day] { return poisoned }
      return MarketClosure.isECBClosed(day) ? nil : truth(day)
    }
    return formatOne(first: range.lowerBound, values)
  }

  static let storedRange = day(-40)...day(-1)
  static let poison: [Day: Double?] = [
    day(-5): 1e308, day(-12): 9.99, day(-10): Double?.none, day(-15): 4.2, day(-31): 1e308,
  ]

  @Test func refreshRepairsAPoisonedStoreAndChangesNothingOutsideItsRange() async throws {
    let directory = try scratch.folder()
    expect(MarketClosure.isECBClosed(Self.day(-15)) && !MarketClosure.isECBClosed(Self.day(-10)))
    try write(Self.poisoned(Self.storedRange, poison: Self.poison), in: directory)
    let before = stored(directory)
    let clock = TestClock(now: fixedNow)
    let result = try await history(Fake(ecb: true), directory, clock: clock, mode: .refresh)
    expect(!result.series.points.contains { $0.rate == 1e308 || $0.rate == 9.99 })
    let after = stored(directory)
    expectEqual(states(after, Self.window), states(try await cleanStore(ecb: true), Self.window))
    let outside = Self.storedRange.lowerBound...Self.window.lowerBound.adding(days: -1)
    expectEqual(states(after, outside), states(before, outside))
    expectEqual(after.state(Self.day(-31)), .unanswered(leftOut: 1), "outside the refreshed range: still asked again")
    expectEqual(after.origin(Self.day(-5)), DayStore.Fetch(provider: "kraken", fetchedAt: fixedNow))
    expectEqual(after.origin(Self.day(-31)), nil)
  }

  @Test func verifyReportsEveryDifferenceAndFixReplacesOnlyThose() async throws {
    let directory = try scratch.folder()
    try write(Self.poisoned(Self.storedRange, poison: Self.poison), in: directory)
    let url = DayStore(directory: directory).fileURL(key: Self.key)
    let bytes = try Data(contentsOf: url)
    let fake = Fake(ecb: true)
    let service = RateService(
      source: fake.source, cache: JSONFileCache(directory: directory), mode: .normal,
      now: { fixedNow }, notify: { _ in })
    expectEqual(service.storedPairs(), ["eur-usd"])
    let report = try await service.verifyStoredDays(pair: "eur-usd", fix: false)
    // One request for the one run of days, reaching on to today as the history that stored
    // a run up to yesterday asked it (the same form of answer).
    expectEqual(fake.requests.all, [Self.storedRange.lowerBound...Self.today], "one request for the run")
    expectEqual(report.checked, 40)
    expectEqual(
      report.differences.map {
        "\($0.day) \($0.storedLeftOut ? "left out" : $0.stored.map { "\($0)" } ?? "none") \($0.provider.map { "\($0)" } ?? "none")"
      },
      [
        "\(Self.day(-31)) left out \(Self.truth(Self.day(-31)))",
        "\(Self.day(-15)) 4.2 none",
        "\(Self.day(-12)) 9.99 \(Self.truth(Self.day(-12)))",
        "\(Self.day(-10)) none \(Self.truth(Self.day(-10)))",
        "\(Self.day(-5)) left out \(Self.truth(Self.day(-5)))",
      ])
    expect(report.differences.allSatisfy { $0.storedFetch == nil })
    expect(!report.fixed)
    expectEqual(try Data(contentsOf: url), bytes, "without --fix nothing is written")
    let before = stored(directory)
    let fixed = try await service.verifyStoredDays(pair: "eur-usd", fix: true)
    expect(fixed.fixed && fixed.differences.count == 5)
    let after = stored(directory)
    expectEqual(
      states(after, Self.storedRange),
      states(try await cleanStore(ecb: true, window: Self.storedRange), Self.storedRange))
    for offset in 0..<40 {
      let day = Self.storedRange.lowerBound.adding(days: offset)
      let repaired = Self.poison[day] != nil
      expectEqual(after.origin(day), (repaired ? DayStore.Fetch(provider: "kraken", fetchedAt: fixedNow) : nil))
      if !repaired { expectEqual(after.state(day), before.state(day)) }
    }
    expect(try await service.verifyStoredDays(pair: "eur-usd", fix: false).differences.isEmpty)
  }
}
