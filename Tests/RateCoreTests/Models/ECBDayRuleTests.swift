import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The one rule for "the ECB rate on a day" (``MarketClosure``), walked over
/// every day and every currency of the snapshot built into `rates`, against
/// the ECB's own publication calendar (the snapshot's days).
@Suite struct ECBDayRuleTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  func snapshot() throws -> ECBSnapshot { try require(ECBSnapshot.embedded) }

  func day(_ text: String) throws -> Day { try require(Day(text)) }

  @Test func theCalendarIsExactlyTheDaysTheECBDidNotPublish() throws {
    let snapshot = try snapshot()
    let published = Set(snapshot.days)
    var day = snapshot.firstDay
    var wrong: [String] = []
    while day <= snapshot.lastDay {
      if published.contains(day) == MarketClosure.isECBClosed(day) { wrong.append("\(day)") }
      day = day.adding(days: 1)
    }
    expect(wrong.isEmpty, "days the calendar gets wrong: \(wrong)")
    // The special closures, and 1999's Easter, when TARGET still worked.
    expect(MarketClosure.isECBClosed(try self.day("1999-12-31")))
    expect(MarketClosure.isECBClosed(try self.day("2001-12-31")))
    expect(!MarketClosure.isECBClosed(try self.day("1999-04-02")))
  }

  /// What the ECB's publications say stands on each day from the snapshot's
  /// first to its last, for `code` in euros: on each day, the ECB's last
  /// publication on or before it (`p`); the currency's rate of `p` when `p` is
  /// the day itself, or at most four days back (the ECB published nothing in
  /// between), else none. Written without ``MarketClosure``'s calendar.
  func publications(of code: String, in snapshot: ECBSnapshot) throws
    -> [(day: Day, expected: (rate: Double, published: Day)?)]
  {
    let column = try require(snapshot.column(code))
    let first = snapshot.firstDay
    var result: [(day: Day, expected: (rate: Double, published: Day)?)] = []
    var index = 0
    for offset in 0...first.distance(to: snapshot.lastDay) {
      let day = first.adding(days: offset)
      if index + 1 < snapshot.days.count, snapshot.days[index + 1] <= day { index += 1 }
      let publication = snapshot.days[index]
      let stands = publication.distance(to: day) <= MarketClosure.maximumCarriedDays
      result.append((day, stands ? column[index].map { ($0, publication) } : nil))
    }
    return result
  }

  @Test func theRuleMatchesThePublicationsOnEveryDayForEveryCurrency() throws {
    let snapshot = try snapshot()
    let today = try day("2100-01-01")
    var checked = 0
    for code in snapshot.currencies.sorted() {
      let column = try require(snapshot.column(code))
      var byDay: [Day: RatePoint] = [:]
      for (index, day) in snapshot.days.enumerated() {
        if let rate = column[index] { byDay[day] = RatePoint(date: day, rate: rate) }
      }
      var mismatches: [String] = []
      for (day, expected) in try publications(of: code, in: snapshot) {
        let got = MarketClosure.standing(on: day, today: today) { byDay[$0] }
        if got?.point.rate != expected?.rate || got?.published != expected?.published
          || got.map({ $0.point.carried != ($0.published != day) }) == true
        {
          mismatches.append("\(day)")
        }
        checked += 1
      }
      expect(mismatches.isEmpty, "\(code): \(mismatches.prefix(10))")
    }
    expect(checked > 400_000)
  }

  /// The same walk through what `history` (every format), `history --date`
  /// and `convert --date` read offline: the desk's series of every day since
  /// 1999 for each currency, and the day each value was published.
  @Test func theDesksHistoryMatchesThePublicationsOnEveryDay() async throws {
    let snapshot = try snapshot()
    let directory = try scratch.folder()
    let desk = try desk(cacheDirectory: directory, mode: .offline)
    for code in snapshot.currencies.subtracting(["EUR"]).sorted() {
      let window = snapshot.firstDay...snapshot.lastDay
      let series = try await desk.history(base: "EUR", quote: code, window: window).series
      // Each point with its publication, in one pass (publishedDay's own
      // search is for one day at a time).
      var byDay: [Day: (rate: Double, published: Day?)] = [:]
      var lastOwn: Day?
      for point in series.points {
        if !point.carried { lastOwn = point.date }
        let published = point.carried ? lastOwn ?? series.publishedDay(of: point.date) : point.date
        byDay[point.date] = (point.rate, published)
      }
      var mismatches: [String] = []
      let last = RetiredCurrencies.lastDays[code] ?? snapshot.lastDay
      for (day, expected) in try publications(of: code, in: snapshot) where day <= last {
        let got = byDay[day]
        if got?.rate != expected?.rate || got.map({ $0.published != expected?.published }) == true {
          mismatches.append("\(day)")
        }
      }
      expect(mismatches.isEmpty, "\(code): \(mismatches.prefix(10))")
    }
  }

  /// A desk on `cacheDirectory` whose every request fails, at 2026-11-25.
  func desk(cacheDirectory: URL, mode: CacheMode) throws -> RateDesk {
    let url = try require(URL(string: "https://api.test/v1"))
    return RateDesk(
      configuration: .init(
        coinGeckoURL: url, coinGeckoKey: nil, coinDeskURL: url, frankfurterURL: url,
        forcedProvider: nil, cacheDirectory: cacheDirectory, mode: mode),
      transport: { _ in .unreachable }, now: { Date(timeIntervalSince1970: 1_795_608_000) },
      notify: { _ in })
  }

  @Test func theSnapshotAnswersTheSpecialClosuresFromTheDayBefore() throws {
    let snapshot = try snapshot()
    let today = try day("2100-01-01")
    for (asked, published) in [
      ("1999-12-31", "1999-12-30"), ("2000-01-01", "1999-12-30"), ("2000-01-02", "1999-12-30"),
      ("2001-12-31", "2001-12-28"), ("2002-01-01", "2001-12-28"), ("2025-12-20", "2025-12-19"),
      ("2025-04-21", "2025-04-17"), ("2025-05-01", "2025-04-30"),
    ] {
      let rate = snapshot.rate(base: "EUR", quote: "GBP", on: try day(asked), today: today)
      expectEqual(rate?.published, (try day(published)), "\(asked)")
      expectEqual(rate?.point.carried, true, "\(asked)")
      expectEqual(rate?.point.date, (try day(asked)))
    }
  }

  @Test func aWindowReachesBackToThePublicationStandingOnItsFirstDay() throws {
    for (first, reach) in [
      ("2025-12-20", "2025-12-19"), ("2025-05-01", "2025-04-30"), ("2025-04-18", "2025-04-17"),
      ("2025-04-21", "2025-04-17"), ("2000-01-01", "1999-12-30"), ("2025-12-22", "2025-12-22"),
    ] {
      expectEqual(MarketClosure.reach(back: try day(first)), (try day(reach)), "\(first)")
    }
  }

  @Test func aCarriedDayNamesItsPublicationEvenFromBeforeTheSeries() throws {
    let friday = try day("2025-12-19")
    let monday = try day("2025-12-22")
    let byDay = [friday: RatePoint(date: friday, rate: 0.876), monday: RatePoint(date: monday, rate: 0.874)]
    let points = MarketClosure.rates(in: friday.adding(days: 1)...monday, today: monday) { byDay[$0] }
    let series = RateSeries(
      base: "EUR", quote: "GBP", source: .provider(.frankfurter), fetchedAt: .distantPast, points: points)
    expectEqual(series.publishedDay(of: friday.adding(days: 1)), friday)
    expectEqual(series.publishedDay(of: friday.adding(days: 2)), friday)
    expectEqual(series.publishedDay(of: monday), monday)
    expectEqual(series.publishedDay(of: monday.adding(days: 1)), nil)
  }

  // MARK: - Currencies that ended

  @Test func theLastDaysOfACurrencyThatEndedComeFromTheSnapshotWithoutARequest() async throws {
    let directory = try scratch.folder()
    let stub = StubTransport(body: "{}")
    let url = try require(URL(string: "https://api.test/v1"))
    let desk = RateDesk(
      configuration: .init(
        coinGeckoURL: url, coinGeckoKey: nil, coinDeskURL: url, frankfurterURL: url,
        forcedProvider: nil, cacheDirectory: directory, mode: .normal),
      transport: { _ in stub.transport }, now: { Date(timeIntervalSince1970: 1_795_608_000) },
      notify: { _ in })
    let result = try await desk.history(base: "EUR", quote: "BGN", days: 7)
    expectEqual(result.series.points.last?.date, (try day("2025-12-31")))
    expectEqual(result.series.points.last?.rate, 1.9558)
    expectEqual(result.staleness, nil)
    expectEqual(RetiredCurrencies.lastDays["BGN"], (try day("2025-12-31")))
    expectEqual(RetiredCurrencies.lastDays["RUB"], (try day("2022-03-01")))
    expect(RetiredCurrencies.lastDays["USD"] == nil && RetiredCurrencies.lastDays["ISK"] == nil)
    #expect(throws: RetiredCurrencies.Ended.self) { try desk.route("USD", "BGN") }
    expectEqual(stub.requests.count, 0)
  }
}
