import Foundation
import Testing
@testable import RateCore
import RatesTestSupport

@Suite struct PriceExportTests {
  static let series = RateSeries(
    base: "BTC", quote: "EUR", source: "coingecko", fetchedAt: fixedNow,
    points: [
      RatePoint(date: Day("2024-11-15")!, rate: 85_999),
      RatePoint(date: Day("2024-11-16")!, rate: 85_999, carried: true),
      RatePoint(date: Day("2024-11-17")!, rate: 86_123.456),
    ])

  @Test func directivesInBothJournals() {
    #expect(
      PriceExport.directives(Self.series, journal: .ledger)
        == "P 2024-11-15 BTC 85999.00 EUR\nP 2024-11-17 BTC 86123.456 EUR")
    #expect(
      PriceExport.directive(day: Day("2024-11-15")!, base: "BTC", rate: 85_999, quote: "EUR", journal: .beancount)
        == "2024-11-15 price BTC 85999.00 EUR")
  }

  @Test(arguments: [
    (85_999.0, "85999.00"), (1.26341, "1.26341"), (0.00001515, "0.00001515"), (1_234_567.891, "1234567.891"),
    (1e-9, "0.000000001"), (0, "0.00"),
  ])
  func plainNumbersHaveNoGroupingOrExponent(_ value: Double, _ text: String) {
    #expect(PriceExport.plain(value) == text)
  }

  @Test func commoditiesAreJournalSafe() {
    #expect(PriceExport.commodity("ethereum-wormhole") == "ETHEREUM-WORMHOLE")
    #expect(PriceExport.commodity("1inch") == "X1INCH")
    #expect(PriceExport.commodity("a b\u{1B}") == "A_B")
    #expect(PriceExport.commodity("x'") == "X")
    #expect(PriceExport.ledgerCommodity("ethereum-wormhole") == "\"ETHEREUM-WORMHOLE\"")
    #expect(PriceExport.ledgerCommodity("btc") == "BTC")
    #expect(
      PriceExport.directive(day: Day("2024-11-15")!, base: "1inch", rate: 0.25, quote: "EUR", journal: .ledger)
        == "P 2024-11-15 \"1INCH\" 0.25 EUR")
  }

  @Test func csvHasAHeaderAndQuotesWhatNeedsIt() {
    let text = PriceExport.csv(Self.series)
    let lines = text.components(separatedBy: "\r\n")
    #expect(lines.first == "date,base,quote,rate,carried,source")
    #expect(lines[1] == "2024-11-15,BTC,EUR,85999.00,false,coingecko")
    #expect(lines[2].hasSuffix(",true,coingecko"))
    let quote = Quote(
      base: "A,B", quote: "EUR", rate: 2, change24hPercent: nil, source: "x", fetchedAt: fixedNow, updatedAt: nil)
    #expect(PriceExport.csv(quotes: [(quote, false)]).contains("\"A,B\",EUR,2.00,,,x,2024-06-10T06:13:20Z,false"))
  }
}
