import Foundation
import RatesCLIHarness
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct CurrentCommandTests {
  @Test func currentBatchesAllCoinsAndCurrenciesInOneRequest() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["current", "BTC", "ETH", "--in", "EUR,USD", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(server.requestCount == 1)
    #expect(server.requests.first?.query["ids"] == "bitcoin,ethereum")
    let quotes = try #require(try result.json()["quotes"] as? [[String: Any]])
    #expect(quotes.map { "\($0["base"]!)/\($0["quote"]!)" } == ["BTC/EUR", "BTC/USD", "ETH/EUR", "ETH/USD"])
    #expect(quotes.first?["rate"] as? Double == FakeCoinGecko.nowValue(id: "bitcoin", currency: "eur"))
    for quote in quotes {
      #expect(quote["changePeriod"] as? String == "24h")
      #expect(quote["source"] as? String == "coingecko")
      #expect(quote["stale"] as? Bool == false)
      #expect(quote["fetchedAt"] is String)
    }

    let table = await rates.run(["current", "BTC", "ETH", "--in", "EUR,USD"])
    #expect(table.status == 0)
    #expect(server.requestCount == 1, "fresh prices come from the cache")
    #expect(table.stdout.contains("BTC"))
    #expect(table.stdout.contains("BTC/EUR"))
    #expect(table.stdout.contains("24h"))
  }

  @Test func coinDeskCurrentReusesTheUSDThatComesAlong() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["current", "BTC", "--in", "GBP", "--provider", "coindesk", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let quotes = try #require(try result.json()["quotes"] as? [[String: Any]])
    #expect(quotes.first?["rate"] as? Double == FakeCoinDesk.nowValue(currency: "GBP"))
    #expect(quotes.first?["changePeriod"] as? String == "1d", "BPI closes: a one-day change")
    #expect(quotes.first?["changePercent"] is NSNull)
  }
}
