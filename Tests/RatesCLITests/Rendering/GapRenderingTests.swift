import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// A day without a rate is a gap everywhere a series is drawn: a break in
/// `history --chart`'s line, a column the explorer's cursor can stand on
/// ("no rate"), a blank in `info`'s sparkline (issue 14).
@Suite struct GapRenderingTests {
  static let start = Day(daysSinceEpoch: 19_783)  // 2024-03-01

  /// Five days, the third without a rate.
  static func seriesWithGap() -> RateSeries {
    let rates: [Double?] = [1, 2, nil, 3, 2]
    return RateSeries(
      base: "BTC", quote: "EUR", source: .provider(.coinGecko), fetchedAt: fixedNow,
      points: rates.enumerated().compactMap { index, rate in
        rate.map { RatePoint(date: start.adding(days: index), rate: $0) }
      },
      gaps: [start.adding(days: 2)])
  }

  /// The plot columns (after the axis) that are blank in every chart row.
  static func blankColumns(_ lines: [String]) -> [Int] {
    let rows = lines.dropLast().map { Array($0) }
    guard let tick = rows.first?.firstIndex(where: { $0 == "+" || $0 == "┤" }) else { return [] }
    let end = rows.map(\.count).max() ?? 0
    return ((tick + 1)..<end).filter { column in
      rows.allSatisfy { column >= $0.count || $0[column] == " " }
    }
  }

  /// Before: the gap day was left out and the line ran straight from day 2 to day 4.
  @Test func historyChartBreaksTheLineAtAGap() {
    let view = HistoryView(
      series: Self.seriesWithGap(), staleness: nil, now: fixedNow,
      terminal: TerminalCapabilities(isTTY: false, width: 40, unicode: false, color: false),
      style: Style(enabled: false))
    let lines = view.chartReport().split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    let chart = Array(lines[2..<15])
    expect(!Self.blankColumns(chart).isEmpty, "\(chart.joined(separator: "\n"))")
    expectContains(view.header(), "5 days")
  }

  /// The chart rules still hold around a gap: each point at its own column and value.
  @Test func pointsBesideAGapKeepTheirColumnsAndValues() {
    let values: [Double] = [1, 2, .nan, 3, 2]
    let columns = LineChart.columnValues(values, count: 30, low: 1, high: 3)
    for index in values.indices {
      let column = LineChart.cursorColumn(pointIndex: index, pointCount: 5, plotWidth: 30)
      if values[index].isFinite {
        expectEqual(columns[column], values[index], "point \(index)")
      } else {
        expect(columns[column].isNaN, "the gap's own column")
      }
    }
    // Between the two points either side of the gap nothing is drawn.
    let before = LineChart.cursorColumn(pointIndex: 1, pointCount: 5, plotWidth: 30)
    let after = LineChart.cursorColumn(pointIndex: 3, pointCount: 5, plotWidth: 30)
    expect(columns[(before + 1)..<after].allSatisfy { $0.isNaN })
    // More days than columns: a bucket of gaps only is blank.
    let long = Array(repeating: 1.0, count: 20) + Array(repeating: .nan, count: 20) + [2, 3]
    expect(LineChart.columnValues(long, count: 10, low: 1, high: 3)[6].isNaN)
  }

  /// Before: the cursor's third step landed on day 4 (the gap did not exist).
  @Test func explorerCursorOnAGapSaysNoRate() {
    let state = ExplorerState(series: Self.seriesWithGap(), cursor: 2)
    let lines = HomeRenderer.cursorLines(state, width: 60, style: Style(enabled: false), ascii: true)
    let info = lines.first { $0.hasPrefix("2024-03-03") }
    expectEqual(info?.contains("no rate"), true, "\(lines.joined(separator: "\n"))")
    expectEqual(info?.contains("3/5"), true)
    // The day after the gap has no change from it.
    let next = HomeRenderer.cursorLines(
      ExplorerState(series: Self.seriesWithGap(), cursor: 3), width: 60,
      style: Style(enabled: false), ascii: true)
    expect(next.contains { $0.hasPrefix("2024-03-04") && $0.contains("  -  4/5") }, "\(next)")
  }

  /// Before: `info` showed "6 days" and a sparkline closed up over the missing day.
  @Test func infoSparklineKeepsABlankForADayWithoutAPrice() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        guard request.path.hasSuffix("/market_chart") else { return fake(request) }
        let today = Day(containing: fixedNow)
        let stamps = [6, 5, 4, 2, 1].map { today.adding(days: -$0).start } + [fixedNow]
        let prices = stamps.enumerated().map { index, stamp in
          "[\(Int64(stamp.timeIntervalSince1970 * 1000)),\(60_000 + 500 * index)]"
        }.joined(separator: ",")
        return .json(#"{"prices":[\#(prices)],"market_caps":[],"total_volumes":[]}"#)
      }
    }
    let result = await rates.run(["info", "BTC", "--in", "EUR", "--days", "7"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let line = try require(result.stdout.split(separator: "\n").first { $0.contains("7 days") })
    let sparkline = line.split(separator: "  ", omittingEmptySubsequences: true).last ?? ""
    expect(sparkline.count == 7 && sparkline.contains(" "), "\(line)")
  }

  /// Before: 90 days at width 80 drew "  90 days  " and 76 columns, 87 in all.
  @Test func infoSparklineFitsBesideItsDayCount() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["info", "BTC", "--in", "EUR", "--days", "90"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let line = try require(result.stdout.split(separator: "\n").first { $0.contains("90 days") })
    expectEqual(TerminalText.displayWidth(String(line)), 80, "\(line)")
  }
}
