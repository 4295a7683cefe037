import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Issue 24 on the home screen: when CoinGecko's markets fail, your coins are answered by the
/// coin chain (Coinbase, then Kraken) and the status line says whose prices they are; a
/// pinned provider never falls back.
@Suite struct HomeCoinChainTests {
  static func fixture() throws -> HomeDriverFixture {
    try HomeDriverFixture(exchanges: true) { request, reply in
      request.path.hasPrefix("/api/v3/") ? .text("<html>down</html>", status: 503) : reply
    }
  }

  @Test func yourCoinsComeFromCoinbaseWhenCoinGeckoIsDownAndTheStatusLineSaysSo() async throws {
    let fixture = try Self.fixture()
    try fixture.userData.addCoins([fixture.coin("bitcoin", "BTC", "Bitcoin")])
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let board = try require(events.boards.last)
    let bitcoin = try require(board.rows.first { $0.id == "bitcoin" })
    // Today's point: the ticker's price now, or today's candle close so far.
    let now = fixture.clock.now
    let today = Day(containing: now).start
    let prices = [now, today.addingTimeInterval(86_400), today].map {
      FakeCoinbase.price(base: "BTC", quote: "USD", at: $0)
    }
    expectEqual(bitcoin.rate.map(prices.contains), true, "\(String(describing: bitcoin.rate)) \(prices)")
    expectEqual(bitcoin.name, "Bitcoin")
    expectEqual(board.fallbackSources, ["Coinbase Exchange (CoinGecko unavailable)"])
    expectEqual(board.missing, ["the top 100 coins in USD"])
    expectEqual(
      HomeRenderer.answerLine(board),
      "No price for the top 100 coins in USD; prices from Coinbase Exchange (CoinGecko unavailable)")
    // CoinGecko's failure is the driver's status; the status line still says whose prices
    // the rows show (before: only "CoinGecko is having trouble").
    expect(events.statuses.contains { if case .failed = $0 { true } else { false } })
    var state = HomeListSupport.state(board: board)
    if let status = events.statuses.last { _ = state.handle(.status(status)) }
    let line = HomeListRendererTests.render(state, width: 160).last ?? ""
    expectContains(line, "prices from Coinbase Exchange (CoinGecko unavailable)", "\(events.statuses) \(line)")
    expect(fixture.requests().contains { $0.path.hasPrefix("/coinbase/") })
    let gecko = fixture.requests().filter { $0.path.hasPrefix("/api/v3/") }
    expectEqual(gecko.count, 1, "the failed markets page alone: \(gecko.map(\.path))")
  }

  @Test func withoutTheExchangesYourCoinsStayMissing() async throws {
    let fixture = try HomeDriverFixture { request, reply in
      request.path.hasPrefix("/api/v3/") ? .text("<html>down</html>", status: 503) : reply
    }
    try fixture.userData.addCoins([fixture.coin("bitcoin", "BTC", "Bitcoin")])
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    expect(!events.boards.contains { board in board.rows.contains { $0.rate != nil } })
    expect(!fixture.requests().contains { !$0.path.hasPrefix("/api/v3/") })
    expectEqual(fixture.requests().count, 1, "CoinGecko is asked once: \(fixture.requests().map(\.path))")
  }
}
