import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `history` and `stats` with `--interval hourly`, against the fake CoinGecko
/// at `fixedNow` (2024-06-10 06:13:20 UTC): CoinGecko's automatic hourly
/// granularity, in every output.
@Suite struct HourlyHistoryTests {
  @Test func jsonHasTimestampedPointsAndProvenanceFromOneCachedRequest() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "BTC", "EUR", "--days", "3", "--interval", "hourly", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let json = try result.json()
    expectEqual(json["interval"] as? String, "hourly")
    expectEqual(json["source"] as? String, "coingecko")
    expectEqual(json["stale"] as? Bool, false)
    expectEqual(json["fetchedAt"] as? String, "2024-06-10T06:13:20Z")
    let points = try require(json["points"] as? [[String: Any]])
    // 2024-06-08 00:00 to now (06:13): 54 hours and the "now" point.
    expectEqual(points.count, 55)
    expectEqual((points.first?["time"] as? String)?.hasPrefix("2024-06-08T00:"), true)
    expectEqual(points.last?["time"] as? String, "2024-06-10T06:13:20Z")
    expect(points.allSatisfy { $0["rate"] is Double && ($0["time"] as? String)?.hasSuffix("Z") == true })
    let stats = try require(json["stats"] as? [String: Any])
    expectEqual(stats["firstTime"] as? String, points.first?["time"] as? String)
    expectEqual(stats["lastTime"] as? String, "2024-06-10T06:13:20Z")
    expectEqual(stats["count"] as? Int, 55)
    let request = try require(server.requests.first)
    expectEqual(request.path, "/api/v3/coins/bitcoin/market_chart")
    expect(request.query["days"] == "3" && request.query["interval"] == nil)
    let count = server.requestCount
    let again = await rates.run(["history", "BTC", "EUR", "--days", "3", "--interval", "hourly"])
    expectEqual(again.status, 0, "\(again.stderr)")
    expectEqual(server.requestCount, count, "a fresh hourly answer is cached")
    let daily = await rates.run(["history", "BTC", "EUR", "--days", "3", "--json"])
    expectEqual(daily.status, 0, "\(daily.stderr)")
    expectEqual(server.requests.last?.query["interval"], "daily", "hourly points never stand in for days")
  }

  @Test func anOlderCachedAnswerServesOfflineMarkedStale() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let arguments = ["history", "BTC", "EUR", "--days", "2", "--interval", "hourly", "--json"]
    let first = try await rates.run(arguments).json()
    server.clock.advance(by: 600)
    let count = server.requestCount
    let offline = await rates.run(arguments + ["--offline"])
    expectEqual(offline.status, 0, "\(offline.stderr)")
    let json = try offline.json()
    expectEqual(json["stale"] as? Bool, true)
    expectEqual(json["fetchedAt"] as? String, first["fetchedAt"] as? String)
    expectEqual((json["points"] as? [Any])?.count, (first["points"] as? [Any])?.count)
    expectEqual(server.requestCount, count)
    let refetched = try await rates.run(arguments).json()
    expectEqual(refetched["stale"] as? Bool, false, "after 5 minutes the entry is refetched")
    expectEqual(server.requestCount, count + 1)
  }

  @Test(arguments: [
    (["history", "GBP", "USD", "--interval", "hourly"], "ECB rates are daily"),
    (["stats", "EUR", "USD", "--interval", "hourly"], "ECB rates are daily"),
    (["history", "BTC", "USD", "--days", "91", "--interval", "hourly"], "reaches back 90 days"),
    (["history", "BTC", "USD", "--from", "2024-01-01", "--interval", "hourly"], "reaches back 90 days"),
    (["history", "BTC", "USD", "--date", "2024-06-01", "--interval", "hourly"], "cannot be used with --date"),
    (["history", "BTC", "USD", "--interval", "minutely"], "expected daily, hourly"),
    (["stats", "BTC", "USD", "--ledger", "--interval", "hourly"], "cannot be used with --ledger"),
  ])
  func refusalsAreUsageErrorsBeforeAnyRequest(arguments: [String], message: String) async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(arguments)
    expectEqual(result.status, 64)
    expectContains(result.stderr, message, "\(result.stderr)")
    expectEqual(server.requestCount, 0)
  }

  @Test func beancountIsRefusedBecauseItsPricesHaveNoTime() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run([
      "history", "BTC", "EUR", "--days", "2", "--interval", "hourly", "--format", "beancount",
    ])
    expectEqual(result.status, 64)
    expectContains(result.stderr, "beancount price directives have a date but no time")
    expect(result.stdout.isEmpty)
  }

  @Test func csvAndLedgerCarryEachPointsTimeAndTheJSONValues() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let arguments = ["history", "ETH", "USD", "--days", "2", "--interval", "hourly"]
    let json = try await rates.run(arguments + ["--json"]).json()
    let points = try require(json["points"] as? [[String: Any]])
    let csv = await rates.run(arguments + ["--format", "csv"])
    expectEqual(csv.status, 0, "\(csv.stderr)")
    let rows = csv.stdout.split(whereSeparator: \.isNewline).map(String.init)
    expectEqual(rows.first, "time,base,quote,rate,source")
    expectEqual(rows.count, points.count + 1)
    let first =
      "\(points[0]["time"] as? String ?? ""),ETH,USD,\(DecimalText.shortest(points[0]["rate"] as? Double ?? 0) ?? ""),coingecko"
    expectEqual(rows.dropFirst().first, first)
    let ledger = await rates.run(arguments + ["--format", "ledger"])
    expectEqual(ledger.status, 0, "\(ledger.stderr)")
    let lines = ledger.stdout.split(separator: "\n").map(String.init)
    expectEqual(lines.count, points.count)
    expectEqual(
      lines.last, "P 2024-06-10 06:13:20 ETH \(DecimalText.shortest(points.last?["rate"] as? Double ?? 0) ?? "") USD")
    expect(lines.allSatisfy { $0.wholeMatch(of: /P \d{4}-\d\d-\d\d \d\d:\d\d:\d\d ETH [0-9.e-]+ USD/) != nil })
  }

  @Test func tableSparklineChartAndStatsLabelHours() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let base = ["BTC", "USD", "--interval", "hourly"]
    let table = await rates.run(["history"] + base + ["--days", "2", "--table"])
    expectEqual(table.status, 0, "\(table.stderr)")
    expectContains(table.stdout, "TIME (UTC)")
    expectContains(table.stdout, "2024-06-10 06:13")
    expect(table.stdout.contains("first ") && table.stdout.contains("2024-06-09 00:"))
    let sparkline = await rates.run(["history"] + base + ["--days", "90"])
    expectEqual(sparkline.status, 0, "\(sparkline.stderr)")
    expect(sparkline.stdout.contains(/1 column ≈ \d+ h/), "\(sparkline.stdout)")
    let chart = await rates.run(["history"] + base + ["--days", "7", "--chart"])
    expect(chart.stdout.contains(/1 column ≈ \d+\.\d h/), "\(chart.stdout)")
    let stats = await rates.run(["stats"] + base + ["--days", "7"])
    expectEqual(stats.status, 0, "\(stats.stderr)")
    expectContains(stats.stdout, "hourly points")
    expect(stats.stdout.contains("last ") && stats.stdout.contains("2024-06-10 06:13"))
  }
}
