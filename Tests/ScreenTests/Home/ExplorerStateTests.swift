import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct ExplorerStateTests {
  static let start = Day(daysSinceEpoch: 19_783)  // 2024-03-01

  static func series(_ rates: [Double], carried: Set<Int> = []) -> RateSeries {
    RateSeries(
      base: "BTC", quote: "EUR", source: .provider(.coinGecko), fetchedAt: Date(timeIntervalSince1970: 0),
      points: rates.enumerated().map {
        RatePoint(
          date: start.adding(days: $0.offset), rate: $0.element,
          carried: carried.contains($0.offset))
      })
  }

  @Test func startsOnTheLastDay() {
    let state = ExplorerState(series: Self.series([1, 2, 3]))
    #expect(state.cursor == 2)
    #expect(state.selected?.rate == 3)
    #expect(state.previous?.rate == 2)
  }

  @Test func arrowsMoveOneDayAndStopAtTheEnds() {
    var state = ExplorerState(series: Self.series([1, 2, 3]))
    #expect(state.apply(.right) == .unchanged)
    #expect(state.cursor == 2)
    #expect(state.apply(.left) == .moved)
    #expect(state.apply(.left) == .moved)
    #expect(state.cursor == 0)
    #expect(state.previous == nil)
    #expect(state.apply(.left) == .unchanged)
    #expect(state.cursor == 0)
    #expect(state.apply(.right) == .moved)
    #expect(state.cursor == 1)
  }

  @Test func homeAndEndJump() {
    var state = ExplorerState(series: Self.series(Array(repeating: 5, count: 90)))
    #expect(state.apply(.home) == .moved)
    #expect(state.cursor == 0)
    #expect(state.apply(.home) == .unchanged)
    #expect(state.apply(.end) == .moved)
    #expect(state.cursor == 89)
    #expect(state.apply(.end) == .unchanged)
  }

  @Test func quitKeys() {
    var state = ExplorerState(series: Self.series([1, 2]))
    #expect(state.apply(.quit) == .quit)
    #expect(state.apply(.escape) == .quit)
    #expect(state.apply(.interrupt) == .interrupt)
    #expect(state.cursor == 1)
  }

  @Test func onePointAndNoPoint() {
    var one = ExplorerState(series: Self.series([7]))
    #expect(one.cursor == 0)
    for key in [ExplorerKey.left, .right, .home, .end] { #expect(one.apply(key) == .unchanged) }
    var none = ExplorerState(series: Self.series([]))
    #expect(none.cursor == 0)
    #expect(none.selected == nil)
    #expect(none.apply(.left) == .unchanged)
    #expect(none.apply(.end) == .unchanged)
  }

  @Test func explicitCursorIsClamped() {
    #expect(ExplorerState(series: Self.series([1, 2, 3]), cursor: 9).cursor == 2)
    #expect(ExplorerState(series: Self.series([1, 2, 3]), cursor: -4).cursor == 0)
  }
}
