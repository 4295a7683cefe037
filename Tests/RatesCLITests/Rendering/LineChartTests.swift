import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct LineChartTests {
  static let start = Day(daysSinceEpoch: 19_783)  // 2024-03-01

  static func series(_ rates: [Double]) -> [RatePoint] {
    rates.enumerated().map { RatePoint(date: start.adding(days: $0.offset), rate: $0.element) }
  }

  static func maxWidth(_ lines: [String]) -> Int {
    lines.map(TerminalText.displayWidth).max() ?? 0
  }

  // MARK: - Exact drawings

  @Test func risingLineWithLabelsAndDates() {
    // Labels are 4 wide, so the plot gets 14 - 6 = 8 columns. 5 points stretched over
    // 8 columns: point i owns column round(7i/4) = 0, 2, 4, 5, 7 and the columns between
    // interpolate, so the values are 1, 1.5, 2, 2.5, 3, 4, 4.5, 5; rows from the bottom are
    // round((v - 1) / 4 * 2) = 0, 0, 1, 1, 1, 2, 2, 2. Only one date fits in 14 columns.
    let lines = LineChart.render(
      points: Self.series([1, 2, 3, 4, 5]), width: 14, height: 3, ascii: false)
    expectEqual(
      lines,
      [
        "5.00 ┤     ╭──",
        "3.00 ┤  ╭──╯",
        "1.00 ┤──╯",
        "    2024-03-01",
      ])
  }

  @Test func labelsAreDroppedWhenThePlotWouldBeNarrowerThanEightColumns() {
    // 12 - 6 = 6 plot columns with labels: too few, so the axis is a bare line.
    let lines = LineChart.render(
      points: Self.series([1, 2, 3, 4, 5]), width: 12, height: 3, ascii: false)
    expectEqual(lines, ["│        ╭──", "│   ╭────╯", "│───╯", " 2024-03-01"])
  }

  @Test func asciiFallingLine() {
    // 24 plot columns; values >= 4 round to the top row, values < 2 to the bottom.
    let lines = LineChart.render(
      points: Self.series([5, 4, 3, 2, 1]), width: 30, height: 3, ascii: true)
    expectEqual(
      lines,
      [
        "5.00 +-------*",
        "3.00 +       *----------*",
        "1.00 +                  *-----",
        "      2024-03-01    2024-03-05",
      ])
  }

  @Test func middleDateWhenThereIsRoom() {
    let lines = LineChart.render(
      points: Self.series((0..<31).map { Double($0) }), width: 60, height: 5, ascii: false)
    let axis = lines[5]
    expect(axis.hasPrefix("       2024-03-01"))  // labels 5 wide + " ┤"
    expect(axis.hasSuffix("2024-03-31"))
    expectContains(axis, "2024-03-16")
    expectEqual(TerminalText.displayWidth(axis), 60)
  }

  // MARK: - Shapes and limits

  @Test func singlePointIsAFlatLineWithOneLabel() {
    let lines = LineChart.render(
      points: Self.series([85_999]), width: 30, height: 5, ascii: false)
    expectEqual(lines.count, 6)
    expect(lines[2].hasPrefix("85,999.00 ┤───"))
    expectEqual(lines[0], "          │")
    expectEqual(lines[5], "           2024-03-01")  // under the first plot column
  }

  @Test func equalValuesSitOnTheMiddleRow() {
    let lines = LineChart.render(
      points: Self.series([2, 2, 2, 2]), width: 20, height: 4, ascii: true)
    expectEqual(lines[1], "2.00 +" + String(repeating: "-", count: 14))
    expectEqual(lines[0], "     |")
  }

  @Test func twoPointsTouchTopAndBottom() {
    let lines = LineChart.render(
      points: Self.series([10, 20]), width: 20, height: 4, ascii: false)
    // 13 columns from 10 to 20; the middle label is 20 - 10 / 3 = 16.67.
    expectEqual(lines[0], "20.00 ┤          ╭──")
    expectEqual(lines[1], "16.67 ┤      ╭───╯")
    expectEqual(lines[3], "10.00 ┤───╯")
  }

  @Test func bucketingKeepsTheExtremes() {
    // 400 points in 60 - 8 = 52 columns; one spike up and one down.
    var rates = (0..<400).map { 100 + Double($0 % 7) }
    rates[123] = 500
    rates[321] = 1
    let lines = LineChart.render(points: Self.series(rates), width: 60, height: 8, ascii: true)
    expect(lines[0].hasPrefix("500.00 +"))
    expectContains(lines[0], "*")
    expect(lines[7].hasPrefix("  1.00 +"))
    expectContains(lines[7], "*")
  }

  @Test(arguments: [1, 2, 3, 10, 29, 100, 1_000])
  func neverWiderThanWidth(count: Int) {
    let rates = (0..<count).map { 85_000 + 1_000 * sin(Double($0) / 3) }
    for width in [20, 21, 33, 80, 200] {
      for height in [1, 2, 3, 8] {
        for ascii in [false, true] {
          let lines = LineChart.render(
            points: Self.series(rates), width: width, height: height, ascii: ascii)
          expectEqual(lines.count, height + 1)
          expect(Self.maxWidth(lines) <= width, "width \(width) height \(height)")
        }
      }
    }
  }

  @Test func hugeLabelsAreDroppedRatherThanOverflowing() {
    let lines = LineChart.render(
      points: Self.series([1e13, 2e13]), width: 20, height: 3, ascii: false)
    expectEqual(lines.count, 4)
    expect(Self.maxWidth(lines) <= 20)
    expect(lines[0].hasPrefix("┤") || lines[0].hasPrefix("│"))
  }

  @Test func degenerateInputs() {
    expect(LineChart.render(points: [], width: 80, height: 5, ascii: false).isEmpty)
    expect(LineChart.render(points: Self.series([1]), width: 80, height: 0, ascii: false).isEmpty)
    expect(LineChart.render(points: Self.series([1]), width: 1, height: 5, ascii: false).isEmpty)
    let nan = LineChart.render(points: Self.series([.nan]), width: 80, height: 5, ascii: false)
    expect(nan.isEmpty)
    let small = LineChart.render(points: Self.series([1, 2]), width: 5, height: 2, ascii: true)
    expect(Self.maxWidth(small) <= 5)
  }
}

/// Value labels that differ and a line through every point (issue 14).
@Suite struct LineChartFidelityTests {
  static func series(_ rates: [Double]) -> [RatePoint] {
    LineChartTests.series(rates)
  }

  /// Before: `1.06`, `1.06`, `1.06`.
  @Test func labelsHaveEnoughDigitsToDiffer() {
    let lines = LineChart.render(
      points: Self.series([1.0603, 1.0611, 1.0631, 1.0620]), width: 40, height: 5, ascii: true)
    let labels = lines.dropLast().compactMap { line -> String? in
      guard let tick = line.firstIndex(of: "+") else { return nil }
      let label = line[..<tick].trimmingCharacters(in: .whitespaces)
      return label.isEmpty ? nil : label
    }
    expectEqual(labels, ["1.063", "1.062", "1.060"])
  }

  @Test func distinctLabelsKeepTheUsualDigitsWhenTheyAlreadyDiffer() {
    expectEqual(RateFormat.distinct([85_999, 86_123.5]), ["85,999.00", "86,123.50"])
    expectEqual(RateFormat.distinct([1.0603, 1.0631]), ["1.060", "1.063"])
    expectEqual(RateFormat.distinct([1.00001, 1.00004], format: RateFormat.rate), ["1.00001", "1.00004"])
    expectEqual(RateFormat.distinct([2, 2]), ["2.00", "2.00"])
  }

  /// Before: with 5 points over 8 columns the peak (point 2) fell between columns 3 and 4
  /// and was drawn at the interpolated 0.86 of its height, below the top row.
  @Test func theLineReachesEveryPointWhenStretched() {
    let values: [Double] = [1, 2, 9, 2, 1]
    for width in 12...40 {
      let lines = LineChart.render(points: Self.series(values), width: width, height: 9, ascii: true)
      let top = lines[0]
      expect(top.contains("*") || top.contains("-"), "width \(width): \(lines)")
      let columns = LineChart.columnValues(values, count: width - 6, low: 1, high: 9)
      for index in values.indices {
        let column = LineChart.cursorColumn(pointIndex: index, pointCount: values.count, plotWidth: columns.count)
        expectEqual(columns[column], values[index], "width \(width), point \(index)")
      }
    }
  }

  /// A sparkline's low and high labels differ too (before: `low 1.0000 … high 1.0000`).
  @Test func sparklineLowAndHighDiffer() {
    let series = RateSeries(
      base: "USDT", quote: "USD", source: .provider(.coinGecko), fetchedAt: fixedNow,
      points: Self.series([1.000_02, 1.000_01, 1.000_04, 1.000_03]))
    let view = HistoryView(
      series: series, staleness: nil, now: fixedNow,
      terminal: TerminalCapabilities(isTTY: false, width: 80, unicode: true, color: false),
      style: Style(enabled: false))
    let report = view.sparklineReport()
    expectContains(report, "low 1.00001 2024-03-02")
    expectContains(report, "high 1.00004 2024-03-03")
  }
}
