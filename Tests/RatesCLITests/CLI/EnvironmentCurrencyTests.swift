import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// `RATES_CURRENCY` is checked as `config set currency` is, and the error names the
/// variable, as `RATES_PROVIDER`'s does (review of issue 15: `RATES_CURRENCY=XYZ` gave
/// "CoinGecko does not price in 'XYZ'", not saying where XYZ came from).
@Suite struct EnvironmentCurrencyTests {
  @Test func anInvalidRatesCurrencyIsRefusedByName() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let before = server.requestCount
    let result = await rates.run(["current", "BTC"], environment: ["RATES_CURRENCY": "XYZ"])
    expectEqual(result.status, 64)
    expectContains(result.stderr, "RATES_CURRENCY")
    expectContains(result.stderr, "'XYZ'")
    expectEqual(server.requestCount, before, "refused before any request")
  }

  @Test func aValidOneStillWorksAndConfigStillShowsABadOne() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let good = await rates.run(["current", "BTC"], environment: ["RATES_CURRENCY": "eur"])
    expectEqual(good.status, 0, "\(good.stderr)")
    let config = await rates.run(["config"], environment: ["RATES_CURRENCY": "XYZ"])
    expectEqual(config.status, 0, "\(config.stderr)")
  }
}
