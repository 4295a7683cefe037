import Testing
@testable import RateCore
import RatesTestSupport

@Suite struct AmountParserTests {
  @Test(arguments: [
    ("1500", 1500.0), ("1,500.25", 1500.25), ("1e3", 1000), ("0.5", 0.5), ("12,345,678", 12_345_678),
    (" 42 ", 42), ("+7", 7), ("1E-2", 0.01),
  ])
  func accepts(_ text: String, _ value: Double) throws {
    #expect(try AmountParser.parse(text).get() == value)
  }

  @Test(arguments: [
    ("-5", AmountParser.Problem.notPositive), ("0", .notPositive), ("abc", .notANumber), ("", .notANumber),
    ("1,5", .ambiguousComma), ("1,50,000", .ambiguousComma), ("1.500,25", .ambiguousComma),
    ("nan", .notANumber), ("inf", .notANumber), ("0x10", .notANumber), ("1e999", .notFinite),
    ("1e16", .tooLarge), ("١٢", .notANumber),
  ])
  func refuses(_ text: String, _ problem: AmountParser.Problem) {
    #expect(AmountParser.parse(text) == .failure(problem))
  }
}
