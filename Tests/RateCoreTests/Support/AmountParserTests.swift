import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct AmountParserTests {
  @Test(arguments: [
    ("1500", 1500.0), ("1,500.25", 1500.25), ("1e3", 1000), ("0.5", 0.5), ("12,345,678", 12_345_678),
    (" 42 ", 42), ("+7", 7), ("1E-2", 0.01),
  ])
  func accepts(_ text: String, _ value: Double) throws {
    expectEqual(try AmountParser.parse(text).get(), value)
  }

  @Test(arguments: [
    ("-5", AmountParser.Problem.notPositive), ("0", .notPositive), ("abc", .notANumber), ("", .notANumber),
    ("1,5", .ambiguousComma), ("1,50,000", .ambiguousComma), ("1.500,25", .ambiguousComma),
    ("nan", .notANumber), ("inf", .notANumber), ("0x10", .notANumber), ("1e999", .notFinite),
    ("1e16", .tooLarge), ("١٢", .notANumber),
    ("0,500", .decimalComma(suggestion: "0.500")), ("0,001", .decimalComma(suggestion: "0.001")),
    ("-0,5", .decimalComma(suggestion: "-0.5")), ("0,500,000", .ambiguousComma),
    ("01,500", .ambiguousComma), ("00,500", .ambiguousComma),
  ])
  func refuses(_ text: String, _ problem: AmountParser.Problem) {
    expectEqual(AmountParser.parse(text), .failure(problem))
  }

  @Test func aDecimalCommaIsRefusedWithTheAmountWrittenWithAPoint() {
    expectEqual(
      AmountParser.Problem.decimalComma(suggestion: "0.500").sentence(about: "0,500"),
      "the amount '0,500' uses ',' as a decimal point: write 0.500 ('.' for decimals, ','"
        + " only between groups of three digits, as in 1,500.25)")
  }

  @Test(arguments: [("1,500", 1500.0), ("12,345,678.9", 12_345_678.9), ("100,000", 100_000)])
  func realThousandsGroupsStillRead(_ text: String, _ value: Double) throws {
    expectEqual(try AmountParser.parse(text).get(), value)
  }
}
