import Foundation
import RatesExpectations
import Testing

@testable import RateCore

@Suite struct HourlyExportTests {
  let series = Series(
    base: "BTC", quote: "EUR", source: .provider(.coinGecko), fetchedAt: Date(timeIntervalSince1970: 1_718_000_000),
    points: [
      SeriesPoint(date: Date(timeIntervalSince1970: 1_717_977_607.9), rate: 61_022.87),
      SeriesPoint(date: Date(timeIntervalSince1970: 1_718_000_000), rate: 0.30000000000000004),
    ])

  @Test func ledgerDirectivesCarryTheUTCTime() {
    expectEqual(
      PriceExport.directives(series, journal: .ledger),
      "P 2024-06-10 00:00:07 BTC 61022.87 EUR\nP 2024-06-10 06:13:20 BTC 0.30000000000000004 EUR")
  }

  @Test func csvHasATimestampColumn() {
    let lines = PriceExport.csv(series).split(whereSeparator: \.isNewline)
    expectEqual(
      lines,
      [
        "time,base,quote,rate,source", "2024-06-10T00:00:07Z,BTC,EUR,61022.87,coingecko",
        "2024-06-10T06:13:20Z,BTC,EUR,0.30000000000000004,coingecko",
      ])
  }

  @Test func statisticsDateEveryFigureWithItsTime() throws {
    let stats = try require(SeriesStatistics(points: series.points.reversed()))
    expect(stats.first == 61_022.87 && stats.firstDate == series.points[0].date)
    expect(stats.last == 0.30000000000000004 && stats.lastDate == series.points[1].date)
    expect(stats.maxDate == series.points[0].date && stats.minDate == series.points[1].date)
    expectEqual(stats.count, 2)
    // In JSON each dated figure is named after the point's `time` (docs/json.md).
    let json = try require(
      try JSONSerialization.jsonObject(with: JSONCoders.encoder().encode(stats)) as? [String: Any])
    expectEqual(
      Set(json.keys),
      [
        "first", "firstTime", "last", "lastTime", "change", "changePercent", "min", "minTime", "max",
        "maxTime", "mean", "median", "stddev", "count",
      ])
    expect(
      json["firstTime"] as? String == "2024-06-10T00:00:07Z" && json["minTime"] as? String == "2024-06-10T06:13:20Z")
  }

  @Test func onlyCoinPairsWithinNinetyDays() {
    let today = Day(containing: Date(timeIntervalSince1970: 1_718_000_000))
    let coin = PairRoute(provider: .coinGecko, base: "BTC", quote: "EUR", inverted: false)
    let fiat = PairRoute(provider: .frankfurter, base: "GBP", quote: "USD", inverted: false)
    #expect(throws: Never.self) { try HourlyHistory.check(coin, window: today.adding(days: -89)...today, today: today) }
    #expect(throws: HourlyHistory.Refusal.tooOld(first: today.adding(days: -90), earliest: today.adding(days: -89))) {
      try HourlyHistory.check(coin, window: today.adding(days: -90)...today, today: today)
    }
    #expect(throws: HourlyHistory.Refusal.dailyOnly(.frankfurter)) {
      try HourlyHistory.check(fiat, window: today...today, today: today)
    }
  }
}
