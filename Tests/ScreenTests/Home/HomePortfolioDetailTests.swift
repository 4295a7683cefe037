import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The portfolio detail: ↑ from the first row selects the Portfolio section's heading, Enter
/// opens the value chart (the detail screen's keys), loaded from the ledger and the day store.
@Suite struct HomePortfolioDetailTests {
  typealias S = HomeListSupport

  static let portfolio = HomePortfolio(
    currency: "USD", value: 12_345.67, change24h: 146.34,
    holdings: [
      .init(code: "BTC", value: 7_500, share: 0.61), .init(code: "ETH", value: 3_300, share: 0.27),
      .init(code: "LBP", value: 1_545.67, share: 0.12),
    ])

  /// The day change in percent of the value the day before, from the change as held: 0.01
  /// on 200.00 is +0.005 % (+0.01 % shown), where 200.01 − 200.00 recomputed in floating
  /// point would give 0.0049999999999955 (+0.00 %). Nothing before, no percent.
  @Test func theDayChangeIsThePercentOfTheChangeHeld() {
    let portfolio = HomePortfolio(currency: "USD", value: 200.01, change24h: 0.01, holdings: [])
    expectEqual(portfolio.changePercent, 0.005)
    expectEqual(portfolio.changePercent.map(RateFormat.percent), "+0.01%")
    expectEqual(HomePortfolio(currency: "USD", value: 10, change24h: 10, holdings: []).changePercent, nil)
  }

  static func plain(_ state: HomeState, width: Int = 80, height: Int = 24) -> [String] {
    HomeRenderer.render(state, width: width, height: height, style: Style(enabled: false), ascii: false)
  }

  /// A ledger of a few buys and a deposit, the last 40 days.
  static func ledger(_ fixture: HomeDriverFixture) throws {
    let today = Day(containing: fixedNow)
    let entries: [(Int, LedgerEntry.Side, Double, String, Double, String)] = [
      (-20, .buy, 2, "ETH", 6_000, "USD"), (-10, .buy, 0.05, "BTC", 3_200, "USD"),
      (-5, .buy, 500, "EUR", 540, "USD"),
    ]
    for (offset, side, amount, code, counter, counterCode) in entries {
      _ = try fixture.userData.ledger.append(
        LedgerEntry(
          id: 0, date: today.adding(days: offset), side: side, amount: amount, currency: CurrencyCode(code),
          counterAmount: counter, counterCurrency: CurrencyCode(counterCode), counterparty: nil, note: nil,
          recordedAt: fixedNow))
    }
  }

  @Test func upOnTheFirstRowSelectsTheHeadingAndEnterOpensTheValueChartThenEscGoesBack() {
    var state = S.state()
    expect(S.press(.up, on: &state).isEmpty && !state.portfolioSelected)  // no portfolio: nothing to select
    _ = state.handle(.portfolio(Self.portfolio))
    expect(S.press(.up, on: &state).isEmpty && state.portfolioSelected && state.cursor == 0)
    expectEqual(Self.plain(state)[2], "> Portfolio (3 holdings)  Enter value chart")
    // Nothing to remove or star there.
    expect(S.press(.character("f"), .character("d"), on: &state).isEmpty && state.notice == nil)
    let effects = S.press(.enter, on: &state)
    expectEqual(effects, [.loadDetail(row: Self.portfolio.row, currency: "USD", days: 30)])
    expect(state.screen == .detail && state.detail?.row.kind == .portfolio)
    expectEqual(S.press(.character("3"), on: &state), [.loadDetail(row: Self.portfolio.row, currency: "USD", days: 90)])
    _ = S.press(.escape, on: &state)
    expect(state.screen == .home && state.portfolioSelected)
    _ = S.press(.down, on: &state)
    expect(!state.portfolioSelected && state.cursor == 0)
    expectEqual(Self.plain(state)[2], "Portfolio (3 holdings)")
    // Enter on a row still opens that row.
    expectEqual(
      S.press(.enter, on: &state).first.map {
        if case .loadDetail(let row, _, _) = $0 { row.kind != .portfolio } else { false }
      }, true)
  }

  @Test func theLedgerGoneLeavesNothingSelected() {
    var state = S.state()
    _ = state.handle(.portfolio(Self.portfolio))
    _ = S.press(.up, on: &state)
    _ = state.handle(.portfolio(nil))
    expect(!state.portfolioSelected)
    expect(
      !S.press(.enter, on: &state).contains {
        if case .loadDetail(let row, _, _) = $0 { row.kind == .portfolio } else { false }
      })
  }

  @Test func theDriverValuesTheLedgerPerDayOneRequestPerMissingRangeNoneWarm() async throws {
    let fixture = try HomeDriverFixture()
    try Self.ledger(fixture)
    let driver = fixture.driver
    let row = Self.portfolio.row
    let events = await fixture.run(.loadDetail(row: row, currency: "USD", days: 30), driver: driver)
    expectEqual(events.statuses, [.loading, .idle])
    let detail = try require(events.details.last)
    expect(detail.rowID == "portfolio" && detail.currency == "USD" && detail.days == 30 && detail.market == nil)
    expectEqual(detail.series.points.last?.date, Day(containing: fixedNow))
    expect(detail.series.points.allSatisfy { $0.rate.isFinite && $0.rate >= 0 })
    let cold = fixture.server.requestCount
    // One request per code priced: ETH, BTC, EUR.
    expect(cold > 0 && cold <= 3, "\(fixture.requests().map(\.path))")
    let again = await fixture.run(.loadDetail(row: row, currency: "USD", days: 30), driver: driver)
    expectEqual(again.details.last?.series, detail.series)
    expectEqual(fixture.server.requestCount, cold)  // none warm
  }

  @Test func aLedgerThatCannotBeValuedIsAStatusLineAndNoChart() async throws {
    let fixture = try HomeDriverFixture()
    try Self.ledger(fixture)
    fixture.offline = true
    let events = await fixture.run(.loadDetail(row: Self.portfolio.row, currency: "USD", days: 30))
    expect(events.details.isEmpty)
    guard case .failed(let line)? = events.statuses.last else {
      Issue.record("\(events.statuses)")
      return
    }
    expect(!line.isEmpty)
  }

  @Test func golden() async throws {
    let fixture = try HomeDriverFixture()
    try Self.ledger(fixture)
    let events = await fixture.run(.loadDetail(row: Self.portfolio.row, currency: "USD", days: 30))
    var state = HomeState(currencies: ["USD"], lists: HomeLists(), pickerCurrencies: [], now: fixedNow)
    _ = state.handle(.portfolio(Self.portfolio))
    _ = S.press(.up, .enter, on: &state)
    for event in events { _ = state.handle(event) }
    for _ in 0..<3 { _ = state.handle(.key(.left)) }
    try HomeScreenFixtures.checkGolden(state, "detail-portfolio.80x24", 80, 24)
    try HomeScreenFixtures.checkGolden(state, "detail-portfolio.ascii.80x24", 80, 24, ascii: true)
  }
}

/// The portfolio detail's frame: its title, value and source, gaps counted and left blank.
@Suite struct HomePortfolioDetailRendererTests {
  @Test func aDayWithoutAPriceIsAGapCountedInTheFiguresAndReadAsNoRate() {
    let today = Day(containing: fixedNow)
    let series = RateSeries(
      base: "PORTFOLIO", quote: "USD", source: .portfolio, fetchedAt: fixedNow,
      points: [
        RatePoint(date: today.adding(days: -2), rate: 100), RatePoint(date: today, rate: 120),
      ],
      gaps: [today.adding(days: -1)])
    var state = HomeState(currencies: ["USD"], lists: HomeLists(), pickerCurrencies: [], now: fixedNow)
    _ = state.handle(.portfolio(HomePortfolioDetailTests.portfolio))
    _ = HomeListSupport.press(.up, .enter, on: &state)
    _ = state.handle(
      .detail(
        HomeDetail(
          rowID: "portfolio", currency: "USD", days: 30, market: nil, series: series, fetchedAt: fixedNow,
          stale: false)))
    _ = state.handle(.status(.idle))
    _ = state.handle(.key(.left))
    let lines = HomePortfolioDetailTests.plain(state)
    expectEqual(lines[0], "Portfolio value in USD  30 days")
    expect(
      lines.contains { $0.contains("gaps") && $0.contains("1 day") && $0.contains("no price for something held") })
    expect(lines.contains { $0.hasPrefix("\(today.adding(days: -1))") && $0.contains("no rate") })
    // No star on the portfolio: `f` says so.
    _ = state.handle(.key(.character("f")))
    expectEqual(state.detail?.message?.contains("the portfolio has no star"), true)
    expect(!HomePortfolioDetailTests.plain(state).last!.contains("f star"))
  }
}
