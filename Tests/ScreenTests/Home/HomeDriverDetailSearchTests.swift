import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct HomeDriverDetailTests {
  static let bitcoin = HomeRow(
    kind: .top, id: "bitcoin", symbol: "BTC", name: "Bitcoin", currency: "USD", rate: nil,
    changePercent: nil, changePeriod: .hours24, week: [])

  @Test func aCoinHasMarketFiguresAndHistoryEndingAtTheLivePriceThenComesFromTheCache() async throws {
    let fixture = try HomeDriverFixture()
    let driver = fixture.driver
    let events = await fixture.run(.loadDetail(row: Self.bitcoin, currency: "USD", days: 30), driver: driver)
    expectEqual(events.statuses, [.loading, .idle])
    let detail = try require(events.details.last)
    expect(detail.rowID == "bitcoin" && detail.days == 30 && detail.currency == "USD")
    expect(detail.market?.currentPrice == 66_012.25 && detail.market?.high24h != nil)
    expectEqual(detail.series.points.count, 30)
    expectEqual(detail.series.points.last?.rate, 66_012.25)
    expectEqual(detail.series.points.last?.date, Day(containing: fixedNow))
    expectEqual(detail.stale, false)
    // One daily chart (its last point is now) and one market row.
    expectEqual(
      fixture.requests().map(\.path).sorted(), ["/api/v3/coins/bitcoin/market_chart", "/api/v3/coins/markets"])
    let before = fixture.server.requestCount
    fixture.clock.advance(by: 20)
    let again = await fixture.run(.loadDetail(row: Self.bitcoin, currency: "USD", days: 30), driver: driver)
    expect(again.statuses == [.idle] && again.details.count == 1)
    expectEqual(fixture.server.requestCount, before)
  }

  @Test func duringARateLimitPauseADetailAsksNothingAndShowsThePause() async throws {
    let (fixture, driver) = try await HomeDriverFixture.tenSecondsIntoARateLimit()
    let before = fixture.server.requestCount
    let events = await fixture.run(.loadDetail(row: Self.bitcoin, currency: "USD", days: 30), driver: driver)
    expectEqual(events.statuses, [.rateLimited(until: fixedNow.addingTimeInterval(30))])
    expectEqual(fixture.server.requestCount, before)
  }

  @Test func aPairShowsECBHistoryWithCarriedDaysMarked() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    let row = HomeRow(
      kind: .pair, id: "GBP-USD", symbol: "GBP/USD", name: "GBP-USD", currency: "USD", rate: nil,
      changePercent: nil, changePeriod: .workingDay, week: [])
    let events = await fixture.run(.loadDetail(row: row, currency: "EUR", days: 30))
    let detail = try require(events.details.last)
    expect(detail.market == nil && detail.currency == "USD" && detail.rowID == "GBP-USD")
    expect(detail.series.base == "GBP" && detail.series.quote == "USD")
    expect(detail.series.points.contains { $0.carried })
    expectEqual(fixture.server.requestCount, 1)
    expect(fixture.requests().allSatisfy { $0.path.hasPrefix("/frankfurter/") })
    expectEqual(events.statuses.last, .idle)
  }
}

@Suite struct HomeDriverSearchTests {
  @Test func localHitsComeAtOnceThenTheProvidersAfterAPauseWithSharedSymbolsMarked() async throws {
    let fixture = try HomeDriverFixture()
    let events = await fixture.run(.search(query: "eth"))
    let searches = events.searches
    expectEqual(searches.map(\.remote), [false, true])
    expectEqual(searches.first?.hits.first?.id, "ethereum")
    expectEqual(searches.first?.hits.first?.sharedSymbol, false)
    let remote = try require(searches.last?.hits)
    expectEqual(remote.map(\.id).prefix(2), ["ethereum", "ethereum-wormhole"])
    expect(remote.prefix(2).allSatisfy { $0.sharedSymbol })
    expectEqual(fixture.clock.sleeps, [.milliseconds(400)])
    expectEqual(fixture.requests().map(\.path), ["/api/v3/search"])
    expectEqual(events.statuses, [.loading, .idle])
  }

  @Test func aSymbolTwoOfYourCoinsShareIsMarkedLocally() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addCoins([fixture.coin("ethereum-wormhole", "ETH", "Ethereum (Wormhole)")])
    let events = await fixture.run(.search(query: "e"))
    let hits = try require(events.searches.first?.hits)
    expectEqual(hits.filter { $0.symbol == "ETH" }.count, 2)
    expect(hits.filter { $0.symbol == "ETH" }.allSatisfy { $0.sharedSymbol })
  }

  @Test func aOneCharacterQueryStaysLocal() async throws {
    let fixture = try HomeDriverFixture()
    let events = await fixture.run(.search(query: "b"))
    expectEqual(events.searches.map(\.remote), [false])
    expectEqual(events.searches.first?.hits.contains { $0.id == "bitcoin" }, true)
    expect(fixture.server.requestCount == 0 && fixture.clock.sleeps.isEmpty)
  }

  @Test func remoteSearchesAreTwoSecondsApart() async throws {
    let fixture = try HomeDriverFixture()
    let driver = fixture.driver
    _ = await fixture.run(.search(query: "bit"), driver: driver)
    _ = await fixture.run(.search(query: "sol"), driver: driver)
    expectEqual(fixture.clock.sleeps, [.milliseconds(400), .milliseconds(400), .milliseconds(1600)])
    expectEqual(fixture.server.requestCount, 2)
  }

  /// Typing slowly cancels searches that wait for their turn: they must not keep it (the
  /// provider's answer came 9.6 s after the last key of "ethereum").
  @Test func aSearchCancelledWhileWaitingForItsTurnGivesTheTurnBack() async throws {
    let fixture = try HomeDriverFixture()
    let cancels = Recorder<Duration>()
    let driver = fixture.driver(mode: .normal) { [clock = fixture.clock] duration in
      if duration > .milliseconds(400) && cancels.all.isEmpty {
        cancels.append(duration)
        throw CancellationError()
      }
      try await clock.sleep(duration)
    }
    _ = await fixture.run(.search(query: "bit"), driver: driver)
    _ = await fixture.run(.search(query: "bitc"), driver: driver)  // cancelled in its wait
    _ = await fixture.run(.search(query: "bitco"), driver: driver)
    expectEqual(cancels.all, [.milliseconds(1600)])
    expectEqual(
      fixture.clock.sleeps, [.milliseconds(400), .milliseconds(400), .milliseconds(400), .milliseconds(1200)])
    expectEqual(fixture.server.requestCount, 2)
  }

  @Test func aCancelledSearchSendsItsLocalHitsAndAsksNothing() async throws {
    let fixture = try HomeDriverFixture()
    let driver = fixture.driver
    let events = Recorder<HomeEvent>()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      await driver.perform(.search(query: "bitcoin")) { events.append($0) }
    }
    await task.value
    expectEqual(events.all.searches.map(\.remote), [false])
    expectEqual(fixture.server.requestCount, 0)
  }

  @Test func noRemoteSearchDuringARateLimitPause() async throws {
    let fixture = try HomeDriverFixture { request, reply in
      request.path.hasSuffix("/coins/markets") ? .text("Throttled", status: 429) : reply
    }
    let driver = fixture.driver
    _ = await fixture.run(.loadBoard(currency: "USD", refresh: false), driver: driver)
    let before = fixture.server.requestCount
    let events = await fixture.run(.search(query: "bitcoin"), driver: driver)
    expectEqual(events.searches.map(\.remote), [false])
    expectEqual(fixture.server.requestCount, before)
  }
}
