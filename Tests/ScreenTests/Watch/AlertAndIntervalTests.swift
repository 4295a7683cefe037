import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct WatchAlertRuleTests {
  @Test func parsesCoinsPairsAndAllComparisons() throws {
    let btc = try AlertRule.parse("BTC>100000")
    expect(btc.base == "BTC" && btc.quote == nil && btc.comparison == .above && btc.threshold == 100_000)
    let gbp = try AlertRule.parse("GBP-USD<1.25")
    expect(gbp.base == "GBP" && gbp.quote == "USD" && gbp.comparison == .below && gbp.threshold == 1.25)
    expectEqual(try AlertRule.parse("eth >= 3,000").comparison, .atLeast)
    expectEqual(try AlertRule.parse("eth >= 3,000").threshold, 3000)
    expectEqual(try AlertRule.parse("EUR/BTC<=0.00002").comparison, .atMost)
    expectEqual(try AlertRule.parse("usd-coin<0.99").base, "usd-coin")
    expectEqual(try AlertRule.parse("ETH>=1e3").text, "ETH>=1e3")
  }

  @Test(arguments: [
    "BTC", "BTC>", ">5", "BTC=5", "BTC>abc", "BTC>-5", "BTC>0", "BTC>1,5", "BT C$>5", "GBP-GBP>1", "BTC>>5",
  ])
  func badExpressionsAreUsageErrors(_ text: String) {
    #expect(throws: UsageError.self) { try AlertRule.parse(text) }
  }

  @Test func comparisons() {
    expect(AlertRule.Comparison.above.holds(2, 1) && !AlertRule.Comparison.above.holds(1, 1))
    expect(AlertRule.Comparison.atLeast.holds(1, 1) && AlertRule.Comparison.atMost.holds(1, 1))
    expect(AlertRule.Comparison.below.holds(0.5, 1) && !AlertRule.Comparison.below.holds(1, 1))
  }

  @Test func badAlertExitsWith64ThroughTheCLI() async throws {
    let cli = try CLIHarness()
    let bad = await cli.run(["watch", "BTC", "--alert", "BTC=>5"])
    expectEqual(bad.status, 64)
    expectContains(bad.stderr, "bad --alert")
    let noAlert = await cli.run(["watch", "BTC", "--exit-on-alert"])
    expectEqual(noAlert.status, 64)
    let badEvery = await cli.run(["watch", "BTC", "--every", "soon"])
    expectEqual(badEvery.status, 64)
  }
}

@Suite struct WatchIntervalTests {
  @Test func parsesDurations() {
    expectEqual(WatchInterval.parse("30s"), 30)
    expectEqual(WatchInterval.parse("2m"), 120)
    expectEqual(WatchInterval.parse("90"), 90)
    expectEqual(WatchInterval.parse("1h"), 3600)
    expectEqual(WatchInterval.parse(" 45S "), 45)
    for bad in ["", "0", "-5", "1.5s", "2x", "s", "10d", "99999999", "2h30m"] {
      expectEqual(WatchInterval.parse(bad), nil, "\(bad)")
    }
  }

  @Test func floorsFollowTheKeyAndTheOverride() throws {
    expectEqual(try WatchInterval.floor(environment: [:]).seconds, 15)
    expectEqual(try WatchInterval.floor(environment: [:]).requestsPerMinute, 4)
    expectEqual(try WatchInterval.floor(environment: ["COINGECKO_API_KEY": "k"]).seconds, 3)
    let pro = try WatchInterval.floor(environment: ["COINGECKO_PRO_API_KEY": "k", "COINGECKO_API_KEY": "d"])
    expect(pro.seconds == 1 && pro.requestsPerMinute == 60)
    let override = try WatchInterval.floor(environment: ["RATES_WATCH_FLOOR": "10", "COINGECKO_API_KEY": "k"])
    expect(override.seconds == 10 && override.requestsPerMinute == 6)
    for bad in ["0", "-1", "1.5", "x"] {
      #expect(throws: UsageError.self) { try WatchInterval.floor(environment: ["RATES_WATCH_FLOOR": bad]) }
    }
  }

  @Test func describesIntervals() {
    expectEqual(WatchInterval.describe(30), "30 s")
    expectEqual(WatchInterval.describe(90), "90 s")
    expectEqual(WatchInterval.describe(120), "2 min")
    expectEqual(WatchInterval.describe(5400), "1 h 30 min")
  }
}
