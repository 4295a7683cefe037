import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// ``RateFormat/exactFixed(_:places:)`` writes exactly what `String(format: "%.Nf")` writes.
@Suite struct RateFormatExactTests {
  @Test func agreesWithPrintfOnTiesEdgesAndRandomValues() {
    var values: [Double] = [
      0, 0.5, 1.5, 2.5, 0.125, 0.375, 1.005, 1.015, 2.675, 0.045, Double.leastNonzeroMagnitude,
      Double.leastNormalMagnitude, 0.00005,
      0.00015, 89_500, 1e15 - 1, 999_999_999_999_999.9, 123_456.789_5, 4.35, 0.1 + 0.2,
    ]
    // Seeded, so a run is repeatable; 10,000 values (50,000 comparisons), sized for a debug build.
    var generator = SeededGenerator(state: 0xF0_12A7)
    for _ in 0..<5_000 {
      let magnitude = Double.random(in: -6...15, using: &generator)
      values.append(Double.random(in: 0..<1, using: &generator) * pow(10, magnitude))
      // Values on a grid of halves at some decimal place: the ties printf rounds to even.
      let places = Int.random(in: 0...4, using: &generator)
      let grid = Double(Int.random(in: 0..<2_000_000, using: &generator)) + 0.5
      values.append(grid / pow(10, Double(places)))
    }
    var mismatches: [String] = []
    for value in values where value < 1e15 {
      for places in 0...4 {
        let expected = String(format: "%.*f", places, value)
        let found = RateFormat.exactFixed(value, places: places)
        if found != expected {
          mismatches.append("\(value) %.\(places)f: \(expected) vs \(found ?? "nil")")
        }
      }
    }
    expectEqual(Array(mismatches.prefix(5)), [])
  }

  @Test func leavesOtherValuesToPrintf() {
    expectEqual(RateFormat.exactFixed(1e15, places: 2), nil)
    expectEqual(RateFormat.exactFixed(-1, places: 2), nil)
    expectEqual(RateFormat.exactFixed(1, places: 5), nil)
    expectEqual(RateFormat.fixed(1e20, decimals: 2), "100,000,000,000,000,000,000.00")
    expectEqual(RateFormat.fixed(-1234.5, decimals: 0), "-1,234")
  }
}
