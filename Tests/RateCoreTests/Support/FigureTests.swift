import RatesExpectations
import Testing

@testable import RateCore

/// The one rule for a computed figure's precision in JSON and CSV.
@Suite struct FigureTests {
  static let ratios: [(Double, String)] = [
    (85_999.1 - 83_810.0, "2189.1"), (0.1 + 0.2, "0.3"), (1.0855 - 1.0854, "0.0001"),
    (2.0 / 3.0, "0.6666666667"), (-0.000_000_000_01 * 1e-10, "-1e-21"), (-1e-300 * 1e-300, "0.0"),
    (123_456_789_012_345, "123456789000000.0"), (1.2634, "1.2634"),
  ]

  @Test(arguments: ratios)
  func aComputedRatioKeepsTenSignificantDigits(_ value: Double, _ written: String) {
    expectEqual(Figure.ratio(value).description, written)
  }

  static let amounts: [(Double, String, String)] = [
    (0.5 * 85_999.123, "USD", "42999.56"), (0.1 + 0.2, "EUR", "0.3"), (15_231.4999, "JPY", "15231.0"),
    (1.2504999, "KWD", "1.25"), (0.1 + 0.2, "BTC", "0.3"), (0.000_612_34, "EUR", "0.000612"),
    (-0.001, "USD", "-0.001"), (-0.0, "USD", "0.0"), (-0.000_000_001, "BTC", "-1e-09"),
    (-1_164.949_999_9, "USD", "-1164.95"),
  ]

  @Test(arguments: amounts)
  func aComputedAmountKeepsItsCurrencysMinorUnit(_ value: Double, _ code: String, _ written: String) {
    expectEqual(Figure.money(value, code: CurrencyCode(code)).description, written)
  }

  @Test func aDifferenceHasThePrecisionOfWhatItIsTheDifferenceOf() {
    expectEqual(Figure.money(100 - 99.999_999_999_999_99, code: "USD", scale: 100), 0)
    expectEqual(Figure.money(100.0 - 100.000_000_000_000_01, code: "USD", scale: 100).sign, .plus)
    expectEqual(Figure.money(0.000_012 - 0.000_01, code: "USD", scale: 0.000_012), 0.000_002)
    expectEqual(Figure.money(1_164.951, code: "USD", scale: .nan), 1_164.95)
  }

  @Test func neverANegativeZero() {
    expectEqual(Figure.ratio(-0.0).sign, .plus)
    expectEqual(Figure.money(-0.0, code: "USD").sign, .plus)
    expectEqual(Figure.money(-0.0, code: "JPY").sign, .plus)
  }

  @Test func notFiniteStaysAsItIs() {
    expectEqual(Figure.ratio(.infinity), .infinity)
    expect(Figure.ratio(.nan).isNaN)
    expectEqual(Figure.money(-.infinity, code: "USD"), -.infinity)
    expectEqual(Figure.ratio(nil as Double?), nil)
  }

  /// Property: a rounded ratio is within half a unit of its 10th digit and is written with
  /// at most 10 significant digits.
  @Test func roundedRatiosAreShortAndClose() {
    var state: UInt64 = 0x5EED
    for _ in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let value = Double(bitPattern: state >> 2 | 0x3000_0000_0000_0000) * (state & 1 == 0 ? 1 : -1)
      guard value.isFinite, value != 0 else { continue }
      let rounded = Figure.ratio(value)
      let digits = DecimalText.shortest(rounded)?.filter(\.isNumber)
        .drop { $0 == "0" }.reversed().drop { $0 == "0" }
      expect((digits?.count ?? 99) <= 10, "\(value) → \(rounded)")
      expect(abs(rounded - value) <= abs(value) * 5.000_001e-10, "\(value) → \(rounded)")
    }
  }
}
