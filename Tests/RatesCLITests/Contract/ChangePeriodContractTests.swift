import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// One rule for the period of a change figure (``Quote/changePeriod``): the same Coinbase
/// figure is labelled alike by `current` and `watch` (before: `1d` and `24h`).
@Suite struct ChangePeriodContractTests {
  @Test func aCoinbaseFigureHasOnePeriodInCurrentAndWatch() async throws {
    let (rates, _) = try CoinFallbackTests.harness(
      CoinFallbackTests.failing(.text("upstream down", status: 503)),
      environment: ["RATES_WATCH_FLOOR": "1"])
    let current = await rates.run(["current", "BTC", "--in", "USD", "--json"])
    let quote = try require((try current.json()["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["source"] as? String, "coinbase")
    expectEqual(quote["changePeriod"] as? String, "1d")
    let watch = await rates.run(
      ["watch", "BTC", "--in", "USD", "--every", "1", "--count", "1", "--json"])
    expectEqual(watch.status, 0, "\(watch.stderr)")
    let line = try require(try watch.jsonLines().first)
    expectEqual(line["source"] as? String, "coinbase")
    expectEqual(line["changePeriod"] as? String, quote["changePeriod"] as? String, "\(line)")
  }

  @Test func thePeriodIsTheSourcesRule() {
    let quote = Quote(
      base: "BTC", quote: "USD", rate: 1, change24hPercent: nil, source: .provider(.kraken),
      fetchedAt: Date(timeIntervalSince1970: 0), updatedAt: nil)
    expectEqual(quote.changePeriod, Provider.kraken.changePeriod)
    var gecko = quote
    gecko.source = .provider(.coinGecko)
    expectEqual(gecko.changePeriod, .hours24)
  }
}
