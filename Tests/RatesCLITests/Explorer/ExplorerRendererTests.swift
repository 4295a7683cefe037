import Foundation
import Testing

@testable import RateCore
@testable import RatesCLI
import RatesTestSupport

@Suite struct ExplorerRendererTests {
  static let plain = Style(enabled: false)

  static func state(_ rates: [Double], cursor: Int? = nil, carried: Set<Int> = []) -> ExplorerState
  {
    let series = ExplorerStateTests.series(rates, carried: carried)
    guard let cursor else { return ExplorerState(series: series) }
    return ExplorerState(series: series, cursor: cursor)
  }

  static func wave(_ count: Int) -> [Double] {
    (0..<count).map { 85_000 + 1_500 * sin(Double($0) / 4) }
  }

  @Test(arguments: [40, 80])
  func fitsTheWindow(width: Int) {
    for count in [1, 2, 28, 365] {
      for height in [24, 12, 6, 3] {
        for ascii in [false, true] {
          for style in [Self.plain, Style(enabled: true)] {
            let lines = ExplorerRenderer.render(
              Self.state(Self.wave(count), cursor: count / 3, carried: [0]), width: width,
              height: height, style: style, ascii: ascii)
            #expect(lines.count <= height)
            #expect(lines.allSatisfy { TerminalText.displayWidth($0) <= width })
          }
        }
      }
    }
  }

  @Test func fullFrameLayout() {
    let lines = ExplorerRenderer.render(
      Self.state([100, 110, 99], cursor: 1), width: 80, height: 24, style: Self.plain, ascii: false)
    #expect(lines.count == 24)
    #expect(lines[0] == "BTC/EUR  3 days  2024-03-01 to 2024-03-03  CoinGecko")
    #expect(lines[1] == "")
    // The chart fills the rest: 24 - header 2 - axis - blank - info - help = 18 rows.
    #expect(lines[2].hasPrefix("110.00 ┤"))
    #expect(lines[19].hasPrefix(" 99.00 ┤"))
    #expect(lines[20].hasPrefix("        2024-03-01"))
    #expect(lines[21] == "")
    #expect(lines[22] == "2024-03-02  110.00 EUR  change +10.00 (+10.00%)  2/3")
    #expect(lines[23] == "←/→ h/l day   Home/End g/G first/last   q quit")
  }

  @Test func infoLineOnTheFirstDayAndCarriedDays() {
    let first = ExplorerRenderer.infoLines(
      Self.state([100, 110], cursor: 0), width: 80, style: Self.plain, ascii: false)
    #expect(first == ["2024-03-01  100.00 EUR  change —  1/2"])
    let ascii = ExplorerRenderer.infoLines(
      Self.state([100, 110], cursor: 0), width: 80, style: Self.plain, ascii: true)
    #expect(ascii == ["2024-03-01  100.00 EUR  change -  1/2"])
    let carried = ExplorerRenderer.infoLines(
      Self.state([100, 100, 90], cursor: 1, carried: [1]), width: 80, style: Self.plain,
      ascii: false)
    #expect(carried == ["2024-03-02  100.00 EUR  change +0.00 (+0.00%)  carried  2/3"])
    let fall = ExplorerRenderer.infoLines(
      Self.state([100, 100, 90]), width: 80, style: Self.plain, ascii: false)
    #expect(fall == ["2024-03-03  90.000 EUR  change -10.000 (-10.00%)  3/3"])
  }

  @Test func infoUsesRateFormatAndColours() {
    let rates = [84_765.25, 85_999.75]
    let lines = ExplorerRenderer.infoLines(
      Self.state(rates), width: 120, style: Style(enabled: true), ascii: false)
    let text = lines.joined()
    #expect(text.contains(RateFormat.rate(85_999.75) + " EUR"))
    #expect(text.contains("\u{1B}[32m" + RateFormat.signed(1_234.5) + " ("))
    #expect(text.contains(RateFormat.percent(1_234.5 / 84_765.25 * 100)))
  }

  @Test func infoSplitsInTwoWhenNarrow() {
    let state = Self.state([84_765.25, 85_999.75])
    let wide = ExplorerRenderer.infoLines(state, width: 80, style: Self.plain, ascii: false)
    #expect(wide.count == 1)
    let narrow = ExplorerRenderer.infoLines(state, width: 40, style: Self.plain, ascii: false)
    #expect(narrow == ["2024-03-02  85,999.75 EUR  2/2", "change +1,234.50 (+1.46%)"])
    let frame = ExplorerRenderer.render(
      state, width: 40, height: 24, style: Self.plain, ascii: false)
    #expect(Array(frame.suffix(3).prefix(2)) == narrow)
    #expect(frame.last == "←/→ h/l  g/G  q quit")
  }

  @Test(arguments: [1, 2, 90])
  func cursorColumnInTheFrame(count: Int) throws {
    for width in [40, 80] {
      for cursor in Set([0, count - 1, count / 2]) {
        let state = Self.state(Self.wave(count), cursor: cursor)
        let frame = ExplorerRenderer.render(
          state, width: width, height: 20, style: Self.plain, ascii: true)
        // Header, blank, chart rows, date axis, blank, info (one or two lines), help.
        let info = ExplorerRenderer.infoLines(state, width: width, style: Self.plain, ascii: true)
        let rows = frame.count - 5 - info.count
        let plain = LineChart.render(
          points: state.series.points, width: width, height: rows, ascii: true)
        let marked = LineChart.render(
          points: state.series.points, width: width, height: rows, ascii: true, cursor: cursor)
        #expect(Array(frame[2..<(frame.count - 2 - info.count)]) == marked)
        let labelled = try #require(plain.first { $0.contains("+") })
        let tick = try #require(labelled.firstIndex(of: "+"))
        let plotStart = labelled.distance(from: labelled.startIndex, to: tick) + 1
        let column =
          plotStart
          + LineChart.cursorColumn(
            pointIndex: cursor, pointCount: count, plotWidth: width - plotStart)
        let changed = LineChartCursorTests.differences(marked, plain)
        #expect(!changed.isEmpty)
        #expect(changed.allSatisfy { $0.column == column && $0.character == "|" })
        if count == 1 { #expect(column == plotStart) }
        if count == 2 && cursor == 1 { #expect(column == width - 1) }
        if count == 90 && cursor == 89 { #expect(column == width - 1) }
      }
    }
  }

  @Test func shortWindowDropsTheHeaderFirst() {
    let lines = ExplorerRenderer.render(
      Self.state(Self.wave(28)), width: 80, height: 7, style: Self.plain, ascii: false)
    #expect(lines.count == 7)
    #expect(!lines[0].contains("BTC/EUR"))
    #expect(lines[5].hasPrefix("2024-03-28"))
    #expect(lines[6].contains("q quit"))
  }

  @Test func emptySeries() {
    let lines = ExplorerRenderer.render(
      Self.state([]), width: 40, height: 10, style: Self.plain, ascii: false)
    #expect(lines.contains("no data"))
    #expect(lines.count <= 10)
  }
}
