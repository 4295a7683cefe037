import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

/// The labels under a sparkline (low, high, what one column stands for) wrap
/// to the width instead of running past it, hourly and daily alike.
@Suite struct SparklineLabelFitTests {
  @Test(arguments: [40, 60, 80])
  func sparklineReportsFitTheWidth(width: Int) async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    for arguments in [
      ["history", "BTC", "EUR", "--days", "30", "--interval", "hourly"],
      ["history", "EUR", "USD", "--from", "2020-01-01"],
    ] {
      let result = await rates.run(arguments, width: width)
      expectEqual(result.status, 0, "\(result.stderr)")
      let labels = result.stdout.split(separator: "\n").filter { $0.contains("low ") || $0.contains("high ") }
      expect(!labels.isEmpty, "\(result.stdout)")
      for line in labels {
        expect(line.count <= width, "\(arguments) at \(width): \(line)")
      }
      expectContains(result.stdout, "1 column ")
    }
  }

  /// Hourly statistics use the daily block's labels and order.
  @Test func hourlyAndDailyStatisticsShareLabelsAndOrder() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    func labels(_ arguments: [String]) async -> [String] {
      let result = await rates.run(arguments, width: 80)
      let lines = result.stdout.split(separator: "\n").drop { !$0.hasPrefix("  min ") }
      return lines.compactMap { $0.split(separator: " ").first.map(String.init) }
    }
    let daily = await labels(["history", "BTC", "EUR", "--days", "5"])
    let hourly = await labels(["history", "BTC", "EUR", "--days", "5", "--interval", "hourly"])
    expectEqual(Array(daily.prefix(8)), ["min", "max", "mean", "median", "std", "first", "last", "change"])
    expectEqual(Array(hourly.prefix(8)), Array(daily.prefix(8)))
  }
}
