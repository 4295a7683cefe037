import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct HomeDriverBoardTests {
  @Test func aFirstLoadWithoutCoinsIsOneRequestForTheTopHundredWithSparklinesAndChanges() async throws {
    let fixture = try HomeDriverFixture()
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    expectEqual(events.statuses, [.loading, .idle])
    let board = try require(events.boards.last)
    expectEqual(events.boards.count, 1)
    expectEqual(board.rows.map(\.id).prefix(5), ["bitcoin", "ethereum", "tether", "solana", "ripple"])
    expect(board.rows.count > 20)
    let bitcoin = try require(board.rows.first)
    expect(bitcoin.market.rank == 1 && bitcoin.market.marketCap != nil && bitcoin.market.volume != nil)
    expectEqual(
      bitcoin.market.change1h,
      FakeCoinGecko.change(id: "bitcoin", currency: "usd", now: fixedNow, over: 3_600))
    expectEqual(
      bitcoin.market.change7d,
      FakeCoinGecko.change(id: "bitcoin", currency: "usd", now: fixedNow, over: 604_800))
    expect(board.rows.allSatisfy { $0.kind == .top && $0.changePeriod == .hours24 })
    expectEqual(board.rows.first?.rate, 66_012.25)
    expectEqual(board.rows.first?.week.count, 29)
    expectEqual(board.rows.first?.week.last, 66_012.25)
    expect(board.stale == false && board.missing.isEmpty && board.fetchedAt == fixedNow)
    let requests = fixture.requests()
    expectEqual(requests.count, 1)
    expectEqual(requests.first?.query["per_page"], "100")
    expectEqual(requests.first?.query["sparkline"], "true")
    expectEqual(requests.first?.query["price_change_percentage"], "1h,24h,7d")
  }

  @Test func yourCoinsInTheTopPageAndFiatPairsCostTwoRequestsInSectionOrder() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addCoins([fixture.coin("dogecoin", "DOGE"), fixture.coin("bitcoin", "BTC")])
    try fixture.userData.setFavorite(fixture.coin("cardano", "ADA"), starred: true)
    try fixture.userData.setFavorite(fixture.coin("bitcoin", "BTC"), starred: true)
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "EUR", quote: "JPY", addedAt: fixedNow))
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let board = try require(events.boards.last)
    // The board holds a coin both in the top 100 and yours in both sections (the list shows
    // it once); a starred coin shown elsewhere is not repeated as a favorite.
    let top = board.rows.prefix { $0.kind == .top }.count
    expectEqual(board.rows.dropFirst(top).map(\.kind), [.coin, .coin, .pair, .pair])
    expectEqual(board.rows.map(\.id).suffix(4), ["dogecoin", "bitcoin", "EUR-JPY", "GBP-USD"])
    let pair = board.rows[top + 3]
    expect(pair.symbol == "GBP/USD" && pair.currency == "USD" && pair.changePeriod == .workingDay)
    expect(pair.rate != nil && pair.week.count == 7)
    expectEqual(board.rows[top].rate, FakeCoinGecko.nowValue(id: "dogecoin", currency: "usd"))
    let requests = fixture.requests()
    expectEqual(requests.count, 2)
    expectEqual(requests.filter { $0.path.hasSuffix("/coins/markets") }.count, 1)
    expectEqual(requests.first { $0.path.hasSuffix("/coins/markets") }?.query["per_page"], "100")
    expectEqual(events.statuses.last, .idle)
  }

  @Test func coinsOutsideTheTopPageCostOneIdsRequest() async throws {
    // The fake's top page leaves dogecoin out, as if it ranked below 100.
    let fixture = try HomeDriverFixture(adjust: Self.hiding("dogecoin"))
    try fixture.userData.addCoins([fixture.coin("dogecoin", "DOGE")])
    let events = await fixture.run(.loadBoard(currency: "EUR", refresh: false))
    let board = try require(events.boards.last)
    expect(board.rows.last?.id == "dogecoin" && board.rows.last?.kind == .coin)
    expectEqual(board.rows.last?.rate, FakeCoinGecko.nowValue(id: "dogecoin", currency: "eur"))
    let requests = fixture.requests()
    expectEqual(requests.count, 2)
    expect(requests.last?.query["ids"] == "dogecoin" && requests.last?.query["sparkline"] == "true")
  }

  @Test func aSecondLoadWithinTheFreshnessComesFromTheCacheAlone() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let before = fixture.server.requestCount
    fixture.clock.advance(by: 30)
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    expectEqual(fixture.server.requestCount, before)
    expectEqual(events.statuses, [.idle])
    expect(events.boards.count == 1 && events.boards.first?.stale == false)
    expectEqual(events.boards.first?.fetchedAt, fixedNow)
  }

  @Test func anOlderCacheShowsAtOnceMarkedStaleThenFreshData() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let before = fixture.server.requestCount
    fixture.clock.advance(by: 120)
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    expectEqual(events.map(Self.kind), ["board", "status", "board", "portfolio", "status"])
    expectEqual(events.boards.map(\.stale), [true, false])
    expectEqual(events.boards.map(\.fetchedAt), [fixedNow, fixedNow.addingTimeInterval(120)])
    expectEqual(events.statuses, [.loading, .idle])
    // Only the coins were old: the ECB series is fresh for an hour.
    expectEqual(fixture.requests(since: before).map(\.path), ["/api/v3/coins/markets"])
  }

  @Test func refreshAsksForTheCoinsAgainButKeepsTheHourOfECBRates() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let before = fixture.server.requestCount
    fixture.clock.advance(by: 10)
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: true))
    expectEqual(events.map(Self.kind), ["status", "board", "portfolio", "status"])
    expectEqual(fixture.requests(since: before).map(\.path), ["/api/v3/coins/markets"])
  }

  @Test func aRateLimitWithRetryAfterPausesForItAndTheCacheStays() async throws {
    let limited = Flag()
    let fixture = try HomeDriverFixture { _, reply in
      limited.value
        ? .json(
          #"{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit."}}"#,
          status: 429, headers: ["Retry-After": "30"]) : reply
    }
    let first = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    limited.value = true
    fixture.clock.advance(by: 90)
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    expect(events.boards.count == 2 && events.boards.allSatisfy(\.stale))
    expectEqual(events.boards.last?.rows.count, first.boards.last?.rows.count)
    expectEqual(events.statuses, [.loading, .rateLimited(until: fixedNow.addingTimeInterval(120))])
  }

  @Test func duringARateLimitPauseLoadsAskNothingAndAfterItTheyAskAgain() async throws {
    let (fixture, driver) = try await HomeDriverFixture.tenSecondsIntoARateLimit()
    let paused = await fixture.run(.loadBoard(currency: "USD", refresh: true), driver: driver)
    expectEqual(paused.statuses, [.rateLimited(until: fixedNow.addingTimeInterval(30))])
    expectEqual(fixture.server.requestCount, 1)
    fixture.clock.advance(by: 25)
    let after = await fixture.run(.loadBoard(currency: "USD", refresh: true), driver: driver)
    expect(after.statuses == [.loading, .idle] && after.boards.count == 1)
    expectEqual(fixture.server.requestCount, 2)
  }

  @Test func aFrankfurterRateLimitIsItsOwnFailureAndPausesNoCoinGeckoLoad() async throws {
    // Only CoinGecko's limit pauses the screen: a 429 from Frankfurter was shown as
    // "rate limited by CoinGecko" and stopped the coins' refreshes as well.
    let fixture = try HomeDriverFixture { request, reply in
      request.path.hasPrefix("/api/v3") ? reply : .text("Throttled", status: 429, headers: ["Retry-After": "30"])
    }
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    let driver = fixture.driver
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false), driver: driver)
    guard case .failed(let line)? = events.statuses.last else {
      Issue.record("expected a failure line, got \(events.statuses)")
      return
    }
    expectContains(line, "Frankfurter")
    fixture.clock.advance(by: 61)
    let before = fixture.server.requestCount
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: true), driver: driver)
    expect(fixture.requests(since: before).contains { $0.path.hasPrefix("/api/v3/coins/markets") })
  }

  /// Before: the pair's row came without a rate and the status named Frankfurter's failure.
  @Test func frankfurterDownAPairAnswersFromTheECB() async throws {
    let fixture = try HomeDriverFixture { request, reply in
      request.path.hasPrefix("/frankfurter/") ? .text("down", status: 503) : reply
    }
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let board = try require(events.boards.last)
    let pair = try require(board.rows.first { $0.id == "GBP-USD" })
    let day = UpdateRhythm.newestECBDay(at: fixedNow)
    expectEqual(
      pair.rate,
      Figure.crossRate(FakeFrankfurter.eurRate("USD", day: day), per: FakeFrankfurter.eurRate("GBP", day: day)))
    expect(pair.week.count == 7 && !board.stale)
    expectEqual(events.statuses.last, .idle, "\(events.statuses)")
    expectEqual(fixture.requests().filter { $0.path.hasPrefix("/ecb/") }.count, 1)
    expectEqual(fixture.requests().filter { $0.path.hasPrefix("/frankfurter/") }.count, 1)
    expectEqual(board.fallbackSources, ["ECB (Frankfurter unavailable)"])
    expectEqual(HomeRenderer.answerLine(board), "Prices from ECB (Frankfurter unavailable)")
  }

  @Test func aRateLimitWithoutRetryAfterPausesAMinute() async throws {
    let fixture = try HomeDriverFixture { _, _ in .text("Throttled", status: 429) }
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    expect(events.boards.isEmpty)
    expectEqual(events.statuses, [.loading, .rateLimited(until: fixedNow.addingTimeInterval(60))])
  }

  @Test func offlineTheCachedBoardStaysMarkedStaleWithTheFailureLine() async throws {
    let fixture = try HomeDriverFixture()
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    fixture.offline = true
    fixture.clock.advance(by: 300)
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    expect(events.boards.count == 2 && events.boards.allSatisfy(\.stale))
    guard case .failed(let line)? = events.statuses.last else {
      Issue.record("expected a failure line, got \(events.statuses)")
      return
    }
    expect(line.hasPrefix("CoinGecko: could not connect to api.coingecko.com"))
  }

  @Test func offlineForGoodTheBoardComesFromTheCacheAndNothingIsAsked() async throws {
    let fixture = try HomeDriverFixture()
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let before = fixture.server.requestCount
    fixture.clock.advance(by: 600)
    let events = await fixture.run(
      .loadBoard(currency: "USD", refresh: true), driver: fixture.driver(mode: .offline))
    expectEqual(fixture.server.requestCount, before)
    expect(events.boards.count == 1 && events.boards.first?.stale == true)
    expectEqual(events.statuses, [.loading, .idle])
  }

  @Test func failureLinesNeverCarryTheAPIKey() async throws {
    let fixture = try HomeDriverFixture { _, _ in
      .json(#"{"error":"key \#(HomeDriverFixture.secret) is not allowed here"}"#, status: 403)
    }
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    guard case .failed(let line)? = events.statuses.last else {
      Issue.record("expected a failure line, got \(events.statuses)")
      return
    }
    expect(!line.contains(HomeDriverFixture.secret))
    expectContains(line, Redaction.placeholder)
    expectContains(line, "HTTP 403")
  }

  @Test func aPartialAnswerShowsWhatArrivedAndNamesTheRestSanitized() async throws {
    var prices = FakeCoinGecko.pricesWithCryptoQuotes
    prices["evil-coin"] = ["usd": 2]
    let fixture = try HomeDriverFixture(prices: prices, adjust: Self.hiding("evil-coin"))
    try fixture.userData.addCoins([fixture.coin("evil-coin", "EVIL"), fixture.coin("gone-coin", "GONE")])
    try fixture.userData.pairs.update { $0.append(ConfiguredPair(base: "GBP", quote: "XYZ", addedAt: fixedNow)) }
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let board = try require(events.boards.last)
    let evil = try require(board.rows.first { $0.id == "evil-coin" })
    expect(evil.name == "EvilCoin" && evil.rate == 2)
    let gone = try require(board.rows.first { $0.id == "gone-coin" })
    expect(gone.rate == nil && gone.kind == .coin)
    let pair = try require(board.rows.first { $0.kind == .pair })
    expect(pair.rate == nil && pair.id == "GBP-XYZ")
    expectEqual(board.missing, ["GONE/USD", "GBP/XYZ"])
    guard case .failed(let line)? = events.statuses.last else {
      Issue.record("expected a failure line, got \(events.statuses)")
      return
    }
    // GBP-XYZ routes as a coin priced in GBP; CoinGecko knows no coin XYZ.
    expect(line.hasPrefix("unknown coin 'XYZ' at CoinGecko"))
  }

  // MARK: - Helpers

  /// Leaves `ids` out of the fake's top pages (not out of `ids=` answers).
  static func hiding(_ ids: String...) -> @Sendable (RecordedRequest, LoopbackReply) -> LoopbackReply {
    let hidden = Set(ids)
    return { request, reply in
      guard request.path == "/api/v3/coins/markets", request.query["ids"] == nil,
        case .response(let status, let headers, let body) = reply,
        let rows = try? JSONSerialization.jsonObject(with: body) as? [[String: Any]],
        let kept = try? JSONSerialization.data(
          withJSONObject: rows.filter { !hidden.contains($0["id"] as? String ?? "") })
      else { return reply }
      return .response(status: status, headers: headers, body: kept)
    }
  }

  static func kind(_ event: HomeEvent) -> String {
    switch event {
    case .board: return "board"
    case .status: return "status"
    case .portfolio: return "portfolio"
    default: return "other"
    }
  }
}

/// A flag tests flip while a fixture runs (posting the change, for `eventually`).
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var current = false
  private let signal = ChangeSignal()
  var value: Bool {
    get {
      signal.noteRead()
      return lock.withLock { current }
    }
    set {
      lock.withLock { current = newValue }
      signal.post()
    }
  }
}
