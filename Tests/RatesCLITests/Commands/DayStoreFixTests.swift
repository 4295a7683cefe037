import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The day store and the day rate through the commands, after the hostile review of issue 22:
/// the snapshot answers offline the days the store lacks, the snapshot's last rate stands on
/// the weekend after it, days past it say to go online, left-out days are visible in `cache`
/// and `cache verify`, and the "only N of M days" note counts from the source's first day.
@Suite struct DayStoreFixTests {
  /// 2026-11-25 12:00 UTC, after the snapshot's last day.
  static let now = Date(timeIntervalSince1970: 1_795_608_000)

  func snapshot() throws -> ECBSnapshot { try require(ECBSnapshot.embedded) }

  @Test func offlineTheSnapshotAnswersDaysTheStoreLacks() async throws {
    let (cli, server) = try CLIHarness.withFakeAPI(now: Self.now)
    defer { try? FileManager.default.removeItem(at: cli.home) }
    let online = await cli.run(["history", "EUR", "GBP", "--from", "2025-06-02", "--to", "2025-06-06"])
    expectEqual(online.status, 0, "\(online.stderr)")
    let requests = server.requestCount
    for arguments in [
      ["history", "EUR", "GBP", "--from", "2025-07-01", "--to", "2025-07-02", "--offline", "--json"],
      ["convert", "1", "EUR", "GBP", "--date", "2025-07-02", "--offline"],
      ["history", "EUR", "GBP", "--date", "2025-07-01", "--offline"],
    ] {
      let result = await cli.run(arguments)
      expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
      expect(!result.stderr.contains("has no data"), "\(arguments)")
    }
    expectEqual(server.requestCount, requests, "nothing asked offline")
  }

  @Test func offlineTheSnapshotsLastRateStandsOnTheWeekendAfterIt() async throws {
    let last = try snapshot().lastDay
    let saturday = last.adding(days: 1)
    try require(MarketClosure.isECBClosed(saturday) && MarketClosure.isECBClosed(saturday.adding(days: 1)))
    let cli = try CLIHarness(transport: .unreachable, clock: TestClock(now: Self.now))
    defer { try? FileManager.default.removeItem(at: cli.home) }
    for day in [saturday, saturday.adding(days: 1)] {
      let result = await cli.run(["convert", "1", "EUR", "GBP", "--date", "\(day)", "--offline"])
      expectEqual(result.status, 0, "\(day): \(result.stderr)")
    }
    // A working day past the snapshot: one message, whatever the command.
    let monday = saturday.adding(days: 2)
    for arguments in [
      ["history", "EUR", "GBP", "--date", "\(monday)", "--offline"],
      ["convert", "1", "EUR", "GBP", "--date", "\(monday)", "--offline"],
      ["history", "EUR", "GBP", "--from", "\(monday)", "--to", "\(monday.adding(days: 10))", "--offline"],
    ] {
      let result = await cli.run(arguments)
      expectEqual(result.status, 66, "\(arguments)")
      expectContains(result.stderr, "no cached data for EUR/GBP: run without --offline")
    }
  }

  @Test func cacheShowsLeftOutDaysAndVerifyAsksForThem() async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    defer { try? FileManager.default.removeItem(at: cli.home) }
    expectEqual(await cli.run(["history", "GBP", "USD", "--days", "10"]).status, 0)
    let store = DayStore(directory: cli.home.appendingPathComponent("cache/rates"))
    let key = "frankfurter/gbp-usd"
    let clean = store.load(key: key).0
    let day = try require(clean.values.dropFirst().first?.day)
    // An answer left the day out (a merge never replaces a value with that: write it over).
    var leftOut = clean
    leftOut.setLeftOut(day, count: 1, from: DayStore.Fetch(provider: "frankfurter", fetchedAt: fixedNow))
    try AtomicFile.write(DayStore.encode(leftOut), to: store.fileURL(key: key), durable: false)
    let info = await cli.run(["cache", "--json"])
    let days = try require(try info.json()["days"] as? [[String: Any]])
    expectEqual(days.first?["leftOut"] as? Int, 1)
    expect((await cli.run(["cache"])).stdout.contains("LEFT OUT"))
    let found = await cli.run(["cache", "verify"])
    expectEqual(found.status, 2, "\(found.stdout)")
    expectContains(found.stdout, "\(day)  left out")
    let fixed = await cli.run(["cache", "verify", "GBP-USD", "--fix", "--json"])
    expectEqual(fixed.status, 0)
    expectContains(fixed.stdout, "\"storedLeftOut\" : true")
    expectEqual(store.load(key: key).0.value(day), clean.value(day))
  }

  @Test func theNoteCountsFromTheSourcesFirstDay() async throws {
    let (cli, _) = try CLIHarness.withFakeAPI(now: Self.now)
    defer { try? FileManager.default.removeItem(at: cli.home) }
    let result = await cli.run(["history", "EUR", "GBP", "--from", "0000-01-01", "--to", "1999-01-20"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expect(!result.stderr.contains("730"), "\(result.stderr)")
  }
}
