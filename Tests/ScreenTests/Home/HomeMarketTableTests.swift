import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The home list as a market table: sections (yours first, the top N below, each coin
/// once), columns by width, sorting, paging, stars and the remembered sort.
@Suite struct HomeMarketTableTests {
  typealias S = HomeListSupport

  /// `count` top coins ranked 1…count, with figures that differ per column.
  static func topRows(_ count: Int) -> [HomeRow] {
    (1...count).map { rank in
      var row = S.coin(.top, "coin-\(rank)", "C\(rank)", "Coin \(rank)", Double(1_000 - rank), Double(rank % 7) - 3)
      row.market = HomeMarketFigures(
        rank: rank, change1h: Double(rank % 5) / 10, change7d: Double(rank % 11) - 5,
        marketCap: Double(1_000_000 - rank * 7 % 13 * 1_000), volume: Double(rank * 1_000))
      return row
    }
  }

  static func state(top: Int = 100, lists: HomeLists = HomeLists(), own: [HomeRow] = [], height: Int = 24)
    -> HomeState
  {
    var state = S.state(board: S.board(topRows(top) + own), lists: lists)
    state.pageSize = HomeRenderer.pageSize(height: height)
    return state
  }

  static func frame(_ state: HomeState, _ width: Int = 80, _ height: Int = 24, ascii: Bool = false) -> [String] {
    HomeRenderer.render(state, width: width, height: height, style: Style(enabled: false), ascii: ascii)
  }

  @Test func yourCoinsAndPairsComeFirstAndATopCoinThatIsYoursIsListedOnce() {
    var own = S.coin(.coin, "coin-3", "C3", "Coin 3", 997, 1)
    own.market.rank = 3
    let state = Self.state(top: 5, lists: S.lists, own: [own] + S.pairRows)
    expectEqual(state.listRows.map(\.id), ["coin-3", "GBP-USD", "EUR-JPY", "coin-1", "coin-2", "coin-4", "coin-5"])
    let text = Self.frame(state, 120, 24).joined(separator: "\n")
    expectContains(text, "Your coins (1)")
    expectContains(text, "Your pairs (2)")
    expectContains(text, "Top 5 by market cap (1 of them in Your coins)")
    expectEqual(text.components(separatedBy: "Coin 3").count, 2, "listed once: \(text)")
  }

  @Test func theHeaderRowNamesTheColumnsAndTheyDropInTheStatedOrder() throws {
    let state = Self.state(top: 30)
    let wide = Self.frame(state, 160, 48)
    let header = try require(wide.first { $0.contains("Price") })
    for title in ["#", "Coin", "Name", "Price", "1h", "24h", "7d", "Market cap", "Volume", "7 days"] {
      expectContains(header, title, "\(title) at 160: \(header)")
    }
    let narrow = try require(Self.frame(state, 80, 24).first { $0.contains("Price") })
    expect(!narrow.contains("7 days") && narrow.contains("Volume"), "\(narrow)")
    let sixty = try require(Self.frame(state, 60, 24).first { $0.contains("Price") })
    expect(!sixty.contains("Volume") && !sixty.contains("1h") && sixty.contains("7d"), "\(sixty)")
    let tiny = try require(Self.frame(state, 40, 12).first { $0.contains("Price") })
    expect(tiny.contains("Coin") && tiny.contains("24h"), "\(tiny)")
    // Every price whole at every width.
    for width in [40, 60, 80, 120, 160] {
      let text = Self.frame(state, width, 40).joined(separator: "\n")
      expect(text.contains("999.00") && text.contains("C1 "), "width \(width): \(text)")
    }
  }

  @Test func aNameEqualToItsSymbolIsShownAndStarredCoinsHaveAStar() {
    var state = S.state()
    state.lists.favorites = [S.favorite("binancecoin", "BNB", "BNB")]
    let lines = Self.frame(state, 80, 24)
    let bnb = lines.first { $0.contains("BNB") } ?? ""
    expectEqual(bnb.components(separatedBy: "BNB").count, 3, "symbol and name: \(bnb)")
    expect(bnb.hasPrefix(" ★ "), "\(bnb)")
    let eth = lines.first { $0.contains("ETH") } ?? ""
    expect(!eth.contains("★"), "\(eth)")
    expect(Self.frame(state, 80, 24, ascii: true).contains { $0.hasPrefix(" * ") && $0.contains("BNB") })
  }

  @Test func sortKeysSortEachSectionAndTheSameKeyReverses() {
    var state = Self.state(top: 20)
    let effects = S.press(.character("D"), on: &state)
    expectEqual(effects, [.saveSort(HomeSort(column: .change24h, descending: true))])
    let changes = state.listRows.compactMap(\.changePercent)
    expectEqual(changes, changes.sorted(by: >))
    expectEqual(state.notice, "Sorted by 24 h change, largest first")
    _ = S.press(.character("D"), on: &state)
    expectEqual(state.listRows.compactMap(\.changePercent), changes.sorted())
    _ = S.press(.character("M"), on: &state)
    let caps = state.listRows.compactMap(\.market.marketCap)
    expectEqual(caps, caps.sorted(by: >))
    let header = Self.frame(state).first { $0.contains("Price") } ?? ""
    expect(header.contains("24h") && !header.contains("24h▼"), "\(header)")
    expect(Self.frame(state, 160, 48).contains { $0.contains("Market cap▼") })
    _ = S.press(.character("#"), on: &state)
    expectEqual(state.listRows.map(\.id), (1...20).map { "coin-\($0)" })
  }

  @Test func rowsWithoutTheValueStayLastEitherWay() {
    let rows = [
      S.pair("GBP", "USD", 1.27, 0.1),
      {
        var row = S.coin(.coin, "a", "A", "A", 1, 1)
        row.market.volume = 5
        return row
      }(),
      {
        var row = S.coin(.coin, "b", "B", "B", 1, 1)
        row.market.volume = 9
        return row
      }(),
    ]
    let down = HomeSort(column: .volume, descending: true).sorted(rows)
    expectEqual(down.map(\.id), ["b", "a", "GBP-USD"])
    let up = HomeSort(column: .volume, descending: false).sorted(rows)
    expectEqual(up.map(\.id), ["a", "b", "GBP-USD"])
  }

  @Test func theCursorStaysOnItsRowWhenTheSortChanges() {
    var state = Self.state(top: 20)
    _ = S.press(.down, .down, .down, on: &state)
    let id = state.selectedRow?.id
    _ = S.press(.character("V"), on: &state)
    expectEqual(state.selectedRow?.id, id)
  }

  @Test func pageDownShowsWholePagesWithTheirIndicator() {
    // 27 rows: a page of 20 top coins under two empty sections.
    var state = Self.state(height: 27)
    expectEqual(state.pageSize, 20)
    expect(Self.frame(state, 80, 27)[0].contains("Top 1–"))
    _ = S.press(.pageDown, .pageDown, on: &state)
    expect(Self.frame(state, 80, 27)[0].contains("Top 41–60 of 100"), "\(Self.frame(state, 80, 27)[0])")
    _ = S.press(.pageDown, .pageDown, on: &state)
    let frame = Self.frame(state, 80, 27)
    expectContains(frame[0], "Top 81–100 of 100")
    expectEqual(state.selectedRow?.id, "coin-81")
    _ = S.press(.pageDown, on: &state)
    expectEqual(state.selectedRow?.id, "coin-100")
    _ = S.press(.pageUp, on: &state)
    expect(Self.frame(state, 80, 27)[0].contains("Top 61–80 of 100"))
  }

  @Test func sectionsBelowTheWindowAreNamedAt80x24() {
    let own = (1...30).map { S.coin(.coin, "own-\($0)", "O\($0)", "Own \($0)", Double($0), 1) }
    let lists = HomeLists(coins: own.map { S.favorite($0.id, $0.symbol, $0.name) })
    let state = Self.state(lists: lists, own: own)
    let frame = Self.frame(state, 80, 24)
    expectContains(frame[22], "Below: Your pairs (0), Top 100 by market cap (PgDn)")
    expect(frame.allSatisfy { TerminalText.displayWidth($0) <= 80 })
  }
}

/// The sort remembered in the config file, and `--limit`.
@Suite struct HomeSortMemoryTests {
  @Test func theSortIsSavedReadBackAndAFailureIsAStatusLine() async throws {
    let fixture = try HomeDriverFixture()
    let folder = fixture.data.deletingLastPathComponent().appendingPathComponent("config")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = DataFile<[String: String]>(
      url: folder.appendingPathComponent("config.json"), key: "settings", empty: [:])
    var driver = fixture.driver
    driver.config = config
    let sort = HomeSort(column: .marketCap, descending: false)
    let events = await fixture.run(.saveSort(sort), driver: driver)
    expect(events.statuses.allSatisfy { $0 == .idle })
    expectEqual(try config.read()[HomeSort.configKey], "market-cap")
    expectEqual(LiveHomeDriver.rememberedSort(in: config), sort)

    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: folder.path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path) }
    guard getuid() != 0 else { return }
    let failed = await fixture.run(.saveSort(HomeSort(column: .volume, descending: true)), driver: driver)
    guard case .failed(let line)? = failed.statuses.last else {
      Issue.record("expected a failure line, got \(failed.statuses)")
      return
    }
    expect(line.contains("Sort not saved") && line.contains("config.json"), "\(line)")
    expectEqual(try config.read()[HomeSort.configKey], "market-cap")
  }

  @Test(arguments: ["24h", "-24h", "rank", "-volume", "market-cap"])
  func storedFormsRoundTrip(_ stored: String) {
    expectEqual(HomeSort(stored: stored)?.stored, stored)
  }

  @Test func anUnknownStoredSortIsTheStandardOne() {
    expectEqual(HomeSort(stored: "sideways"), nil)
  }
}

/// The Portfolio section: loaded with the list from the ledger, drawn above your coins.
@Suite struct HomePortfolioSectionTests {
  typealias S = HomeListSupport

  @Test func aLedgerWithHoldingsGivesThePortfolioAfterTheBoardAndNoneWithout() async throws {
    let fixture = try HomeDriverFixture()
    let empty = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    expect(empty.contains(.portfolio(nil)))
    _ = try fixture.userData.ledger.append(
      LedgerEntry(
        id: 0, date: Day(containing: fixedNow).adding(days: -3), side: .buy, amount: 1,
        currency: "ETH", counterAmount: 3_000, counterCurrency: "USD", counterparty: nil,
        note: nil, recordedAt: fixedNow))
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let portfolio = events.compactMap { event -> HomePortfolio? in
      if case .portfolio(let portfolio?) = event { return portfolio }
      return nil
    }.last
    expectEqual(portfolio?.currency, "USD")
    expectEqual(portfolio?.holdings.map(\.code), ["ETH"])
    expectEqual(portfolio.map { $0.value > 0 && $0.holdings[0].share == 1 }, true)
    expectEqual(events.statuses.last, .idle)
  }

  @Test func theSectionShowsTheTotalTheDayChangeAndTheLargestHoldings() {
    var state = S.state()
    _ = state.handle(
      .portfolio(
        HomePortfolio(
          currency: "USD", value: 12_345.67, change24h: 146.34,
          holdings: [
            .init(code: "BTC", value: 7_500, share: 0.61), .init(code: "ETH", value: 3_300, share: 0.27),
            .init(code: "LBP", value: 1_545.67, share: 0.12),
          ])))
    let lines = HomeRenderer.render(state, width: 80, height: 24, style: Style(enabled: false), ascii: false)
    expectEqual(lines[2], "Portfolio (3 holdings)")
    expectEqual(lines[3], "   12,345.67 USD  +1.20% today  BTC 61%  ETH 27%  LBP 12%", "\(lines[3])")
    expect(lines[4].hasPrefix("Your coins (2)"))
    let narrow = HomeRenderer.render(state, width: 40, height: 12, style: Style(enabled: false), ascii: false)
    expectEqual(narrow[3], "   12,345.67 USD  +1.20% today  BTC 61%", "\(narrow[3])")
    _ = state.handle(.portfolio(nil))
    expect(
      !HomeRenderer.render(state, width: 80, height: 24, style: Style(enabled: false), ascii: false)
        .contains { $0.hasPrefix("Portfolio") })
  }
}
