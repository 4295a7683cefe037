import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `convert` and `stats` in process, against the fake APIs at a fixed time.
@Suite struct CalculatorCommandTests {
  @Test func convertBatchesEveryKindOfTargetInOneRequestPerProvider() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["convert", "1,500", "USD", "EUR,BTC,SOL", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(server.requestCount, 2, "one ECB, one CoinGecko")
    let json = try result.json()
    expectEqual(json["amount"] as? Double, 1500)
    expect(json["date"] is NSNull)
    let conversions = try require(json["conversions"] as? [[String: Any]])
    expectEqual(conversions.map { $0["quote"] as? String }, ["EUR", "BTC", "SOL"])
    let ecbDay = UpdateRhythm.newestECBDay(at: fixedNow)
    let eur = try require(conversions[0]["rate"] as? Double)
    expect(abs(eur - FakeFrankfurter.rate(base: "USD", quote: "EUR", day: ecbDay)) < 1e-9)
    expectEqual(conversions[0]["amount"] as? Double, Figure.money(1500 * eur, code: "EUR"))
    expectEqual(conversions[0]["rateDate"] as? String, ecbDay.description)
    let btc = try require(conversions[1]["rate"] as? Double)
    expect(abs(btc - 1 / FakeCoinGecko.nowValue(id: "bitcoin", currency: "usd")) < 1e-15)
    for conversion in conversions {
      expectEqual(conversion["stale"] as? Bool, false)
      expect(conversion["source"] is String)
      expect(conversion["fetchedAt"] is String)
    }
  }

  @Test func coinToCoinGoesThroughUSDPricesInOneRequest() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    // ADA is not a CoinGecko quote currency (BTC is): ETH→ADA goes through USD.
    let result = await rates.run(["convert", "2", "ETH", "ADA,BTC", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(server.requestCount, 1)
    let conversions = try require(try result.json()["conversions"] as? [[String: Any]])
    let ada = try require(conversions.first?["rate"] as? Double)
    let expected =
      FakeCoinGecko.nowValue(id: "ethereum", currency: "usd")
      / FakeCoinGecko.nowValue(id: "cardano", currency: "usd")
    expect(abs(ada - expected) < 1e-9)
    expectEqual(conversions.first?["amount"] as? Double, Figure.money(2 * ada, code: "ADA"))
  }

  @Test func datedConversionUsesThatDaysRate() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let day = Day(containing: fixedNow).adding(days: -10)
    let result = await rates.run(["convert", "100", "EUR", "GBP", "--date", day.description, "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let conversion = try require((try result.json()["conversions"] as? [[String: Any]])?.first)
    let ecbDay = FakeFrankfurter.workingDay(onOrBefore: day)
    expectEqual(conversion["rateDate"] as? String, ecbDay.description)
    expect(abs((conversion["rate"] as? Double ?? 0) - FakeFrankfurter.eurRate("GBP", day: ecbDay)) < 1e-9)
  }

  @Test func aWeekendDateUsesTheWorkingDayBefore() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let today = Day(containing: fixedNow)
    let saturday = try require((1...8).map { today.adding(days: -$0) }.first { $0.isoWeekday == 6 })
    let result = await rates.run(["convert", "100", "EUR", "USD", "--date", saturday.description, "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let conversion = try require((try result.json()["conversions"] as? [[String: Any]])?.first)
    expectEqual(conversion["rateDate"] as? String, saturday.adding(days: -1).description)
  }

  @Test(arguments: [
    (["convert", "2", "EUR", ","], "missing argument <to>"),
    (["convert", "-5", "USD", "EUR"], "more than zero"),
    (["convert", "0", "USD", "EUR"], "more than zero"),
    (["convert", "abc", "USD", "EUR"], "is not a number"),
    (["convert", "1,5", "USD", "EUR"], "misplaced commas"),
    (["convert", "1e99", "USD", "EUR"], "too large"),
    (["convert", "5", "USD", "USD"], "always 1"),
    (["convert", "5", "USD", "XQZ"], "XQZ"),
    (["convert", "5", "USD", "LBP"], "rates ledger add"),
    (["convert", "5", "USD", "EUR", "--date", "2999-01-01"], "in the future"),
    (["convert", "5", "USD", "EUR", "--date", "2024-13-01"], "YYYY-MM-DD"),
  ])
  func badInputIsAUsageError(_ arguments: [String], _ message: String) async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(arguments)
    expectEqual(result.status, 64, "\(result.stderr)")
    expectContains(result.stderr, message, "\(result.stderr)")
  }

  @Test func ledgerRatesFeedConvertAndStats() async throws {
    let rates = try CLIHarness()
    let today = Day(containing: fixedNow)
    // Sold 100 USD at 89,500 and 50 USD at 89,800; bought 200 USD at 89,000.
    // Sell: (8,950,000 + 4,490,000) / 150 = 89,600; buy: 89,000; midpoint 89,300.
    for arguments in [
      ["ledger", "add", "100", "USD", "8950000", "LBP", "--sell"],
      ["ledger", "add", "200", "USD", "17800000", "LBP", "--buy"],
      ["ledger", "add", "50", "USD", "4490000", "LBP", "--sell", "--date", today.adding(days: -1).description],
      ["ledger", "add", "10", "USD", "800000", "LBP", "--sell", "--date", today.adding(days: -5).description],
    ] {
      let added = await rates.run(arguments)
      expectEqual(added.status, 0, "\(added.stderr)")
    }
    let convert = await rates.run(["convert", "250", "USD", "LBP", "--ledger", "--json"])
    expectEqual(convert.status, 0, "\(convert.stderr)")
    let conversion = try require((try convert.json()["conversions"] as? [[String: Any]])?.first)
    expectEqual(conversion["rate"] as? Double, 89_300)
    expectEqual(conversion["amount"] as? Double, 22_325_000)
    expectEqual(conversion["source"] as? String, "ledger")
    let inverse = await rates.run(["convert", "89300", "LBP", "USD", "--ledger", "--json"])
    let back = try require((try inverse.json()["conversions"] as? [[String: Any]])?.first)
    // Averaged where the exchanges were recorded (USD-LBP), then inverted: a round trip.
    expect(abs((back["amount"] as? Double ?? 0) - 1) < 1e-12)

    let stats = await rates.run(["stats", "USD", "LBP", "--ledger", "--days", "7", "--json"])
    expectEqual(stats.status, 0, "\(stats.stderr)")
    let points = try require(try stats.json()["points"] as? [[String: Any]])
    // Days with exchanges only: today-5, yesterday and today.
    expectEqual(points.count, 3)
    let average: Double = Figure.ratio(26_750_000.0 / 300)
    expectEqual(points.last?["rate"] as? Double, average)

    let none = await rates.run(["convert", "5", "USD", "NGN", "--ledger"])
    expectEqual(none.status, 66)
    expectContains(none.stderr, "rates ledger add")
  }

  /// `convert --ledger` prices by the street rate as `pairs` shows it (``StreetRate``): the 3
  /// days to the last exchange of the pair, dated that day, however long ago it was (before,
  /// the 3 days to today: nothing, exit 66, when the last exchange was older).
  @Test func convertLedgerUsesTheStreetRateOfTheLastExchangeDay() async throws {
    let rates = try CLIHarness()
    let last = Day(containing: fixedNow).adding(days: -10)
    for arguments in [
      ["ledger", "add", "100", "USD", "8950000", "LBP", "--sell", "--date", last.description],
      ["ledger", "add", "100", "USD", "8900000", "LBP", "--buy", "--date", last.adding(days: -1).description],
      ["pairs", "add", "USD", "LBP"],
    ] {
      let added = await rates.run(arguments)
      expectEqual(added.status, 0, "\(added.stderr)")
    }
    let convert = await rates.run(["convert", "2", "USD", "LBP", "--ledger", "--json"])
    expectEqual(convert.status, 0, "\(convert.stderr)")
    let conversion = try require((try convert.json()["conversions"] as? [[String: Any]])?.first)
    expectEqual(conversion["rate"] as? Double, 89_250)
    expectEqual(conversion["rateDate"] as? String, last.description)
    let pairs = await rates.run(["pairs", "--json"])
    let street = try require((try pairs.json()["pairs"] as? [[String: Any]])?.first)
    expectEqual(street["rate"] as? Double, conversion["rate"] as? Double)
  }

  @Test func statsReportsVolatilityMovesAndDrawdown() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["stats", "BTC", "EUR", "--days", "60", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let json = try result.json()
    let points = try require(json["points"] as? [[String: Any]])
    expectEqual(points.count, 60)
    let values = points.compactMap { $0["rate"] as? Double }
    let analysis = try require(json["analysis"] as? [String: Any])
    let cv = try require(analysis["coefficientOfVariation"] as? Double)
    let expectedCV = try require(SeriesAnalysis.coefficientOfVariation(values))
    expectEqual(cv, Figure.ratio(expectedCV))
    expect(analysis["maxDrawdown"] is [String: Any])
    expect((analysis["largestRise"] as? [String: Any])?["date"] is String)

    let text = await rates.run(["stats", "GBP", "USD", "--days", "30"])
    expectEqual(text.status, 0)
    for label in ["variation", "largest rise", "largest fall", "max drawdown", "std dev"] {
      expectContains(text.stdout, label, "\(label)")
    }
  }
}
