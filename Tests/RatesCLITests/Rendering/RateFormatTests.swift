import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct RateFormatTests {
  @Test(arguments: [
    (85_999.0, "85,999.00"),
    (1.23456, "1.23"),
    (1.0, "1.00"),
    (999.995, "1,000.00"),  // binary 999.995 is above .995, so it rounds up
    (1_234_567.891, "1,234,567.89"),
    (100.0, "100.00"),
    (0.3912, "0.3912"),
    (0.5, "0.50"),
    (0.1, "0.10"),
    (0.12, "0.12"),
    (0.123456, "0.1235"),
    (0.00000107, "0.00000107"),
    (0.000123456, "0.0001235"),
    (0.99996, "1.00"),
    (0.0, "0.00"),
    (-0.0, "0.00"),
    (1e-20, "0.00"),
    (-85_999.0, "-85,999.00"),
    (-0.3912, "-0.3912"),
    (-1e-20, "0.00"),
    (Double.nan, "nan"),
    (Double.infinity, "inf"),
    (-Double.infinity, "-inf"),
  ])
  func number(value: Double, expected: String) {
    expectEqual(RateFormat.number(value), expected)
  }

  @Test func hugeValuesDoNotCrash() {
    // Past 10^15, scientific notation: 300 grouped digits would swamp a table.
    expectEqual(RateFormat.number(1e22), "1.000e+22")
    expectEqual(RateFormat.number(Double.greatestFiniteMagnitude), "1.798e+308")
    expectEqual(RateFormat.rate(-3e300), "-3.000e+300")
    expectEqual(RateFormat.compact(2e300), "2.000e+300")
    expectEqual(RateFormat.number(999_999_999_999_999), "999,999,999,999,999.00")
  }

  @Test(arguments: [
    (1_234.5, "+1,234.50"),
    (-3.0, "-3.00"),
    (0.0, "+0.00"),
    (-0.0, "+0.00"),
    (0.05, "+0.05"),
    (-0.3912, "-0.3912"),
    (Double.nan, "nan"),
  ])
  func signed(value: Double, expected: String) {
    expectEqual(RateFormat.signed(value), expected)
  }

  @Test(arguments: [
    (1.23, "+1.23%"),
    (1.234, "+1.23%"),
    (-0.45, "-0.45%"),
    (0.0, "+0.00%"),
    (-0.001, "+0.00%"),
    (1_234.5, "+1,234.50%"),
    (-Double.infinity, "-inf%"),
  ])
  func percent(value: Double, expected: String) {
    expectEqual(RateFormat.percent(value), expected)
  }

  @Test func amount() {
    expectEqual(RateFormat.amount(85_999, code: "EUR"), "85,999.00 EUR")
    expectEqual(RateFormat.amount(0.00000107, code: "BTC"), "0.0000010700 BTC")
  }

  @Test func fixedDecimals() {
    expectEqual(RateFormat.fixed(1_234.5678, decimals: 0), "1,235")
    expectEqual(RateFormat.fixed(-1_234.5678, decimals: 3), "-1,234.568")
    expectEqual(RateFormat.fixed(12, decimals: -4), "12")
  }
}

@Suite struct RateFormatRateTests {
  @Test(arguments: [
    (85_999.0, "85,999.00"), (152.314, "152.31"), (15.42, "15.420"), (1.26341, "1.2634"),
    (1.0, "1.0000"), (0.3912, "0.39120"), (0.00000107, "0.0000010700"), (0.999996, "1.0000"), (0, "0.00"),
    (-1.26341, "-1.2634"),
  ])
  func rate(value: Double, expected: String) {
    expectEqual(RateFormat.rate(value), expected)
  }

  @Test func compactShortensLargeAmounts() {
    expectEqual(RateFormat.compact(1_209_876_543_210), "1.21T")
    expectEqual(RateFormat.compact(397_654_321_098.7), "397.65B")
    expectEqual(RateFormat.compact(12_500), "12.50K")
    expectEqual(RateFormat.compact(999), "999.00")
  }
}
