import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct PriceExportTests {
  static let series = RateSeries(
    base: "BTC", quote: "EUR", source: .provider(.coinGecko), fetchedAt: fixedNow,
    points: [
      RatePoint(date: Day("2024-11-15")!, rate: 85_999),
      RatePoint(date: Day("2024-11-16")!, rate: 85_999, carried: true),
      RatePoint(date: Day("2024-11-17")!, rate: 86_123.456),
    ])

  @Test func directivesInBothJournals() {
    expectEqual(
      PriceExport.directives(Self.series, journal: .ledger),
      "P 2024-11-15 BTC 85999 EUR\nP 2024-11-17 BTC 86123.456 EUR")
    expectEqual(
      PriceExport.directive(
        day: Day("2024-11-15")!, base: .code("BTC"), rate: 85_999, quote: .code("EUR"), journal: .beancount),
      "2024-11-15 price BTC 85999 EUR")
  }

  /// Before: `%.*f` with about ten significant digits (`0.00` for 3.3e-15, `1.234567890`
  /// for 1.2345678901234567).
  @Test func directivesKeepEveryDigitOfTheRate() {
    let day = Day("2024-11-15")!
    expectEqual(
      PriceExport.directive(day: day, base: .code("SHIB"), rate: 3.3e-15, quote: .code("USD"), journal: .ledger),
      "P 2024-11-15 SHIB 0.0000000000000033 USD")
    expectEqual(
      PriceExport.directive(
        day: day, base: .code("BTC"), rate: 1.2345678901234567, quote: .code("EUR"), journal: .beancount),
      "2024-11-15 price BTC 1.2345678901234567 EUR")
    expectEqual(
      PriceExport.directive(day: day, base: .code("BTC"), rate: 1e21, quote: .code("EUR"), journal: .beancount),
      "2024-11-15 price BTC 1000000000000000000000 EUR")
    expectEqual(
      PriceExport.directive(day: day, base: .code("BTC"), rate: .nan, quote: .code("EUR"), journal: .ledger), nil)
  }

  @Test func commoditiesAreJournalSafe() {
    expectEqual(CommodityName.code("ethereum-wormhole").name, "ETHEREUM-WORMHOLE")
    expectEqual(CommodityName.code("ethereum-wormhole").ledger, "\"ETHEREUM-WORMHOLE\"")
    expectEqual(CommodityName.code("btc").ledger, "BTC")
    expectEqual(
      PriceExport.directive(
        day: Day("2024-11-15")!, base: .coin(id: "1inch"), rate: 0.25, quote: .code("EUR"), journal: .ledger),
      "P 2024-11-15 \"X'1INCH\" 0.25 EUR")
  }

  @Test func csvHasAHeaderAndQuotesWhatNeedsIt() {
    let text = PriceExport.csv(Self.series)
    let lines = text.components(separatedBy: "\r\n")
    expectEqual(lines.first, "date,base,quote,rate,carried,source")
    expectEqual(lines[1], "2024-11-15,BTC,EUR,85999,false,coingecko")
    expect(lines[2].hasSuffix(",true,coingecko"))
    let quote = Quote(
      base: "A,B", quote: "EUR", rate: 2, change24hPercent: nil, source: .ledger, fetchedAt: fixedNow, updatedAt: nil)
    expect(PriceExport.csv(quotes: [(quote, false)]).contains("\"A,B\",EUR,2,,1d,,ledger,2024-06-10T06:13:20Z,false"))
  }

  /// Quote CSV columns speak the JSON vocabulary: an ECB rate's change is a working
  /// day's (`1d`), a coin's 24 hours.
  @Test func quoteCSVLabelsEachChangeWithItsTruePeriod() {
    let ecb = Quote(
      base: "GBP", quote: "USD", rate: 1.25, change24hPercent: 0.5, source: .provider(.frankfurter),
      fetchedAt: fixedNow, updatedAt: nil)
    let coin = Quote(
      base: "BTC", quote: "EUR", rate: 85_999, change24hPercent: -1.5, source: .provider(.coinGecko),
      fetchedAt: fixedNow, updatedAt: nil)
    let lines = PriceExport.csv(quotes: [(ecb, false), (coin, false)]).split(separator: "\r\n")
    expectEqual(lines.first, "base,quote,rate,changePercent,changePeriod,updatedAt,source,fetchedAt,stale")
    expect(lines[1].hasPrefix("GBP,USD,1.25,0.5,1d,"))
    expect(lines[2].hasPrefix("BTC,EUR,85999,-1.5,24h,"))
  }
}
