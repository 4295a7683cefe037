import RatesExpectations
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
    expectEqual(state.cursor, 2)
    expectEqual(state.selected?.rate, 3)
    expectEqual(state.previous?.rate, 2)
  }

  @Test func arrowsMoveOneDayAndStopAtTheEnds() {
    var state = ExplorerState(series: Self.series([1, 2, 3]))
    expectEqual(state.apply(.right), .unchanged)
    expectEqual(state.cursor, 2)
    expectEqual(state.apply(.left), .moved)
    expectEqual(state.apply(.left), .moved)
    expectEqual(state.cursor, 0)
    expectEqual(state.previous, nil)
    expectEqual(state.apply(.left), .unchanged)
    expectEqual(state.cursor, 0)
    expectEqual(state.apply(.right), .moved)
    expectEqual(state.cursor, 1)
  }

  @Test func homeAndEndJump() {
    var state = ExplorerState(series: Self.series(Array(repeating: 5, count: 90)))
    expectEqual(state.apply(.home), .moved)
    expectEqual(state.cursor, 0)
    expectEqual(state.apply(.home), .unchanged)
    expectEqual(state.apply(.end), .moved)
    expectEqual(state.cursor, 89)
    expectEqual(state.apply(.end), .unchanged)
  }

  @Test func quitKeys() {
    var state = ExplorerState(series: Self.series([1, 2]))
    expectEqual(state.apply(.quit), .quit)
    expectEqual(state.apply(.escape), .quit)
    expectEqual(state.apply(.interrupt), .interrupt)
    expectEqual(state.cursor, 1)
  }

  @Test func onePointAndNoPoint() {
    var one = ExplorerState(series: Self.series([7]))
    expectEqual(one.cursor, 0)
    for key in [ExplorerKey.left, .right, .home, .end] { expectEqual(one.apply(key), .unchanged) }
    var none = ExplorerState(series: Self.series([]))
    expectEqual(none.cursor, 0)
    expectEqual(none.selected, nil)
    expectEqual(none.apply(.left), .unchanged)
    expectEqual(none.apply(.end), .unchanged)
  }

  @Test func explicitCursorIsClamped() {
    expectEqual(ExplorerState(series: Self.series([1, 2, 3]), cursor: 9).cursor, 2)
    expectEqual(ExplorerState(series: Self.series([1, 2, 3]), cursor: -4).cursor, 0)
  }
}
