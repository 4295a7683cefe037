import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Fiat rates with no network and an empty cache: `convert`, `current` and
/// `history` answer from the ECB snapshot built into `rates`, marked as such.
@Suite struct SnapshotCommandTests {
  /// 2026-11-25 12:00 UTC, after the snapshot's last day.
  static let afterSnapshot = Date(timeIntervalSince1970: 1_795_608_000)

  func snapshot() throws -> ECBSnapshot { try require(ECBSnapshot.embedded) }

  /// JSON numbers keep about 15 significant digits.
  func close(_ value: Any?, _ expected: Double) -> Bool {
    guard let value = value as? Double else { return false }
    return abs(value - expected) <= 1e-12 * abs(expected)
  }

  func conversion(_ result: CommandResult) throws -> [String: Any] {
    try require((try result.json()["conversions"] as? [[String: Any]])?.first)
  }

  @Test func anOldDaysConversionWithoutNetworkIsThatDaysECBRateFromTheSnapshot() async throws {
    let snapshot = try snapshot()
    let rates = try CLIHarness(transport: .unreachable)
    let json = await rates.run(["convert", "100", "USD", "EUR", "--date", "2015-06-01", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    let conversion = try conversion(json)
    // The CSV row of 2015-06-01 has USD 1.0944 (per euro).
    expectEqual(conversion["rate"] as? Double, Figure.crossRate(1, per: 1.0944))
    expectEqual(conversion["amount"] as? Double, Figure.money(100 / 1.0944, code: "EUR"))
    expectEqual(conversion["rateDate"] as? String, "2015-06-01")
    expectEqual(conversion["source"] as? String, "ECB snapshot to \(snapshot.lastDay)")
    expectEqual(conversion["stale"] as? Bool, true)
    expectEqual(json.stderr.split(separator: "\n").count, 1)
    expectContains(json.stderr, "could not connect")
    expectContains(json.stderr, "end on \(snapshot.lastDay)")

    let text = await rates.run(["convert", "100", "USD", "EUR", "--date", "2015-06-01", "--offline"])
    expectEqual(text.status, 0, "\(text.stderr)")
    expectContains(text.stdout, "91.37 EUR  at  0.91374  ECB snapshot to \(snapshot.lastDay)  2015-06-01 (stale)")
    expectEqual(
      text.stderr,
      "note: offline; using the ECB reference rates built into rates (source: European Central Bank), which end on \(snapshot.lastDay) (stale)\n"
    )
  }

  @Test func todaysConversionWithoutNetworkUsesTheSnapshotsNewestDay() async throws {
    let snapshot = try snapshot()
    let rates = try CLIHarness(transport: .unreachable, clock: TestClock(now: Self.afterSnapshot))
    let result = await rates.run(["convert", "100", "USD", "EUR", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let conversion = try conversion(result)
    let newest = try require(
      snapshot.rate(base: "USD", quote: "EUR", on: snapshot.lastDay, today: snapshot.lastDay)?.point)
    expect(close(conversion["rate"], newest.rate))
    expectEqual(conversion["rateDate"] as? String, snapshot.lastDay.description)
    expectEqual(conversion["stale"] as? Bool, true)
    expectEqual(conversion["source"] as? String, snapshot.source.name)
  }

  @Test func currentFiatPairsOfflineWithAnEmptyCacheComeFromTheSnapshot() async throws {
    let snapshot = try snapshot()
    let result = try await CLIHarness.run(["current", "GBP-USD", "--offline", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expect(result.stdout.contains(#""source" : "\#(snapshot.source.name)""#))
    expect(result.stdout.contains(#""stale" : true"#))
    expectContains(result.stderr, "end on \(snapshot.lastDay)")
    // Its change is since the working day before, like any ECB rate.
    let text = try await CLIHarness.run(["current", "GBP-USD", "--offline"])
    expectContains(text.stdout, "% 1d")
  }

  @Test func historyOfAFiatPairOfflineIsTheSnapshotsDefaultWindow() async throws {
    let snapshot = try snapshot()
    let result = try await CLIHarness.run(["history", "GBP", "USD", "--offline", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let json = try result.json()
    expectEqual(json["source"] as? String, snapshot.source.name)
    expectEqual(json["stale"] as? Bool, true)
    let points = try require(json["points"] as? [[String: Any]])
    let today = Day(containing: fixedNow)
    expectEqual(points.count, 28)
    expectEqual(points.last?["date"] as? String, today.description)
    let own = snapshot.series(base: "GBP", quote: "USD", in: today.adding(days: -27)...today)
    let shown = points.filter { $0["carried"] as? Bool == false }.map { $0["rate"] }
    expectEqual(shown.count, own.count)
    expect(zip(shown, own).allSatisfy { close($0, $1.rate) })
  }

  @Test func historyAfterTheSnapshotEndsShowsItsLastDaysAndSaysSo() async throws {
    let snapshot = try snapshot()
    let rates = try CLIHarness(transport: .unreachable, clock: TestClock(now: Self.afterSnapshot))
    let result = await rates.run(["history", "GBP", "USD"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let first = snapshot.lastDay.adding(days: -27)
    expect(
      result.stdout.hasPrefix(
        "GBP/USD  28 days  \(first) to \(snapshot.lastDay)  \(snapshot.source.name)  stale: built-in ECB rates to \(snapshot.lastDay)"
      ))
    expect(
      result.stderr.contains(
        "note: the ECB snapshot built into rates has no GBP/USD data after \(snapshot.lastDay); showing the 28 days up to it"
      ))
  }

  /// A range the user named is never moved: after the snapshot's last day
  /// (and the closures its rate stands on) its days are gaps, and no day before `--from` is shown.
  @Test func aNamedRangeIsNotMovedWhenTheSnapshotEndsInIt() async throws {
    let snapshot = try snapshot()
    let rates = try CLIHarness(transport: .unreachable, clock: TestClock(now: Self.afterSnapshot))
    let from = snapshot.lastDay.adding(days: -2)
    let result = await rates.run(["history", "GBP", "USD", "--from", from.description, "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let points = try require(try result.json()["points"] as? [[String: Any]])
    expectEqual(points.first?["date"] as? String, from.description)
    let dated = points.filter { $0["rate"] is Double }.compactMap { $0["date"] as? String }
    // The snapshot's last rate stands on the weekend right after it, never on a later working day.
    expectEqual(dated.last, MarketClosure.standsThrough(snapshot.lastDay).description, "\(dated)")
    expect(!result.stderr.contains("showing the"), "\(result.stderr)")
  }

  @Test func anOldDateOnlineAsksFrankfurterForThatWeekOnly() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["convert", "100", "USD", "EUR", "--date", "2015-06-06", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(server.requestCount, 1)
    let conversion = try conversion(result)
    let friday = try require(Day("2015-06-05"))
    expectEqual(conversion["rateDate"] as? String, "2015-06-05")
    expectEqual(conversion["source"] as? String, "frankfurter")
    expectEqual(conversion["stale"] as? Bool, false)
    let rate = try require(conversion["rate"] as? Double)
    expect(abs(rate - FakeFrankfurter.rate(base: "USD", quote: "EUR", day: friday)) < 1e-9)
  }

  /// Coins have no snapshot: unreachable, a coin conversion of today or of
  /// an old day fails as unavailable, never with a snapshot answer.
  @Test func coinsHaveNoSnapshot() async throws {
    let offline = try await CLIHarness.run(["convert", "1", "BTC", "EUR"])
    expectEqual(offline.status, 69, "\(offline.stderr)")
    let old = try await CLIHarness.run(["convert", "1", "BTC", "EUR", "--date", "2015-06-01"])
    expectEqual(old.status, 69, "\(old.stderr)")
    expect(!old.stderr.contains("snapshot"))
  }
}
