import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `history` in process against the fake APIs at a fixed time: requests, caching,
/// providers, `--days`, `--offline`, untrusted text. (EndToEndTests/WiringEndToEndTests
/// runs it once through the binary, over a socket.)
@Suite struct HistoryCommandTests {
  @Test func historyIsOneRequestColdAndNoneWarm() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()

    let cold = await rates.run(["history", "BTC", "EUR"])
    expectEqual(cold.status, 0, "\(cold.stderr)")
    expectContains(cold.stdout, "BTC/EUR")
    expectContains(cold.stdout, "28 days")
    expect(!cold.stdout.contains("\u{1B}["), "no colour when stdout is a pipe")
    expectEqual(server.requestCount, 1)
    let request = try require(server.requests.first)
    expectEqual(request.path, "/api/v3/coins/bitcoin/market_chart")
    expectEqual(request.query["vs_currency"], "eur")
    expectEqual(request.query["interval"], "daily")
    expectEqual(request.headers["user-agent"], "rates/\(RatesVersion.current)")

    let warm = await rates.run(["history", "BTC", "EUR", "--json"])
    expectEqual(warm.status, 0)
    expectEqual(server.requestCount, 1, "a warm cache answers without a request")
    let json = try warm.json()
    expectEqual(json["base"] as? String, "BTC")
    expectEqual(json["quote"] as? String, "EUR")
    expectEqual(json["source"] as? String, "coingecko")
    expectEqual(json["stale"] as? Bool, false)
    expectEqual((json["fetchedAt"] as? String)?.hasSuffix("Z"), true)
    let points = try require(json["points"] as? [[String: Any]])
    expectEqual(points.count, 28)
    let today = Day(containing: fixedNow)
    expectEqual(points.last?["date"] as? String, today.description)
    expectEqual(points.last?["rate"] as? Double, FakeCoinGecko.nowValue(id: "bitcoin", currency: "eur"))
    // A past day's value is the point stamped at the next midnight.
    let firstDay = today.adding(days: -27)
    expectEqual(points.first?["date"] as? String, firstDay.description)
    expectEqual(
      points.first?["rate"] as? Double,
      FakeCoinGecko.dailyValue(id: "bitcoin", currency: "eur", day: firstDay.adding(days: 1)))
    let stats = try require(json["stats"] as? [String: Any])
    expectEqual(stats["count"] as? Int, 28)
    for key in [
      "min", "minDate", "max", "maxDate", "mean", "median", "stddev", "first", "last",
      "change", "changePercent",
    ] {
      expect(stats[key] != nil, "stats.\(key)")
    }
  }

  @Test func coinDeskFormatWorksForBitcoinOnly() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "BTC", "EUR", "--provider", "coindesk", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let json = try result.json()
    expectEqual(json["source"] as? String, "coindesk")
    let points = try require(json["points"] as? [[String: Any]])
    expectEqual(points.count, 28)
    let yesterday = Day(containing: fixedNow).adding(days: -1)
    expectEqual(points.dropLast().last?["rate"] as? Double, FakeCoinDesk.dailyValue(currency: "EUR", day: yesterday))
    expectEqual(points.last?["rate"] as? Double, FakeCoinDesk.nowValue(currency: "EUR"))
    expectEqual(server.requestCount, 2)
    let historical = try require(server.requests.first { $0.path.hasSuffix("/historical/close.json") })
    // A day before the first asked (AnswerGate's margin); the end is yesterday, the BPI's last.
    expectEqual(historical.query["start"], Day(containing: fixedNow).adding(days: -28).description)
    expectEqual(historical.query["end"], yesterday.description)

    let eth = await rates.run(["history", "ETH", "EUR", "--provider", "coindesk"])
    expectEqual(eth.status, 64)
    expectContains(eth.stderr, "Bitcoin only")
  }

  @Test func daysOptionSetsThePointCount() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "ETH-USD", "--days", "90", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual((try result.json()["points"] as? [Any])?.count, 90)
    for layout in ["--chart", "--table"] {
      let text = await rates.run(["history", "ETH-USD", "--days", "90", layout], width: 60)
      expectEqual(text.status, 0)
      expect(text.stdout.split(separator: "\n").allSatisfy { TerminalText.displayWidth(String($0)) <= 60 })
    }
    expectEqual(server.requestCount, 1)
  }

  @Test func offlineUsesOnlyTheCache() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let empty = await rates.run(["history", "BTC", "EUR", "--offline"])
    expectEqual(empty.status, 66)
    expectContains(empty.stderr, "no cached data")
    expectEqual(server.requestCount, 0)
    _ = await rates.run(["history", "BTC", "EUR"])
    let offline = await rates.run(["history", "BTC", "EUR", "--offline", "--json"])
    expectEqual(offline.status, 0)
    expectEqual((try offline.json()["points"] as? [Any])?.count, 28)
    expectEqual(server.requestCount, 1)
  }

  @Test func ansiInRatesNeverReachesTheTerminal() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "EVIL", "EUR"])
    expect(!result.stdout.contains("\u{1B}"))
    expect(!result.stderr.contains("\u{1B}"))
  }
}
