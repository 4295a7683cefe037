import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The one number formatter of every export: shortest round-tripping digits, no exponent.
@Suite struct DecimalTextTests {
  static let table: [(Double, String)] = [
    (3.3e-15, "0.0000000000000033"), (1e21, "1000000000000000000000"), (85_999, "85999"),
    (0.1 + 0.2, "0.30000000000000004"), (1.26341, "1.26341"), (0.00001515, "0.00001515"),
    (-2.5e-7, "-0.00000025"), (0, "0"), (-0.0, "0"), (123_456_789.012_345_68, "123456789.01234569"),
    (.leastNonzeroMagnitude, "0." + String(repeating: "0", count: 323) + "5"),
    (.greatestFiniteMagnitude, "17976931348623157" + String(repeating: "0", count: 292)),
  ]

  @Test(arguments: table)
  func writesTheShortestPlainDigits(_ value: Double, _ text: String) {
    expectEqual(DecimalText.shortest(value), text)
  }

  @Test func nonFiniteValuesHaveNoText() {
    expectEqual(DecimalText.shortest(.nan), nil)
    expectEqual(DecimalText.shortest(.infinity), nil)
    expectEqual(DecimalText.shortest(-.infinity), nil)
  }

  /// Property: over many doubles of every magnitude, the text parses back to the same
  /// `Double`, is plain (digits, at most one point, an optional sign) and has exactly the
  /// significant digits of Swift's shortest description.
  @Test func everyFiniteDoubleReadsBackExactly() {
    var generator = SeededGenerator(state: 0x5EED)
    var values: [Double] = []
    // Sized for a debug build (each value costs three expectations): 4,000 random values
    // and every power of ten, rather than the 20,000 values it once took 2 CPU-s to check.
    for _ in 0..<2_000 {  // any bit pattern: subnormals, huge, tiny
      values.append(Double(bitPattern: generator.next()))
    }
    for _ in 0..<2_000 {  // prices as APIs send them: a few digits at any scale
      let digits = Double(generator.next() % 10_000_000)
      let scale = Int(generator.next() % 40) - 25
      values.append(digits * pow(10, Double(scale)))
    }
    for exponent in -330...308 { values += [pow(10, Double(exponent)), 3.3 * pow(10, Double(exponent))] }
    var checked = 0
    for value in values where value.isFinite {
      guard let text = DecimalText.shortest(value) else {
        Issue.record("no text for \(value)")
        continue
      }
      expectEqual(Double(text), value, "\(value) → \(text)")
      expect(text.allSatisfy { $0.isNumber || $0 == "." || $0 == "-" }, "\(text)")
      expectEqual(significantDigits(text), significantDigits(value.magnitude.description), "\(value) → \(text)")
      checked += 1
    }
    expect(checked > 4_800)
  }

  /// The digits between the first and the last non-zero digit (exponent left out).
  func significantDigits(_ text: String) -> String {
    let mantissa = text.split(whereSeparator: { $0 == "e" || $0 == "E" }).first.map(String.init) ?? text
    let digits = mantissa.filter(\.isNumber)
    return String(digits.drop { $0 == "0" }.reversed().drop { $0 == "0" }.reversed())
  }
}
