import Foundation
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Fixed data for the detail, search and picker screens' tests: Wednesday 2026-11-25 12:00 UTC.
enum HomeScreenFixtures {
  static let now = Date(timeIntervalSince1970: 1_795_608_000)  // 2026-11-25 12:00 UTC
  static let today = Day(containing: now)
  static let plain = Style(enabled: false)
  static let color = Style(enabled: true)

  static let bitcoin = HomeRow(
    kind: .top, id: "bitcoin", symbol: "BTC", name: "Bitcoin", currency: "USD", rate: 86_000,
    changePercent: 1.5, changePeriod: .hours24, week: [80_000, 82_000, 86_000])

  static let gbpUSD = HomeRow(
    kind: .pair, id: "GBP-USD", symbol: "GBP/USD", name: "GBP-USD", currency: "USD",
    rate: 1.2634, changePercent: 0.12, changePeriod: .workingDay, week: [1.25, 1.26, 1.2634])

  /// `count` days ending today, a gentle wave.
  static func coinSeries(days count: Int = 30, last: Double = 85_500) -> RateSeries {
    let points = (0..<count).map { offset in
      RatePoint(
        date: today.adding(days: offset - count + 1),
        rate: offset == count - 1 ? last : 80_000 + 3_000 * sin(Double(offset) / 3))
    }
    return RateSeries(base: "BTC", quote: "USD", source: .provider(.coinGecko), fetchedAt: now, points: points)
  }

  /// `count` days ending today; Saturdays and Sundays carry Friday's rate.
  static func pairSeries(days count: Int = 14) -> RateSeries {
    var points: [RatePoint] = []
    for offset in 0..<count {
      let day = today.adding(days: offset - count + 1)
      let weekend = day.isoWeekday >= 6
      let rate = weekend ? (points.last?.rate ?? 1.25) : 1.25 + Double(offset % 5) / 1_000
      points.append(RatePoint(date: day, rate: rate, carried: weekend))
    }
    return RateSeries(base: "GBP", quote: "USD", source: .provider(.frankfurter), fetchedAt: now, points: points)
  }

  static let market = CoinMarket(
    id: "bitcoin", symbol: "BTC", name: "Bitcoin", currentPrice: 85_500, marketCap: 1.702e12,
    marketCapRank: 1, totalVolume: 31.23e9, high24h: 86_400, low24h: 84_100,
    priceChangePercentage24h: 1.5, circulatingSupply: 19.8e6, totalSupply: 19.8e6, maxSupply: 21e6,
    ath: 126_080, athChangePercentage: -32.2, athDate: Date(timeIntervalSince1970: 1_759_708_800),
    atl: 67.81, atlChangePercentage: 126_000, atlDate: Date(timeIntervalSince1970: 1_373_068_800),
    lastUpdated: now, sparkline7d: nil)

  static func coinDetail(days: Int = 30, stale: Bool = false, market: CoinMarket? = market) -> HomeDetail {
    HomeDetail(
      rowID: "bitcoin", currency: "USD", days: days, market: market,
      series: coinSeries(days: days), fetchedAt: now.addingTimeInterval(-300), stale: stale)
  }

  static func pairDetail(days: Int = 30) -> HomeDetail {
    HomeDetail(
      rowID: "GBP-USD", currency: "USD", days: days, market: nil, series: pairSeries(days: days),
      fetchedAt: now, stale: false)
  }

  static let pickerCurrencies = Array(FiatCurrencies.ecb.keys)

  static func state(lists: HomeLists = HomeLists()) -> HomeState {
    HomeState(currencies: ["USD", "EUR"], lists: lists, pickerCurrencies: pickerCurrencies, now: now)
  }

  /// A state on the detail of `row`, loaded with `data` when given.
  static func onDetail(_ row: HomeRow = bitcoin, data: HomeDetail? = nil, lists: HomeLists = HomeLists())
    -> HomeState
  {
    var state = state(lists: lists)
    _ = state.openDetail(row)
    if let data {
      _ = state.handle(.detail(data))
      _ = state.handle(.status(.idle))  // the load ended
    }
    return state
  }

  static func frame(_ state: HomeState, _ width: Int, _ height: Int, color: Bool = false, ascii: Bool = false)
    -> [String]
  {
    HomeRenderer.render(state, width: width, height: height, style: color ? Self.color : plain, ascii: ascii)
  }

  /// Checks the frame fits and compares it with `Golden/Home/<name>.txt`.
  static func checkGolden(
    _ state: HomeState, _ name: String, _ width: Int, _ height: Int, color: Bool = false,
    ascii: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let lines = frame(state, width, height, color: color, ascii: ascii)
    #expect(lines.count <= height, sourceLocation: sourceLocation)
    #expect(lines.allSatisfy { TerminalText.displayWidth($0) <= width }, sourceLocation: sourceLocation)
    if ascii { #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) }, sourceLocation: sourceLocation) }
    if !color { #expect(!lines.joined().contains("\u{1B}"), sourceLocation: sourceLocation) }
    let problem = try GoldenFile.files.problem(with: lines.joined(separator: "\n") + "\n", named: "Home/\(name).txt")
    #expect(problem == nil, Comment(rawValue: problem ?? ""), sourceLocation: sourceLocation)
  }
}
