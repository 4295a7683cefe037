import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates portfolio` on narrow terminals: both gains stay at 80 columns, and whatever the
/// table leaves out is named on the line under it.
@Suite struct PortfolioWidthTests {
  static func header(_ output: String) -> String {
    output.split(separator: "\n").first { $0.hasPrefix("Asset") }.map(String.init) ?? ""
  }

  @Test func at80ColumnsTheGainsStayAndWhatWentIsNamed() async throws {
    let rates = try await PortfolioCommandTests.harness()
    let result = await rates.run(["portfolio", "--in", "USD"], width: 80)
    expectEqual(result.status, 0, "\(result.stderr)")
    let header = Self.header(result.stdout)
    for title in ["Asset", "Value", "Cost", "Unrealized", "Realized"] {
      expectContains(header, title, "\(title): \(result.stdout)")
    }
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let first = try require(lines.firstIndex { $0.hasPrefix("Asset") })
    let total = try require(lines.firstIndex { $0.hasPrefix("Total") })
    expect(lines[first...(total + 1)].allSatisfy { TerminalText.displayWidth($0) <= 80 }, "\(result.stdout)")
    expectEqual(lines[total + 1], "Not shown at this width: Quantity, Price, 24h, Share")
    expect(lines[total].hasSuffix("+500.00"), "the realized total: \(lines[total])")
  }

  @Test func wideNothingIsLeftOutAndNarrowTheValueAndAGainStayLongest() async throws {
    let rates = try await PortfolioCommandTests.harness()
    let wide = await rates.run(["portfolio", "--in", "USD"], width: 160)
    expect(!wide.stdout.contains("Not shown"), "\(wide.stdout)")
    expect(Self.header(wide.stdout).contains("Share"))
    let narrow = await rates.run(["portfolio", "--in", "USD"], width: 60)
    let narrowHeader = Self.header(narrow.stdout).split(separator: " ")
    expect(narrowHeader.contains("Value") && narrowHeader.contains("Realized"), "\(narrow.stdout)")
    expectContains(narrow.stdout, "Not shown at this width:")
    let forty = await rates.run(["portfolio", "--in", "USD"], width: 40)
    expectEqual(Self.header(forty.stdout).split(separator: " "), ["Asset", "Value", "Unrealized"], "\(forty.stdout)")
    expect(
      forty.stdout.contains(
        "Total  16,958.13 USD     +857.43\nNot shown at this width: Quantity,\nPrice, 24h, Share, Cost, Realized\n\n"),
      "\(forty.stdout)")
  }
}
