import Foundation
import RatesCLIHarness
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct HomeDriverBoardTests {
  @Test func aFirstLoadWithoutCoinsIsOneRequestForTheTopHundredWithSparklinesAndChanges() async throws {
    let fixture = try HomeDriverFixture()
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    #expect(events.statuses == [.loading, .idle])
    let board = try #require(events.boards.last)
    #expect(events.boards.count == 1)
    #expect(board.rows.map(\.id).prefix(5) == ["bitcoin", "ethereum", "tether", "solana", "ripple"])
    #expect(board.rows.count > 20)
    let bitcoin = try #require(board.rows.first)
    #expect(bitcoin.market.rank == 1 && bitcoin.market.marketCap != nil && bitcoin.market.volume != nil)
    #expect(
      bitcoin.market.change1h
        == FakeCoinGecko.change(id: "bitcoin", currency: "usd", now: fixedNow, over: 3_600))
    #expect(
      bitcoin.market.change7d
        == FakeCoinGecko.change(id: "bitcoin", currency: "usd", now: fixedNow, over: 604_800))
    #expect(board.rows.allSatisfy { $0.kind == .top && $0.changePeriod == .hours24 })
    #expect(board.rows.first?.rate == 66_012.25)
    #expect(board.rows.first?.week.count == 29)
    #expect(board.rows.first?.week.last == 66_012.25)
    #expect(board.stale == false && board.missing.isEmpty && board.fetchedAt == fixedNow)
    let requests = fixture.requests()
    #expect(requests.count == 1)
    #expect(requests.first?.query["per_page"] == "100")
    #expect(requests.first?.query["sparkline"] == "true")
    #expect(requests.first?.query["price_change_percentage"] == "1h,24h,7d")
  }

  @Test func yourCoinsInTheTopPageAndFiatPairsCostTwoRequestsInSectionOrder() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addCoins([fixture.coin("dogecoin", "DOGE"), fixture.coin("bitcoin", "BTC")])
    try fixture.userData.setFavorite(fixture.coin("cardano", "ADA"), starred: true)
    try fixture.userData.setFavorite(fixture.coin("bitcoin", "BTC"), starred: true)
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "EUR", quote: "JPY", addedAt: fixedNow))
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let board = try #require(events.boards.last)
    // The board holds a coin both in the top 100 and yours in both sections (the list shows
    // it once); a starred coin shown elsewhere is not repeated as a favorite.
    let top = board.rows.prefix { $0.kind == .top }.count
    #expect(board.rows.dropFirst(top).map(\.kind) == [.coin, .coin, .pair, .pair])
    #expect(board.rows.map(\.id).suffix(4) == ["dogecoin", "bitcoin", "EUR-JPY", "GBP-USD"])
    let pair = board.rows[top + 3]
    #expect(pair.symbol == "GBP/USD" && pair.currency == "USD" && pair.changePeriod == .workingDay)
    #expect(pair.rate != nil && pair.week.count == 7)
    #expect(board.rows[top].rate == FakeCoinGecko.nowValue(id: "dogecoin", currency: "usd"))
    let requests = fixture.requests()
    #expect(requests.count == 2)
    #expect(requests.filter { $0.path.hasSuffix("/coins/markets") }.count == 1)
    #expect(requests.first { $0.path.hasSuffix("/coins/markets") }?.query["per_page"] == "100")
    #expect(events.statuses.last == .idle)
  }

  @Test func coinsOutsideTheTopPageCostOneIdsRequest() async throws {
    // The fake's top page leaves dogecoin out, as if it ranked below 100.
    let fixture = try HomeDriverFixture(adjust: Self.hiding("dogecoin"))
    try fixture.userData.addCoins([fixture.coin("dogecoin", "DOGE")])
    let events = await fixture.run(.loadBoard(currency: "EUR", refresh: false))
    let board = try #require(events.boards.last)
    #expect(board.rows.last?.id == "dogecoin" && board.rows.last?.kind == .coin)
    #expect(board.rows.last?.rate == FakeCoinGecko.nowValue(id: "dogecoin", currency: "eur"))
    let requests = fixture.requests()
    #expect(requests.count == 2)
    #expect(requests.last?.query["ids"] == "dogecoin" && requests.last?.query["sparkline"] == "true")
  }

  @Test func aSecondLoadWithinTheFreshnessComesFromTheCacheAlone() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let before = fixture.server.requestCount
    fixture.clock.advance(by: 30)
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    #expect(fixture.server.requestCount == before)
    #expect(events.statuses == [.idle])
    #expect(events.boards.count == 1 && events.boards.first?.stale == false)
    #expect(events.boards.first?.fetchedAt == fixedNow)
  }

  @Test func anOlderCacheShowsAtOnceMarkedStaleThenFreshData() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let before = fixture.server.requestCount
    fixture.clock.advance(by: 120)
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    #expect(events.map(Self.kind) == ["board", "status", "board", "portfolio", "status"])
    #expect(events.boards.map(\.stale) == [true, false])
    #expect(events.boards.map(\.fetchedAt) == [fixedNow, fixedNow.addingTimeInterval(120)])
    #expect(events.statuses == [.loading, .idle])
    // Only the coins were old: the ECB series is fresh for an hour.
    #expect(fixture.requests(since: before).map(\.path) == ["/api/v3/coins/markets"])
  }

  @Test func refreshAsksForTheCoinsAgainButKeepsTheHourOfECBRates() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let before = fixture.server.requestCount
    fixture.clock.advance(by: 10)
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: true))
    #expect(events.map(Self.kind) == ["status", "board", "portfolio", "status"])
    #expect(fixture.requests(since: before).map(\.path) == ["/api/v3/coins/markets"])
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
    #expect(events.boards.count == 2 && events.boards.allSatisfy(\.stale))
    #expect(events.boards.last?.rows.count == first.boards.last?.rows.count)
    #expect(events.statuses == [.loading, .rateLimited(until: fixedNow.addingTimeInterval(120))])
  }

  @Test func duringARateLimitPauseLoadsAskNothingAndAfterItTheyAskAgain() async throws {
    let (fixture, driver) = try await HomeDriverFixture.tenSecondsIntoARateLimit()
    let paused = await fixture.run(.loadBoard(currency: "USD", refresh: true), driver: driver)
    #expect(paused.statuses == [.rateLimited(until: fixedNow.addingTimeInterval(30))])
    #expect(fixture.server.requestCount == 1)
    fixture.clock.advance(by: 25)
    let after = await fixture.run(.loadBoard(currency: "USD", refresh: true), driver: driver)
    #expect(after.statuses == [.loading, .idle] && after.boards.count == 1)
    #expect(fixture.server.requestCount == 2)
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
    #expect(line.contains("Frankfurter"), "\(line)")
    fixture.clock.advance(by: 61)
    let before = fixture.server.requestCount
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: true), driver: driver)
    #expect(fixture.requests(since: before).contains { $0.path.hasPrefix("/api/v3/coins/markets") })
  }

  /// Before: the pair's row came without a rate and the status named Frankfurter's failure.
  @Test func frankfurterDownAPairAnswersFromTheECB() async throws {
    let fixture = try HomeDriverFixture { request, reply in
      request.path.hasPrefix("/frankfurter/") ? .text("down", status: 503) : reply
    }
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let board = try #require(events.boards.last)
    let pair = try #require(board.rows.first { $0.id == "GBP-USD" })
    let day = UpdateRhythm.newestECBDay(at: fixedNow)
    #expect(
      pair.rate
        == Figure.crossRate(FakeFrankfurter.eurRate("USD", day: day), per: FakeFrankfurter.eurRate("GBP", day: day)))
    #expect(pair.week.count == 7 && !board.stale)
    #expect(events.statuses.last == .idle, "\(events.statuses)")
    #expect(fixture.requests().filter { $0.path.hasPrefix("/ecb/") }.count == 1)
    #expect(fixture.requests().filter { $0.path.hasPrefix("/frankfurter/") }.count == 1)
    #expect(board.fallbackSources == ["ECB (Frankfurter unavailable)"])
    #expect(HomeRenderer.answerLine(board) == "Prices from ECB (Frankfurter unavailable)")
  }

  @Test func aRateLimitWithoutRetryAfterPausesAMinute() async throws {
    let fixture = try HomeDriverFixture { _, _ in .text("Throttled", status: 429) }
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    #expect(events.boards.isEmpty)
    #expect(events.statuses == [.loading, .rateLimited(until: fixedNow.addingTimeInterval(60))])
  }

  @Test func offlineTheCachedBoardStaysMarkedStaleWithTheFailureLine() async throws {
    let fixture = try HomeDriverFixture()
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    fixture.offline = true
    fixture.clock.advance(by: 300)
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    #expect(events.boards.count == 2 && events.boards.allSatisfy(\.stale))
    guard case .failed(let line)? = events.statuses.last else {
      Issue.record("expected a failure line, got \(events.statuses)")
      return
    }
    #expect(line.hasPrefix("CoinGecko: could not connect to api.coingecko.com"))
  }

  @Test func offlineForGoodTheBoardComesFromTheCacheAndNothingIsAsked() async throws {
    let fixture = try HomeDriverFixture()
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let before = fixture.server.requestCount
    fixture.clock.advance(by: 600)
    let events = await fixture.run(
      .loadBoard(currency: "USD", refresh: true), driver: fixture.driver(mode: .offline))
    #expect(fixture.server.requestCount == before)
    #expect(events.boards.count == 1 && events.boards.first?.stale == true)
    #expect(events.statuses == [.loading, .idle])
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
    #expect(!line.contains(HomeDriverFixture.secret))
    #expect(line.contains(Redaction.placeholder))
    #expect(line.contains("HTTP 403"))
  }

  @Test func aPartialAnswerShowsWhatArrivedAndNamesTheRestSanitized() async throws {
    var prices = FakeCoinGecko.pricesWithCryptoQuotes
    prices["evil-coin"] = ["usd": 2]
    let fixture = try HomeDriverFixture(prices: prices, adjust: Self.hiding("evil-coin"))
    try fixture.userData.addCoins([fixture.coin("evil-coin", "EVIL"), fixture.coin("gone-coin", "GONE")])
    try fixture.userData.pairs.update { $0.append(ConfiguredPair(base: "GBP", quote: "XYZ", addedAt: fixedNow)) }
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let board = try #require(events.boards.last)
    let evil = try #require(board.rows.first { $0.id == "evil-coin" })
    #expect(evil.name == "EvilCoin" && evil.rate == 2)
    let gone = try #require(board.rows.first { $0.id == "gone-coin" })
    #expect(gone.rate == nil && gone.kind == .coin)
    let pair = try #require(board.rows.first { $0.kind == .pair })
    #expect(pair.rate == nil && pair.id == "GBP-XYZ")
    #expect(board.missing == ["GONE/USD", "GBP/XYZ"])
    guard case .failed(let line)? = events.statuses.last else {
      Issue.record("expected a failure line, got \(events.statuses)")
      return
    }
    // GBP-XYZ routes as a coin priced in GBP; CoinGecko knows no coin XYZ.
    #expect(line.hasPrefix("unknown coin 'XYZ' at CoinGecko"))
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
