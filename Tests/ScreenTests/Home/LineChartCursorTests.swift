import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct LineChartCursorTests {
  static let start = Day(daysSinceEpoch: 19_783)  // 2024-03-01

  static func points(_ count: Int) -> [RatePoint] {
    (0..<count).map {
      RatePoint(date: start.adding(days: $0), rate: 100 + 10 * sin(Double($0) / 3))
    }
  }

  /// The character columns where `with` differs from `without`, and what they became.
  static func differences(_ with: [String], _ without: [String]) -> [(
    line: Int, column: Int, character: Character
  )] {
    var result: [(Int, Int, Character)] = []
    for (index, (a, b)) in zip(with, without).enumerated() {
      let a = Array(a)
      let b = Array(b)
      for column in 0..<max(a.count, b.count) {
        let left = column < a.count ? a[column] : " "
        let right = column < b.count ? b[column] : " "
        if left != right { result.append((index, column, left)) }
      }
    }
    return result
  }

  @Test func onePointIsColumnZero() {
    expectEqual(LineChart.cursorColumn(pointIndex: 0, pointCount: 1, plotWidth: 30), 0)
  }

  @Test func twoPointsAreTheFirstAndLastColumns() {
    expectEqual(LineChart.cursorColumn(pointIndex: 0, pointCount: 2, plotWidth: 30), 0)
    expectEqual(LineChart.cursorColumn(pointIndex: 1, pointCount: 2, plotWidth: 30), 29)
  }

  @Test func stretchedPointsMapBackToThemselves() {
    for count in [3, 7, 28, 30] {
      for index in 0..<count {
        let column = LineChart.cursorColumn(pointIndex: index, pointCount: count, plotWidth: 30)
        expectEqual(LineChart.pointIndex(column: column, count: 30, total: count), index)
      }
    }
  }

  @Test func bucketedPointsLandInTheirBucket() {
    for (count, width) in [(31, 30), (90, 30), (365, 68), (365, 7)] {
      var columns: [Int] = []
      for index in 0..<count {
        let column = LineChart.cursorColumn(pointIndex: index, pointCount: count, plotWidth: width)
        expect(LineChart.bucketRange(column, count: width, total: count).contains(index))
        columns.append(column)
      }
      expectEqual(columns.first, 0)
      expectEqual(columns.last, width - 1)
      expectEqual(columns, columns.sorted())
    }
  }

  @Test(arguments: [1, 2, 5, 28, 90, 365])
  func markerIsOneVerticalColumnAtThePoint(count: Int) throws {
    let points = Self.points(count)
    for ascii in [false, true] {
      let plain = LineChart.render(points: points, width: 40, height: 8, ascii: ascii)
      let axis: Character = ascii ? "+" : "┤"
      let labelled = try require(plain.first { $0.contains(axis) })
      let tick = try require(labelled.firstIndex(of: axis))
      let plotStart = labelled.distance(from: labelled.startIndex, to: tick) + 1
      let plotWidth = 40 - plotStart
      for cursor in Set([0, count / 2, count - 1]) {
        let marked = LineChart.render(
          points: points, width: 40, height: 8, ascii: ascii, cursor: cursor)
        expectEqual(marked.count, plain.count)
        expectEqual(marked.last, plain.last, "the date axis is unchanged")
        let changes = Self.differences(marked, plain)
        let expected =
          plotStart
          + LineChart.cursorColumn(pointIndex: cursor, pointCount: count, plotWidth: plotWidth)
        expect(!changes.isEmpty)
        expect(changes.allSatisfy { $0.column == expected }, "\(count) points, cursor \(cursor)")
        expect(changes.allSatisfy { $0.character == (ascii ? "|" : "│") })
        expect(marked.allSatisfy { TerminalText.displayWidth($0) <= 40 })
      }
    }
  }

  @Test func noMarkerForNilOrOutOfRange() {
    let points = Self.points(10)
    let plain = LineChart.render(points: points, width: 40, height: 6, ascii: false)
    expectEqual(
      LineChart.render(points: points, width: 40, height: 6, ascii: false, cursor: nil), plain)
    expectEqual(
      LineChart.render(points: points, width: 40, height: 6, ascii: false, cursor: 10), plain)
    expectEqual(
      LineChart.render(points: points, width: 40, height: 6, ascii: false, cursor: -1), plain)
  }

  /// A day without a rate (a non-finite point) is a gap that keeps its place:
  /// the cursor on it marks its blank column, and counts it like any day.
  @Test func aGapKeepsItsColumnAndTheCursorMarksIt() {
    var points = Self.points(10)
    points[4].rate = .nan
    let withGap = LineChart.render(points: points, width: 40, height: 6, ascii: false)
    let onGap = LineChart.render(points: points, width: 40, height: 6, ascii: false, cursor: 4)
    let gapColumn = LineChart.cursorColumn(pointIndex: 4, pointCount: 10, plotWidth: 32)
    let marked = Self.differences(onGap, withGap)
    expect(!marked.isEmpty && marked.allSatisfy { $0.column == 8 + gapColumn }, "\(onGap)")
    expectEqual(marked.count, 6, "the whole blank column is marked")
    let last = LineChart.render(points: points, width: 40, height: 6, ascii: false, cursor: 9)
    expect(Self.differences(last, withGap).allSatisfy { $0.column == 39 })
  }
}
