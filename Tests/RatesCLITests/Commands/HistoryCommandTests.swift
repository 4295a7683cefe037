import RatesCLIHarness
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
    #expect(cold.status == 0, "\(cold.stderr)")
    #expect(cold.stdout.contains("BTC/EUR"))
    #expect(cold.stdout.contains("28 days"))
    #expect(!cold.stdout.contains("\u{1B}["), "no colour when stdout is a pipe")
    #expect(server.requestCount == 1)
    let request = try #require(server.requests.first)
    #expect(request.path == "/api/v3/coins/bitcoin/market_chart")
    #expect(request.query["vs_currency"] == "eur")
    #expect(request.query["interval"] == "daily")
    #expect(request.headers["user-agent"] == "rates/\(RatesVersion.current)")

    let warm = await rates.run(["history", "BTC", "EUR", "--json"])
    #expect(warm.status == 0)
    #expect(server.requestCount == 1, "a warm cache answers without a request")
    let json = try warm.json()
    #expect(json["base"] as? String == "BTC")
    #expect(json["quote"] as? String == "EUR")
    #expect(json["source"] as? String == "coingecko")
    #expect(json["stale"] as? Bool == false)
    #expect((json["fetchedAt"] as? String)?.hasSuffix("Z") == true)
    let points = try #require(json["points"] as? [[String: Any]])
    #expect(points.count == 28)
    let today = Day(containing: fixedNow)
    #expect(points.last?["date"] as? String == today.description)
    #expect(points.last?["rate"] as? Double == FakeCoinGecko.nowValue(id: "bitcoin", currency: "eur"))
    // A past day's value is the point stamped at the next midnight.
    let firstDay = today.adding(days: -27)
    #expect(points.first?["date"] as? String == firstDay.description)
    #expect(
      points.first?["rate"] as? Double
        == FakeCoinGecko.dailyValue(id: "bitcoin", currency: "eur", day: firstDay.adding(days: 1)))
    let stats = try #require(json["stats"] as? [String: Any])
    #expect(stats["count"] as? Int == 28)
    for key in [
      "min", "minDate", "max", "maxDate", "mean", "median", "stddev", "first", "last",
      "change", "changePercent",
    ] {
      #expect(stats[key] != nil, "stats.\(key)")
    }
  }

  @Test func coinDeskFormatWorksForBitcoinOnly() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "BTC", "EUR", "--provider", "coindesk", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try result.json()
    #expect(json["source"] as? String == "coindesk")
    let points = try #require(json["points"] as? [[String: Any]])
    #expect(points.count == 28)
    let yesterday = Day(containing: fixedNow).adding(days: -1)
    #expect(points.dropLast().last?["rate"] as? Double == FakeCoinDesk.dailyValue(currency: "EUR", day: yesterday))
    #expect(points.last?["rate"] as? Double == FakeCoinDesk.nowValue(currency: "EUR"))
    #expect(server.requestCount == 2)
    let historical = try #require(server.requests.first { $0.path.hasSuffix("/historical/close.json") })
    // A day before the first asked (AnswerGate's margin); the end is yesterday, the BPI's last.
    #expect(historical.query["start"] == Day(containing: fixedNow).adding(days: -28).description)
    #expect(historical.query["end"] == yesterday.description)

    let eth = await rates.run(["history", "ETH", "EUR", "--provider", "coindesk"])
    #expect(eth.status == 64)
    #expect(eth.stderr.contains("Bitcoin only"))
  }

  @Test func daysOptionSetsThePointCount() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "ETH-USD", "--days", "90", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect((try result.json()["points"] as? [Any])?.count == 90)
    for layout in ["--chart", "--table"] {
      let text = await rates.run(["history", "ETH-USD", "--days", "90", layout], width: 60)
      #expect(text.status == 0)
      #expect(text.stdout.split(separator: "\n").allSatisfy { TerminalText.displayWidth(String($0)) <= 60 })
    }
    #expect(server.requestCount == 1)
  }

  @Test func offlineUsesOnlyTheCache() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let empty = await rates.run(["history", "BTC", "EUR", "--offline"])
    #expect(empty.status == 66)
    #expect(empty.stderr.contains("no cached data"))
    #expect(server.requestCount == 0)
    _ = await rates.run(["history", "BTC", "EUR"])
    let offline = await rates.run(["history", "BTC", "EUR", "--offline", "--json"])
    #expect(offline.status == 0)
    #expect((try offline.json()["points"] as? [Any])?.count == 28)
    #expect(server.requestCount == 1)
  }

  @Test func ansiInRatesNeverReachesTheTerminal() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "EVIL", "EUR"])
    #expect(!result.stdout.contains("\u{1B}"))
    #expect(!result.stderr.contains("\u{1B}"))
  }
}
