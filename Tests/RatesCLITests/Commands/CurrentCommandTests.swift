import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct CurrentCommandTests {
  @Test func currentBatchesAllCoinsAndCurrenciesInOneRequest() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["current", "BTC", "ETH", "--in", "EUR,USD", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(server.requestCount, 1)
    expectEqual(server.requests.first?.query["ids"], "bitcoin,ethereum")
    let quotes = try require(try result.json()["quotes"] as? [[String: Any]])
    expectEqual(quotes.map { "\($0["base"]!)/\($0["quote"]!)" }, ["BTC/EUR", "BTC/USD", "ETH/EUR", "ETH/USD"])
    expectEqual(quotes.first?["rate"] as? Double, FakeCoinGecko.nowValue(id: "bitcoin", currency: "eur"))
    for quote in quotes {
      expectEqual(quote["changePeriod"] as? String, "24h")
      expectEqual(quote["source"] as? String, "coingecko")
      expectEqual(quote["stale"] as? Bool, false)
      expect(quote["fetchedAt"] is String)
    }

    let table = await rates.run(["current", "BTC", "ETH", "--in", "EUR,USD"])
    expectEqual(table.status, 0)
    expectEqual(server.requestCount, 1, "fresh prices come from the cache")
    expectContains(table.stdout, "BTC")
    expectContains(table.stdout, "BTC/EUR")
    expectContains(table.stdout, "24h")
  }

  @Test func coinDeskCurrentReusesTheUSDThatComesAlong() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["current", "BTC", "--in", "GBP", "--provider", "coindesk", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let quotes = try require(try result.json()["quotes"] as? [[String: Any]])
    expectEqual(quotes.first?["rate"] as? Double, FakeCoinDesk.nowValue(currency: "GBP"))
    expectEqual(quotes.first?["changePeriod"] as? String, "1d", "BPI closes: a one-day change")
    expect(quotes.first?["changePercent"] is NSNull)
  }
}
