import Foundation
import Testing

@testable import RateCore

@Suite struct HourlyExportTests {
  let series = HourlySeries(
    base: "BTC", quote: "EUR", source: .provider(.coinGecko), fetchedAt: Date(timeIntervalSince1970: 1_718_000_000),
    points: [
      TimedRate(time: Date(timeIntervalSince1970: 1_717_977_607.9), rate: 61_022.87),
      TimedRate(time: Date(timeIntervalSince1970: 1_718_000_000), rate: 0.30000000000000004),
    ])

  @Test func ledgerDirectivesCarryTheUTCTime() {
    #expect(
      PriceExport.ledgerDirectives(series)
        == "P 2024-06-10 00:00:07 BTC 61022.87 EUR\nP 2024-06-10 06:13:20 BTC 0.30000000000000004 EUR")
  }

  @Test func csvHasATimestampColumn() {
    let lines = PriceExport.csv(series).split(whereSeparator: \.isNewline)
    #expect(
      lines == [
        "time,base,quote,rate,source", "2024-06-10T00:00:07Z,BTC,EUR,61022.87,coingecko",
        "2024-06-10T06:13:20Z,BTC,EUR,0.30000000000000004,coingecko",
      ])
  }

  @Test func statisticsDateEveryFigureWithItsTime() throws {
    let stats = try #require(HourlyStatistics(points: series.points.reversed()))
    #expect(stats.first == 61_022.87 && stats.firstTime == series.points[0].time)
    #expect(stats.last == 0.30000000000000004 && stats.lastTime == series.points[1].time)
    #expect(stats.maxTime == series.points[0].time && stats.minTime == series.points[1].time)
    #expect(stats.count == 2)
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
