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
    #expect(RateFormat.money(value, code: code) == expected)
  }

  @Test func aPairsColumnSharesItsDecimals() {
    let column = RateFormat.rateColumn([1.2845, 1.3107, 1.2563])
    #expect(column.decimals == 4)
    #expect(column.signed(0) == "+0.0000")
    #expect(column.signed(0.00114) == "+0.0011")
    #expect(column.signed(-0.0158) == "-0.0158")
    #expect(RateFormat.rateColumn([0.671, 0.6709]).format(0.671) == "0.67100")
  }

  @Test func convertKeepsSatoshis() async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    let result = await cli.run(["convert", "100", "EUR", "BTC"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("0.00163307 BTC"), "\(result.stdout)")
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
    #expect(labels(history.stdout) == ["min", "max", "mean", "median", "std", "first", "last", "change", "days"])
    #expect(labels(stats.stdout) == labels(history.stdout))
  }
}
