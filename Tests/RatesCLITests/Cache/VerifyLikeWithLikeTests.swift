import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates cache verify` compares like with like: the days as they were asked (same source,
/// same request form), differences beyond the figures' precision only, numbers as written
/// everywhere, candle days against candles, days not over yet reported and dropped by
/// `--fix`, and never "all agree" for days it did not compare.
@Suite struct VerifyLikeWithLikeTests {
  static func store(_ cli: CLIHarness) -> DayStore {
    DayStore(directory: cli.home.appendingPathComponent("cache/rates"))
  }

  @Test(arguments: [["BTC", "EUR"], ["GBP", "USD"]])
  func rightAfterAFetchEveryDayAgrees(_ pair: [String]) async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    expectEqual(await cli.run(["history"] + pair + ["--days", "28"]).status, 0)
    let verify = await cli.run(["cache", "verify"])
    expectEqual(verify.status, 0, "\(verify.stdout)\(verify.stderr)")
    expectContains(verify.stdout, "all agree.")
    expect(!verify.stdout.contains("differ"), "\(verify.stdout)")
  }

  /// Days stored from the ECB while Frankfurter was down (GBP in USD crossed through the
  /// euro: ten digits) are checked against the ECB, and Frankfurter's four-place figures would
  /// differ only by rounding: nothing is reported and `--fix` rewrites nothing.
  @Test func daysFromAFallbackAgreeWithItAndFixLeavesThemAlone() async throws {
    let frankfurter = ReplySwitch()
    let (cli, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        request.path.hasPrefix("/frankfurter/") ? frankfurter.wrapping(fake)(request) : fake(request)
      }
    }
    frankfurter.fail(with: .text("down", status: 503))
    expectEqual(await cli.run(["history", "GBP", "USD", "--days", "10"]).status, 0)
    frankfurter.fail(with: nil)
    let store = Self.store(cli)
    let key = "frankfurter/gbp-usd"
    let before = store.load(key: key).0
    expect(before.values.contains { Figure.decimalPlaces($0.value) > 4 }, "crossed: more digits")
    expectEqual(before.origin(try require(before.values.first?.day))?.provider, "ecb")
    let verify = await cli.run(["cache", "verify", "GBP-USD", "--fix", "--json"])
    expectEqual(verify.status, 0, "\(verify.stderr)")
    let pair = try require((try verify.json()["pairs"] as? [[String: Any]])?.first)
    expectEqual((pair["differences"] as? [Any])?.isEmpty, true, "\(verify.stdout)")
    expectEqual(pair["fixed"] as? Bool, false)
    expectEqual(store.load(key: key).0, before, "nothing rewritten")
  }

  @Test func figuresAgreeToTheLessPreciseOnesPlaces() {
    expect(Figure.agree(1.2968, 1.296830315))
    expect(Figure.agree(110_419.02, 110_419.024_690_408_45))
    expect(!Figure.agree(1.2968, 1.2969))
    expect(!Figure.agree(110_419.024_690_408_45, 110_402.1))
  }

  @Test func aDifferenceIsWrittenAsRatesAreEverywhere() async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    expectEqual(await cli.run(["history", "BTC", "EUR", "--days", "10"]).status, 0)
    let store = Self.store(cli)
    let key = "coingecko/bitcoin-eur"
    let day = try require(store.load(key: key).0.values.first?.day)
    var poison = DayStore.Days()
    poison.set(day, 110_419.024_690_408_45)
    try store.save(poison, key: key, replacing: true)
    let verify = await cli.run(["cache", "verify"])
    expectEqual(verify.status, 2, "\(verify.stderr)")
    expectContains(verify.stdout, "1 differs")
    expect(!verify.stdout.contains("110419.02469040845"), "\(verify.stdout)")
    expect(verify.stdout.contains(RateFormat.rate(110_419.024_690_408_45)), "\(verify.stdout)")
  }

  @Test func candleDaysAreVerifiedAgainstCandles() async throws {
    let (cli, server) = try CoinFallbackTests.harness(ReplySwitch())
    let range = ["history", "BTC", "USD", "--from", "2016-01-01", "--to", "2016-03-31"]
    expectEqual(await cli.run(range).status, 0)
    let candles = server.requests.filter { $0.path.hasSuffix("/candles") }.count
    let verify = await cli.run(["cache", "verify"])
    expectEqual(verify.status, 0, "\(verify.stdout)\(verify.stderr)")
    expectContains(verify.stdout, "91 stored days checked")
    expectContains(verify.stdout, "all agree.")
    expect(server.requests.filter { $0.path.hasSuffix("/candles") }.count > candles)
    // The line names the source it asked, not only the store's provider.
    expectContains(verify.stdout, "in 1 request to coinbase,")
    let json = await cli.run(["cache", "verify", "--json"])
    let pair = try require((try json.json()["pairs"] as? [[String: Any]])?.first)
    expectEqual(pair["askedSources"] as? [String], ["coinbase"])
  }

  @Test func daysNotOverYetAreReportedAndDroppedByFix() async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    expectEqual(await cli.run(["history", "GBP", "USD", "--days", "10"]).status, 0)
    let store = Self.store(cli)
    let key = "frankfurter/gbp-usd"
    let today = Day(containing: cli.clock.now)
    let future = [today, today.adding(days: 3)]
    var later = DayStore.Days()
    for day in future { later.set(day, 1.5) }
    try store.save(later, key: key)
    let verify = await cli.run(["cache", "verify", "--json"])
    expectEqual(verify.status, 2, "\(verify.stderr)")
    let pair = try require((try verify.json()["pairs"] as? [[String: Any]])?.first)
    expectEqual(pair["notOver"] as? [String], future.map(\.description))
    let text = await cli.run(["cache", "verify"])
    expectContains(text.stdout, "2 stored days are not over yet (\(today) to \(future[1]))")
    let fixed = await cli.run(["cache", "verify", "--fix"])
    expectEqual(fixed.status, 0, "\(fixed.stdout)")
    expectContains(fixed.stdout, "dropped.")
    let (days, _) = store.load(key: key)
    expectEqual(days.span.map { $0.upperBound < today }, true)
    expect(!days.values.isEmpty, "the settled days stay")
  }

  @Test func daysNotComparedAreNeverCalledAgreeing() async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    let store = Self.store(cli)
    let today = Day(containing: cli.clock.now)
    var onlyLater = DayStore.Days()
    onlyLater.set(today.adding(days: 2), 1.5)
    try store.save(onlyLater, key: "frankfurter/gbp-usd")
    let verify = await cli.run(["cache", "verify"])
    expect(!verify.stdout.contains("all agree"), "\(verify.stdout)")
    expectContains(verify.stdout, "0 stored days checked in 0 requests, none compared.")
    expectEqual(verify.status, 2)
  }
}
