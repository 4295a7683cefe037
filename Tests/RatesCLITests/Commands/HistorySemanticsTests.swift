import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// What `history` shows for days without a value, the dates beside each
/// figure, and a partial answer, in text, `--table` and `--json`.
@Suite struct HistorySemanticsTests {
  static let sunday = ISO8601DateFormatter().date(from: "2024-06-09T12:00:00Z") ?? fixedNow

  @Test func lastIsPairedWithTheDayItWasPublishedFor() async throws {
    // Sunday: Friday's ECB rate stands over the weekend; its own day is Friday.
    let (rates, server) = try CLIHarness.withFakeAPI(now: Self.sunday)
    let json = try await rates.run(["history", "GBP", "USD", "--days", "4", "--json"]).json()
    expectEqual(server.requestCount, 1, "Friday's rate is today's: no second request")
    let stats = try require(json["stats"] as? [String: Any])
    expectEqual(stats["lastDate"] as? String, "2024-06-07")
    expectEqual(stats["firstDate"] as? String, "2024-06-06")
    let points = try require(json["points"] as? [[String: Any]])
    expectEqual(stats["last"] as? Double, points[1]["rate"] as? Double)

    for layout in [[], ["--table"], ["--chart"]] {
      let text = await rates.run(["history", "GBP", "USD", "--days", "4"] + layout)
      expectEqual(text.status, 0, "\(text.stderr)")
      let last = try require(text.stdout.split(separator: "\n").first { $0.hasPrefix("  last") })
      expect(last.hasSuffix("2024-06-07"), "\(layout): \(last)")
      expect(!last.contains("2024-06-09"), "\(layout)")
    }
  }

  @Test func aWindowStartingOnAWeekendCarriesFridaysRateIntoItsFirstDays() async throws {
    // Monday 2024-06-10 after the ECB's publication: a 3-day window starts on
    // Saturday; Friday's rate, just before it, stands on Saturday and Sunday.
    let (rates, server) = try CLIHarness.withFakeAPI(now: fixedNow.addingTimeInterval(12 * 3_600))
    let json = try await rates.run(["history", "GBP", "USD", "--days", "3", "--json"]).json()
    expectEqual(server.requests.first?.path.hasPrefix("/frankfurter/2024-06-07.."), true)
    let points = try require(json["points"] as? [[String: Any]])
    expectEqual(points.map { $0["date"] as? String }, ["2024-06-08", "2024-06-09", "2024-06-10"])
    let friday = FakeFrankfurter.rate(base: "GBP", quote: "USD", day: try require(Day("2024-06-07")))
    expectEqual(points[0]["rate"] as? Double, friday)
    expectEqual(points[1]["rate"] as? Double, friday)
    expectEqual(points.map { $0["carried"] as? Bool }, [true, true, false])
    expect(points[2]["rate"] as? Double != nil)
    let stats = try require(json["stats"] as? [String: Any])
    expectEqual(stats["count"] as? Int, 1)
    expectEqual(stats["firstDate"] as? String, "2024-06-10")

    let table = await rates.run(["history", "GBP", "USD", "--days", "3", "--table"])
    let saturday = try require(table.stdout.split(separator: "\n").first { $0.hasPrefix("2024-06-08") })
    expect(!saturday.contains("no rate"), "\(saturday)")
    let first = try require(table.stdout.split(separator: "\n").first { $0.hasPrefix("  first") })
    expect(first.hasSuffix("2024-06-10"), "\(first)")
    expect(!table.stdout.contains("have no rate"))
  }

  @Test func closesAreShownAndCachedWhenTodaysPriceFailsOnEveryRun() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI { fake in
      { request in
        request.path.contains("currentprice") ? .text("down", status: 503) : fake(request)
      }
    }
    let today = Day(containing: fixedNow).description
    var outputs: [String] = []
    for run in 1...2 {
      let result = await rates.run(["history", "BTC", "EUR", "--provider", "coindesk", "--days", "5", "--json"])
      expectEqual(result.status, 0, "run \(run): \(result.stderr)")
      expectContains(result.stderr, "warning: today's BTC/EUR price did not arrive", "run \(run)")
      let json = try result.json()
      expectEqual(json["missingToday"] as? Bool, true, "run \(run)")
      expectEqual(json["stale"] as? Bool, false, "run \(run)")
      let points = try require(json["points"] as? [[String: Any]])
      expectEqual(points.count, 5, "run \(run)")
      expectEqual(points.last?["date"] as? String, today, "run \(run)")
      expect(points.last?["rate"] is NSNull, "run \(run)")
      expect(points.dropLast().allSatisfy { $0["rate"] as? Double != nil }, "run \(run)")
      // fetchedAt follows the clock, which the retries' waits move on.
      outputs.append(
        result.stdout.split(separator: "\n").filter { !$0.contains("fetchedAt") }.joined(separator: "\n"))
    }
    expectEqual(outputs[0], outputs[1], "the second run answers like the first")
    let closeRequests = server.requests.filter { $0.path.contains("historical") }
    expectEqual(closeRequests.count, 1, "the closes were cached by the first run")
  }
}
