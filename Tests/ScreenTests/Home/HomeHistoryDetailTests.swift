import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

/// `history --interactive` opens the home screen's detail alone: the same state, keys,
/// ranges and endings as Enter on the list.
@Suite struct HomeHistoryDetailTests {
  typealias F = HomeScreenFixtures

  static func alone(followsLive: Bool = true) -> HomeState {
    var row = HomeCommand.detailRow(base: "btc", quote: "usd", asset: Asset(symbol: "BTC", id: "bitcoin"))
    row.rate = 99_999
    return HomeState(
      detailOf: row, data: F.coinDetail(days: 28), lists: HomeLists(), now: F.now, followsLive: followsLive)
  }

  @Test func aCoinInACurrencyIsACoinsDetailAndAnythingElseAPairs() {
    let coin = HomeCommand.detailRow(base: "btc", quote: "eur", asset: Asset(symbol: "BTC", id: "bitcoin"))
    expect(coin.kind == .top && coin.id == "bitcoin" && coin.currency == "EUR")
    let pair = HomeCommand.detailRow(base: "gbp", quote: "usd", asset: nil)
    expect(pair.kind == .pair && pair.id == "GBP-USD" && pair.symbol == "GBP/USD")
    expectEqual(HomeCommand.detailRow(base: "BTC", quote: "ETH", asset: nil).kind, .pair)
  }

  @Test func itOpensOnTheFetchedDaysAndQQuits() {
    var state = Self.alone()
    expectEqual(state.screen, .detail)
    expectEqual(state.detail?.days, 28)
    expectEqual(state.detail?.data?.days, 28)
    let footer = F.frame(state, 100, 30).last ?? ""
    expect(footer.hasSuffix("q quit"), "\(footer)")
    expect(F.frame(state, 100, 30).contains { $0.contains("28/28") })
    _ = state.handle(.key(.left))
    expect(F.frame(state, 100, 30).contains { $0.contains("27/28") })
    expectEqual(state.handle(.key(.character("q"))), [.exit(.quit)])
    var escaped = Self.alone()
    expectEqual(escaped.handle(.key(.escape)), [.exit(.quit)])
    expectEqual(escaped.handle(.key(.interrupt)), [.exit(.interrupted)])
  }

  @Test func rangesLoadThroughTheDriverAsOnTheList() {
    var state = Self.alone()
    let row = state.detail?.row
    expectEqual(state.handle(.key(.character("1"))), [.loadDetail(row: row ?? F.bitcoin, currency: "USD", days: 7)])
    expectEqual(state.detail?.loading, true)
  }

  /// A range that ended in the past keeps its last day; choosing a range follows the live
  /// price again.
  @Test func aPastRangeDoesNotFollowTheLivePrice() {
    var past = Self.alone(followsLive: false)
    expectEqual(past.detail?.liveRate, nil)
    expectEqual(past.detail?.liveSeries, past.detail?.data?.series)
    _ = past.handle(.key(.character("2")))
    expectEqual(past.detail?.followsLive, true)
    expectEqual(Self.alone().detail?.liveRate, 99_999)
  }
}
