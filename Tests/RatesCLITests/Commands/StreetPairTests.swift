import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// A pair no provider serves, priced by the ledger's street rate (USD/LBP): added with
/// `pairs add`, shown in `pairs` (text and JSON) and `watch`, labelled as the ledger's.
@Suite struct StreetPairTests {
  /// USD/LBP exchanges in the week to 2024-06-10 (``fixedNow``), both ways round, and one
  /// exchange of another pair.
  static let ledger: [[String]] = [
    ["ledger", "add", "100", "USD", "8950000", "LBP", "--sell", "--date", "2024-06-03"],
    ["ledger", "add", "200", "USD", "17800000", "LBP", "--buy", "--date", "2024-06-07"],
    ["ledger", "add", "9e6", "LBP", "100", "USD", "--sell", "--date", "2024-06-08"],
    ["ledger", "add", "50", "USD", "4490000", "LBP", "--sell", "--date", "2024-06-09"],
    ["ledger", "add", "10", "EUR", "11", "USD", "--buy", "--date", "2024-06-04"],
  ]

  static func harness(width: Int = 80, isTTY: Bool = false) async throws -> CLIHarness {
    let (rates, _) = try CLIHarness.withFakeAPI(width: width, isTTY: isTTY)
    for command in ledger {
      let result = await rates.run(command)
      expectEqual(result.status, 0, "\(command): \(result.stderr)")
    }
    return rates
  }

  /// The street rate on 2024-06-10, by hand: the 3 days to the last exchange (06-07 to
  /// 06-09), in USD/LBP (recorded so twice, once the other way): bought 300 USD for 26.8 M
  /// LBP, sold 50 for 4.49 M; the midpoint of the two.
  static func expectedRate() -> Double {
    let buy = (17_800_000.0 + 9_000_000) / 300
    let sell = 4_490_000.0 / 50
    return Figure.ratio((buy + sell) / 2)
  }

  @Test func addingAPairNoProviderServesTakesTheStreetRate() async throws {
    let rates = try await Self.harness()
    let added = await rates.run(["pairs", "add", "USD", "LBP"])
    expectEqual(added.status, 0, "\(added.stderr)")
    expectContains(added.stdout, "Added USD-LBP, at the street rate of your ledger")
    let stored = try String(
      contentsOf: rates.home.appendingPathComponent("data/rates/pairs.json"), encoding: .utf8)
    expect(stored.contains(#""source":"ledger""#) || stored.contains(#""source" : "ledger""#), "\(stored)")

    let json = await rates.run(["pairs", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    let document = try require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let row = try require((document["pairs"] as? [[String: Any]])?.first)
    expectEqual(row["source"] as? String, "ledger")
    expect(row["base"] as? String == "USD" && row["quote"] as? String == "LBP")
    expectEqual((row["rate"] as? NSNumber)?.doubleValue, Self.expectedRate())
    expectEqual(row["updatedAt"] as? String, "2024-06-09T00:00:00Z", "\(row)")
    expectEqual(row["old"] as? Bool, false)
    // The daily averages of the days with exchanges in the 7 days to today (06-04 to 06-10).
    expectEqual(row["sparkline"] as? [Double], [89_000, 90_000, 89_800], "\(row)")
    expectEqual(
      (row["changePercent"] as? NSNumber)?.doubleValue,
      Change.percent(from: Figure.ratio(26_800_000.0 / 300), to: Self.expectedRate()))

    let text = await rates.run(["pairs"])
    expectEqual(text.status, 0, "\(text.stderr)")
    let line = try require(text.stdout.split(separator: "\n").first { $0.hasPrefix("USD/LBP") })
    expect(line.contains(RateFormat.rate(Self.expectedRate())), "\(text.stdout)")
    expect(line.hasSuffix("your ledger"), "\(text.stdout)")
  }

  @Test func ledgerAsksForTheStreetRateOfAnyPairYouExchanged() async throws {
    let rates = try await Self.harness()
    let added = await rates.run(["pairs", "add", "EUR", "USD", "--ledger"])
    expectEqual(added.status, 0, "\(added.stderr)")
    let json = await rates.run(["pairs", "--json"])
    let document = try require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let row = try require((document["pairs"] as? [[String: Any]])?.first)
    expectEqual(row["source"] as? String, "ledger")
    expectEqual((row["rate"] as? NSNumber)?.doubleValue, 1.1)
    // Old: the last exchange (06-04) is outside the 3 days to today.
    expectEqual(row["old"] as? Bool, true)
  }

  @Test func withoutExchangesThePairIsStillRefusedWithWhatToDo() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let refused = await rates.run(["pairs", "add", "USD", "LBP"])
    expectEqual(refused.status, 64, "\(refused.stderr)")
    expectContains(refused.stderr, "rates pairs add USD LBP")
    let asked = await rates.run(["pairs", "add", "USD", "LBP", "--ledger"])
    expectEqual(asked.status, 66, "\(asked.stderr)")
    expectContains(asked.stderr, "no exchanges between USD and LBP in your ledger")
    expectEqual(asked.stderr.split(separator: "\n").count, 1, "\(asked.stderr)")
    let pairs = await rates.run(["pairs"])
    expectContains(pairs.stdout, "No pairs yet")
  }

  @Test func watchShowsTheStreetRateOfYourPairsAndOfAPairNamed() async throws {
    let rates = try await Self.harness()
    _ = await rates.run(["pairs", "add", "USD", "LBP"])
    let fast = ["RATES_WATCH_FLOOR": "1"]
    let lines = await rates.run(["watch", "--every", "1", "--count", "2"], environment: fast)
    expectEqual(lines.status, 0, "\(lines.stderr)")
    let shown = lines.stdout.split(separator: "\n").filter { $0.contains(" USD/LBP ") }
    expectEqual(shown.count, 2, "\(lines.stdout)")
    expect(
      shown.allSatisfy { $0.contains(RateFormat.rate(Self.expectedRate())) && $0.hasSuffix("your ledger") },
      "\(lines.stdout)")

    let json = await rates.run(["watch", "LBP/USD", "--count", "1", "--json"], environment: fast)
    expectEqual(json.status, 0, "\(json.stderr)")
    let object = try require(try json.jsonLines().first)
    expectEqual(object["source"] as? String, "ledger")
    expect(object["base"] as? String == "LBP" && object["quote"] as? String == "USD")
    let rate = try require((object["rate"] as? NSNumber)?.doubleValue)
    expect(abs(rate * Self.expectedRate() - 1) < 1e-6, "\(object)")
  }

  /// One rule: the portfolio prices LBP at the street rate `pairs` shows for USD/LBP.
  @Test func thePortfolioAndPairsAgreeOnTheStreetRate() async throws {
    let rates = try await Self.harness()
    _ = await rates.run(["pairs", "add", "USD", "LBP"])
    let json = await rates.run(["portfolio", "--in", "USD", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    let document = try require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let lbp = try require((document["holdings"] as? [[String: Any]])?.first { $0["symbol"] as? String == "LBP" })
    let rate = try require((lbp["rate"] as? NSNumber)?.doubleValue)
    expect(abs(rate * Self.expectedRate() - 1) < 1e-9, "\(lbp)")
    expectEqual(lbp["rateDate"] as? String, "2024-06-09")
  }
}
