import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// The number policy: money to the currency's minor unit, coins to satoshis, a pair's
/// rates and the changes between them with one number of decimals.
@Suite struct RateFormatPolicyTests {
  @Test(arguments: [
    (1_234.5, "EUR", "1,234.50 EUR"), (17_091.4, "JPY", "17,091 JPY"), (1.2346, "KWD", "1.235 KWD"),
    (0.001_633_07, "BTC", "0.00163307 BTC"), (4.624_131_39, "ETH", "4.62413139 ETH"),
  ])
  func moneyUsesTheMinorUnit(value: Double, code: String, expected: String) {
    expectEqual(RateFormat.money(value, code: code), expected)
  }

  /// Tiny amounts keep three significant digits instead of reading as zero; huge ones stop
  /// at the digits a Double holds.
  @Test(arguments: [
    (0.000_612_345, "EUR", "0.000612 EUR"), (0.004, "USD", "0.00400 USD"), (0.005, "USD", "0.01 USD"),
    (-0.000_612_345, "EUR", "-0.000612 EUR"), (0.4, "JPY", "0.400 JPY"),
    (0.000_000_001_2, "BTC", "0.00000000120 BTC"), (0, "EUR", "0.00 EUR"),
    (16_330_663_269.888_706, "BTC", "16,330,663,269.8887 BTC"),
    (1.0782e15, "USD", "1,078,200,000,000,000 USD"), (123_456_789_012.34, "EUR", "123,456,789,012.34 EUR"),
  ])
  func moneyNeverShowsZeroForAnAmountNorNoise(value: Double, code: String, expected: String) {
    expectEqual(RateFormat.money(value, code: code), expected)
  }

  @Test func aPairsColumnSharesItsDecimals() {
    let column = RateFormat.rateColumn([1.2845, 1.3107, 1.2563])
    expectEqual(column.decimals, 4)
    expectEqual(column.signed(0), "+0.0000")
    expectEqual(column.signed(0.00114), "+0.0011")
    expectEqual(column.signed(-0.0158), "-0.0158")
    expectEqual(RateFormat.rateColumn([0.671, 0.6709]).format(0.671), "0.67100")
  }

  /// The column's decimals are those of its most precise value, whatever the
  /// magnitudes, signs and rounding edges (0.999996, 9.99996, 99.9996) it mixes.
  @Test func aColumnHasTheDecimalsOfItsMostPreciseValue() {
    var generator = SeededGenerator(state: 0x5EED_0002)  // seeded: a failure repeats
    let edges = [0.999_996, 9.999_96, 99.999_6, 1, 10, 100, 1e15, 0.000_012_345, -0.5, 0]
    for _ in 0..<2_000 {
      let count = Int.random(in: 1...6, using: &generator)
      let values = (0..<count).map { _ in
        Bool.random(using: &generator)
          ? edges.randomElement(using: &generator) ?? 1
          : pow(10, Double.random(in: -9...16, using: &generator))
            * (Bool.random(using: &generator) ? 1 : -1)
      }
      let expected = values.filter { $0.isFinite && $0 != 0 }.map(RateFormat.rateDecimals).max() ?? 2
      expectEqual(
        RateFormat.rateColumn(values).decimals, min(expected, RateFormat.maximumDecimals),
        "\(values)")
    }
  }

  @Test func convertKeepsSatoshis() async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    let result = await cli.run(["convert", "100", "EUR", "BTC"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectContains(result.stdout, "0.00163307 BTC")
  }

  @Test func historyAndStatsNameTheSameFiguresAlike() async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    let history = await cli.run(["history", "BTC", "EUR", "--days", "30"])
    let stats = await cli.run(["stats", "BTC", "EUR", "--days", "30"])
    func labels(_ text: String) -> [String] {
      text.split(separator: "\n").compactMap { line in
        let words = line.split(separator: " ", maxSplits: 1)
        guard line.hasPrefix("  "), !line.contains("drawdown"), let first = words.first,
          ["min", "max", "mean", "median", "std", "first", "last", "change", "days"].contains(first)
        else { return nil }
        return String(first)
      }
    }
    expectEqual(labels(history.stdout), ["min", "max", "mean", "median", "std", "first", "last", "change", "days"])
    expectEqual(labels(stats.stdout), labels(history.stdout))
  }
}
