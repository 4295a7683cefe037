import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// A series filled from two sources (Coinbase candles before CoinGecko's free plan reaches,
/// CoinGecko's stored days since) names both, with their days, in text, JSON and CSV, each
/// day by the source stored with it.
@Suite struct SeriesProvenanceTests {
  @Test func aHistorySpanningCoinbaseAndCoinGeckoNamesBothWithTheirDays() async throws {
    let (rates, server) = try CoinFallbackTests.harness(ReplySwitch())
    let today = Day(containing: rates.clock.now)
    let recent = await rates.run(["history", "BTC", "USD", "--days", "30", "--json"])
    expectEqual(recent.status, 0, "\(recent.stderr)")
    let from = today.adding(days: -399)
    let seam = today.adding(days: -30)
    let range = ["history", "BTC", "USD", "--from", from.description]

    let long = await rates.run(range + ["--json"])
    expectEqual(long.status, 0, "\(long.stderr)")
    let document = try long.json()
    expectEqual(document["source"] as? String, "coingecko", "the newest days' source")
    let spans = try require(document["sources"] as? [[String: String]])
    expectEqual(
      spans,
      [
        ["source": "coinbase", "firstDay": from.description, "lastDay": seam.description],
        ["source": "coingecko", "firstDay": seam.adding(days: 1).description, "lastDay": today.description],
      ])
    let points = try require(document["points"] as? [[String: Any]])
    expectEqual(points.count, 400)
    let sources = points.map { point -> String in
      let day = (point["date"] as? String).flatMap(Day.init) ?? today
      let expected = day <= seam ? "coinbase" : "coingecko"
      return point["source"] as? String == expected ? "ok" : "\(day): \(point["source"] ?? "none")"
    }
    expect(sources.allSatisfy { $0 == "ok" }, "\(sources.filter { $0 != "ok" }.prefix(3))")
    let asked = server.requestCount

    // Read back from the day store: the stored days keep their sources.
    let text = await rates.run(range)
    expectEqual(text.status, 0, "\(text.stderr)")
    let header = text.stdout.split(separator: "\n").first.map(String.init) ?? ""
    expect(header.hasSuffix("Coinbase Exchange \(from)\u{2013}\(seam), CoinGecko since"), "\(header)")
    let csv = await rates.run(range + ["--format", "csv"])
    let rows = csv.stdout.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
    expectEqual(rows.count, 400)
    let wrong = rows.filter { row in
      let day = Day(String(row.prefix(10))) ?? today
      return !row.hasSuffix(day <= seam ? ",coinbase" : ",coingecko")
    }
    expect(wrong.isEmpty, "\(wrong.prefix(3))")
    expectEqual(server.requestCount, asked, "answered by the store")
  }

  @Test func aSeriesFromOneSourceHasNoPerPointSource() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "BTC", "USD", "--days", "7", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let document = try result.json()
    expect(document["sources"] == nil)
    let points = try require(document["points"] as? [[String: Any]])
    expect(points.allSatisfy { $0["source"] == nil })
    let text = await rates.run(["history", "BTC", "USD", "--days", "7"])
    expectEqual(text.stdout.split(separator: "\n").first?.hasSuffix("  CoinGecko"), true, "\(text.stdout)")
  }
}
