import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The one rule for "the ECB rate on a day" through the commands: a range
/// starting on a closure, `history --date` and `convert --date` agreeing on
/// the special closures, currencies that ended, and requests refused before
/// anything is asked.
@Suite struct ECBDayRuleCommandTests {
  /// 2026-11-25 12:00 UTC, after the snapshot's last day.
  static let now = Date(timeIntervalSince1970: 1_795_608_000)
  static let farFuture = Day("2100-01-01")!

  func snapshot() throws -> ECBSnapshot { try require(ECBSnapshot.embedded) }

  func day(_ text: String) throws -> Day { try require(Day(text)) }

  /// JSON numbers keep about 15 significant digits.
  func close(_ value: Any?, _ expected: Double?) -> Bool {
    guard let value = value as? Double, let expected else { return false }
    return abs(value - expected) <= 1e-12 * abs(expected)
  }

  // MARK: - A range starting on a closure

  static let closureStarts = [
    ("2025-12-20", "2026-01-05", "2025-12-19", ["2025-12-20", "2025-12-21"]),
    ("2025-05-01", "2025-05-06", "2025-04-30", ["2025-05-01"]),
    ("2025-04-18", "2025-04-25", "2025-04-17", ["2025-04-18", "2025-04-19", "2025-04-20", "2025-04-21"]),
    ("2000-01-01", "2000-01-07", "1999-12-30", ["2000-01-01", "2000-01-02"]),
  ]

  @Test(arguments: closureStarts)
  func aRangeStartingOnAClosureCarriesThePublicationBeforeIt(
    from: String, to: String, published: String, carried: [String]
  ) async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(now: Self.now)
    let result = await rates.run(["history", "EUR", "GBP", "--from", from, "--to", to, "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    // A day past `to` (AnswerGate's margin).
    expectEqual(server.requests.first?.path, "/frankfurter/\(published)..\(try day(to).adding(days: 1))")
    let points = try require(try result.json()["points"] as? [[String: Any]])
    expectEqual(points.first?["date"] as? String, from)
    let expected = FakeFrankfurter.rate(base: "EUR", quote: "GBP", day: try day(published))
    for (point, date) in zip(points, carried) {
      expectEqual(point["date"] as? String, date)
      expect(close(point["rate"], expected), "\(date)")
      expectEqual(point["carried"] as? Bool, true)
    }
    expectEqual(points[carried.count]["carried"] as? Bool, false)
  }

  @Test func aRefreshReadsThePublicationBeforeTheRangeToo() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(now: Self.now)
    let result = await rates.run(
      ["history", "EUR", "GBP", "--from", "2025-12-20", "--to", "2026-01-05", "--refresh", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(server.requests.map(\.path), ["/frankfurter/2025-12-19..2026-01-06"])
    let points = try require(try result.json()["points"] as? [[String: Any]])
    expectEqual(points.first?["carried"] as? Bool, true)
  }

  @Test(arguments: closureStarts)
  func offlineTheSnapshotCarriesThemAlike(
    from: String, to: String, published: String, carried: [String]
  ) async throws {
    let rates = try CLIHarness(transport: .unreachable, clock: TestClock(now: Self.now))
    let result = await rates.run(
      ["history", "EUR", "GBP", "--from", from, "--to", to, "--json", "--offline"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let points = try require(try result.json()["points"] as? [[String: Any]])
    let expected = try snapshot().rate(
      base: "EUR", quote: "GBP", on: try day(published), today: Self.farFuture)
    expectEqual(points.first?["date"] as? String, from)
    for (point, date) in zip(points, carried) {
      expectEqual(point["date"] as? String, date)
      expect(close(point["rate"], expected?.point.rate), "\(date)")
      expectEqual(point["carried"] as? Bool, true)
    }
  }

  // MARK: - history --date and convert --date

  /// Days around the special closures and the TARGET holidays, and 1999's
  /// Easter (a working day then).
  static let sampleDays = [
    "1999-01-04", "1999-04-02", "1999-12-30", "1999-12-31", "2000-01-01", "2000-01-02",
    "2000-01-03", "2001-12-28", "2001-12-31", "2002-01-01", "2015-06-07", "2025-04-18",
    "2025-04-21", "2025-05-01", "2025-12-20", "2025-12-21", "2025-12-26",
  ]

  @Test(arguments: [("EUR", "GBP"), ("USD", "JPY")])
  func historyDateAndConvertDateAgreeWithTheRule(base: String, quote: String) async throws {
    let snapshot = try snapshot()
    let rates = try CLIHarness(transport: .unreachable, clock: TestClock(now: Self.now))
    for text in Self.sampleDays {
      let expected = try require(
        snapshot.rate(base: base, quote: quote, on: try day(text), today: Self.farFuture))
      let history = await rates.run(["history", base, quote, "--date", text, "--json"])
      expectEqual(history.status, 0, "\(text): \(history.stderr)")
      let lookup = try history.json()
      expect(close(lookup["rate"], expected.point.rate), "\(text)")
      expectEqual(lookup["rateDate"] as? String, expected.published.description, "\(text)")
      let convert = await rates.run(["convert", "1", base, quote, "--date", text, "--json"])
      expectEqual(convert.status, 0, "\(text): \(convert.stderr)")
      let conversion = try require((try convert.json()["conversions"] as? [[String: Any]])?.first)
      expect(close(conversion["rate"], expected.point.rate), "\(text)")
      expectEqual(conversion["rateDate"] as? String, expected.published.description, "\(text)")
    }
  }

  @Test func newYear2000AnswersTheRateOf1999December30() async throws {
    let rates = try CLIHarness(transport: .unreachable, clock: TestClock(now: Self.now))
    let result = await rates.run(["history", "EUR", "USD", "--date", "2000-01-01"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectContains(result.stdout, "rate of Thursday 1999-12-30")
  }

  // MARK: - Currencies that ended

  @Test func aRetiredCurrencyIsServedForItsDaysWithoutARequest() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(now: Self.now)
    let result = await rates.run(["history", "CYP", "EUR", "--date", "2005-06-01", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let expected = try snapshot().rate(
      base: "CYP", quote: "EUR", on: try day("2005-06-01"), today: Self.farFuture)
    expect(close(try result.json()["rate"], expected?.point.rate))
    // A range crossing its last day stops there.
    let range = await rates.run(
      ["history", "EUR", "RUB", "--from", "2022-02-20", "--to", "2022-03-10", "--json"])
    expectEqual(range.status, 0, "\(range.stderr)")
    let points = try require(try range.json()["points"] as? [[String: Any]])
    expectEqual(points.last?["date"] as? String, "2022-03-01")
    expectEqual(
      range.stderr,
      "note: RUB: the ECB's last rate is 2022-03-01 (the ECB suspended it); showing the days "
        + "up to it\n")
    let convert = await rates.run(["convert", "100", "CYP", "EUR", "--date", "2005-06-01"])
    expectEqual(convert.status, 0, "\(convert.stderr)")
    expect(convert.stdout.hasPrefix("100.00 CYP\n"), "an amount of money, not of a coin")
    expectEqual(server.requestCount, 0)
  }

  @Test(arguments: [
    (["history", "EUR", "BGN"], "BGN: the ECB's last rate is 2025-12-31 (Bulgaria adopted the euro); "),
    (["history", "BGN", "USD", "--offline"], "BGN: the ECB's last rate is 2025-12-31 (Bulgaria adopted the euro); "),
    (["history", "EUR", "BGN", "--date", "2026-01-01"], "BGN: the ECB's last rate is 2025-12-31 "),
    (["convert", "100", "EUR", "HRK"], "HRK: the ECB's last rate is 2022-12-30 (Croatia adopted the euro); "),
    (["stats", "EUR", "RUB"], "RUB: the ECB's last rate is 2022-03-01 (the ECB suspended it); "),
    (["pairs", "add", "USD", "BGN"], "BGN: the ECB's last rate is 2025-12-31 (Bulgaria adopted the euro); "),
    (
      ["convert", "1", "ROL", "EUR", "--date", "2010-01-04"], "ROL: the ECB's last rate is 2005-06-30 (replaced by RON"
    ),
  ])
  func afterItsLastDayARetiredCurrencySaysSoInOneLine(arguments: [String], message: String)
    async throws
  {
    let (rates, server) = try CLIHarness.withFakeAPI(now: Self.now)
    let result = await rates.run(arguments)
    expectEqual(result.status, 66)
    expect(result.stderr.hasPrefix("error: \(message)"), "\(result.stderr)")
    expectEqual(result.stderr.split(separator: "\n").count, 1)
    expect(!result.stderr.contains("CoinGecko") && !result.stderr.contains("--offline"))
    expectEqual(server.requestCount, 0)
    if arguments.first == "pairs" {
      expect(!(await rates.run(["pairs", "list"])).stdout.contains("BGN"))
    }
  }

  @Test func aPairAddedBeforeItsCurrencyEndedShowsItsLastRate() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(now: Self.now)
    let data = rates.home.appendingPathComponent("data/rates")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let pairs =
      #"{"version":1,"pairs":[{"base":"EUR","quote":"BGN","addedAt":"2025-06-01T00:00:00Z"},"#
      + #"{"base":"GBP","quote":"USD","addedAt":"2025-06-01T00:00:00Z"}]}"#
    try Data(pairs.utf8).write(to: data.appendingPathComponent("pairs.json"))
    let result = await rates.run(["pairs", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let text = result.stdout
    expect(text.contains("EUR-BGN") || text.contains("\"BGN\""), "\(text)")
    let expected = try snapshot().rate(
      base: "EUR", quote: "BGN", on: try day("2025-12-31"), today: Self.farFuture)
    expect(text.contains("1.9558") && expected?.point.rate == 1.9558, "\(text)")
    expect(!server.requests.contains { $0.query.values.contains { $0.contains("BGN") } })
  }

  // MARK: - Validate before asking

  @Test(arguments: [
    (
      ["history", "EUR", "USD", "--from", "1900-01-01", "--to", "1900-12-31"],
      "error: no ECB rates from 1900-01-01 to 1900-12-31: the ECB's rates start on 1999-01-04"
    ),
    (
      ["stats", "GBP", "USD", "--from", "1900-01-01", "--to", "1900-12-31"],
      "error: no ECB rates from 1900-01-01 to 1900-12-31: the ECB's rates start on 1999-01-04"
    ),
    (["history", "EUR", "USD", "--date", "1900-01-01"], "error: no ECB rates on 1900-01-01: "),
    (["convert", "1", "EUR", "USD", "--date", "1998-12-31"], "error: no ECB rates on 1998-12-31: "),
    (
      ["history", "BTC", "EUR", "--interval", "hourly", "--format", "beancount"],
      "error: beancount price directives have a date but no time"
    ),
    // One rule for a day after today (RateCore's Day.futureProblem), in every command.
    (
      ["convert", "1", "EUR", "USD", "--date", "2026-11-26"],
      "error: --date 2026-11-26 is in the future: use 2026-11-25 or an earlier day"
    ),
    (
      ["convert", "1", "BTC", "ETH", "--date", "2026-11-26"],
      "error: --date 2026-11-26 is in the future: use 2026-11-25 or an earlier day"
    ),
    (
      ["history", "EUR", "USD", "--date", "2026-11-26"],
      "error: --date 2026-11-26 is in the future: use 2026-11-25 or an earlier day"
    ),
  ])
  func aRequestThatCanOnlyFailIsRefusedBeforeAsking(arguments: [String], message: String)
    async throws
  {
    let (rates, server) = try CLIHarness.withFakeAPI(now: Self.now)
    let result = await rates.run(arguments)
    expectEqual(result.status, 64)
    expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    expectEqual(server.requestCount, 0)
  }
}
