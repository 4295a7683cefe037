import Foundation
import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct HomeDetailTests {
  typealias F = HomeScreenFixtures

  @Test func openingLoadsThirtyDaysInTheRowsCurrency() {
    var state = F.state()
    let effects = state.openDetail(F.bitcoin)
    expectEqual(effects, [.loadDetail(row: F.bitcoin, currency: "USD", days: 30)])
    expectEqual(state.screen, .detail)
    expectEqual(state.detail?.loading, true)
    expectEqual(state.detail?.row, F.bitcoin)
  }

  @Test func theLastPointFollowsTheLiveRate() throws {
    var state = F.onDetail(data: F.coinDetail())
    expectEqual(state.detail?.liveSeries?.points.last?.rate, 86_000)
    var live = F.bitcoin
    live.rate = 87_250
    let elsewhere = HomeRow(
      kind: .top, id: "bitcoin", symbol: "BTC", name: "Bitcoin", currency: "EUR", rate: 1,
      changePercent: nil, changePeriod: .hours24, week: [])
    state.detail?.follow(board: HomeBoard(currency: "EUR", rows: [elsewhere], fetchedAt: F.now, stale: false))
    expectEqual(state.detail?.row.rate, 86_000)
    state.detail?.follow(board: HomeBoard(currency: "USD", rows: [live], fetchedAt: F.now, stale: false))
    expectEqual(state.detail?.liveSeries?.points.last?.rate, 87_250)
    let frame = F.frame(state, 80, 24).joined(separator: "\n")
    expectContains(frame, "\(F.today)  87,250.00 USD")
    expect(F.frame(state, 80, 24).contains { $0.hasPrefix("  price") && $0.contains("87,250.00 USD") })
  }

  @Test func aLiveRateDatedAfterTheSeriesIsANewDay() {
    var state = F.onDetail(data: F.coinDetail())
    var live = F.bitcoin
    live.rate = 88_000
    live.updatedAt = F.now.addingTimeInterval(86_400)
    state.detail?.follow(board: HomeBoard(currency: "USD", rows: [live], fetchedAt: F.now, stale: false))
    let points = state.detail?.liveSeries?.points ?? []
    expectEqual(points.count, 31)
    expectEqual(points.suffix(2).map(\.rate), [85_500, 88_000])
    expectEqual(points.last?.date, F.today.adding(days: 1))
  }

  /// A row from an older board (yesterday's cache, shown while fresh data loads) never
  /// overwrites the newer loaded data: the chart's last day and the price stay the loaded ones.
  @Test func anOlderLiveRateLeavesNewerDataAlone() {
    var old = F.bitcoin
    old.rate = 79_000
    old.updatedAt = F.now.addingTimeInterval(-86_400)
    let state = F.onDetail(old, data: F.coinDetail())
    let points = state.detail?.liveSeries?.points ?? []
    expectEqual(points.count, 30)
    expect(points.last?.date == F.today && points.last?.rate == 85_500)
    let frame = F.frame(state, 80, 24)
    expect(frame.contains { $0.hasPrefix("  price") && $0.contains("85,500.00 USD") }, "\(frame)")
    expect(!frame.joined().contains("79,000"))
    var pair = F.gbpUSD
    pair.rate = 1.2
    pair.updatedAt = F.now.addingTimeInterval(-5 * 86_400)
    let pairState = F.onDetail(pair, data: F.pairDetail())
    expectEqual(pairState.detail?.liveSeries?.points.last, F.pairSeries(days: 30).points.last)
    expect(F.frame(pairState, 80, 24).contains { $0.hasPrefix("  ECB rate") && $0.contains("1.2540 USD") })
  }

  /// A pair's ECB rate published after the loaded series is shown with its own day.
  @Test func aNewerEcbRateIsDatedAsPublished() {
    var pair = F.gbpUSD
    pair.rate = 1.2711
    pair.updatedAt = F.today.adding(days: 1).start
    let state = F.onDetail(pair, data: F.pairDetail())
    let line = F.frame(state, 80, 24).first { $0.hasPrefix("  ECB rate") } ?? ""
    expect(line.contains("1.2711 USD") && line.contains("Thu 2026-11-26"), "\(line)")
  }

  @Test func arrowsHomeAndEndMoveTheCursor() {
    var state = F.onDetail(data: F.coinDetail())
    expectEqual(state.detail?.cursorDay, nil)
    _ = state.handle(.key(.left))
    expectEqual(state.detail?.cursorDay, F.today.adding(days: -1))
    _ = state.handle(.key(.character("h")))
    _ = state.handle(.key(.character("h")))
    _ = state.handle(.key(.character("l")))
    expectEqual(state.detail?.cursorDay, F.today.adding(days: -2))
    _ = state.handle(.key(.home))
    expectEqual(state.detail?.cursorDay, F.today.adding(days: -29))
    _ = state.handle(.key(.end))
    expectEqual(state.detail?.cursorDay, nil)
    let frame = F.frame(state, 80, 24)
    expect(frame.contains { $0.hasPrefix("\(F.today)  86,000.00 USD") })
  }

  @Test func aClickOnTheChartPutsTheCursorOnThatColumnsDay() throws {
    var state = F.onDetail(data: F.coinDetail())
    state.setWindow(width: 80, height: 24)
    let layout = HomeRenderer.detailLayout(try require(state.detail), window: .init(width: 80, height: 24))
    // 1-based cells: the plot's first column, on a chart row, is the first day.
    _ = state.handle(.key(.mouse(column: layout.plotStart + 1, row: layout.chartTop + 2)))
    expectEqual(state.detail?.cursorDay, F.today.adding(days: -29))
    // Its middle column.
    _ = state.handle(.key(.mouse(column: layout.plotStart + layout.plotWidth / 2 + 1, row: layout.chartTop + 1)))
    let middle = try require(state.detail?.cursorDay)
    expect(abs(middle.distance(to: F.today.adding(days: -15))) <= 1)
    // Outside the chart (the figures, the value labels): nothing moves.
    _ = state.handle(.key(.mouse(column: layout.plotStart + 3, row: 2)))
    _ = state.handle(.key(.mouse(column: 1, row: layout.chartTop + 1)))
    expectEqual(state.detail?.cursorDay, middle)
    // The last column is the last day.
    _ = state.handle(.key(.mouse(column: layout.plotStart + layout.plotWidth, row: layout.chartTop + 1)))
    expectEqual(state.detail?.cursorDay, nil)
  }

  @Test func aClickUsesTheWindowSize() throws {
    var state = F.onDetail(data: F.coinDetail())
    state.setWindow(width: 40, height: 12)
    let layout = HomeRenderer.detailLayout(try require(state.detail), window: .init(width: 40, height: 12))
    expectEqual(layout.plotStart + layout.plotWidth, 40)
    _ = state.handle(.key(.mouse(column: layout.plotStart + 1, row: layout.chartTop + 1)))
    expectEqual(state.detail?.cursorDay, F.today.adding(days: -29))
  }

  @Test func rangeKeysLoadAndKeepTheCursorsDay() {
    var state = F.onDetail(data: F.coinDetail())
    for _ in 0..<3 { _ = state.handle(.key(.left)) }
    expectEqual(state.handle(.key(.character("3"))), [.loadDetail(row: F.bitcoin, currency: "USD", days: 90)])
    expectEqual(state.detail?.days, 90)
    expectEqual(state.detail?.loading, true)
    expectEqual(F.frame(state, 80, 24).last?.hasPrefix("Loading 90 days…  "), true)
    expectEqual(F.frame(state, 80, 24).last?.hasSuffix("q back"), true, "the keys stay")
    _ = state.handle(.detail(F.coinDetail(days: 90)))
    expectEqual(state.detail?.loading, false)
    expectEqual(state.detail?.cursorDay, F.today.adding(days: -3))
    // A day the new range lacks: the cursor goes to the last day.
    _ = state.handle(.key(.home))
    expectEqual(state.handle(.key(.character("1"))), [.loadDetail(row: F.bitcoin, currency: "USD", days: 7)])
    _ = state.handle(.detail(F.coinDetail(days: 7)))
    expectEqual(state.detail?.cursorDay, nil)
    expectEqual(state.handle(.key(.character("4"))), [.loadDetail(row: F.bitcoin, currency: "USD", days: 365)])
    expectEqual(state.handle(.key(.character("5"))), [])
    expectEqual(state.detail?.days, 365)
  }

  @Test func anAnswerForAnotherRangeOrRowIsDropped() {
    var state = F.onDetail(data: F.coinDetail())
    _ = state.handle(.key(.character("3")))
    _ = state.handle(.detail(F.coinDetail(days: 30)))
    expectEqual(state.detail?.loading, true)
    _ = state.handle(.detail(F.pairDetail(days: 90)))
    expectEqual(state.detail?.data?.rowID, "bitcoin")
    expectEqual(state.detail?.data?.days, 30)
  }

  @Test func fStarsAndUnstarsACoinAtOnce() {
    var state = F.onDetail(data: F.coinDetail())
    expectEqual(
      state.handle(.key(.character("f"))),
      [.setFavorite(id: "bitcoin", symbol: "BTC", name: "Bitcoin", starred: true)])
    expectEqual(state.lists.favorites.map(\.id), ["bitcoin"])
    expectEqual(state.detail?.message, "Starring Bitcoin\u{2026}")
    _ = state.handle(.saved(.setFavorite(id: "bitcoin", symbol: "BTC", name: "Bitcoin", starred: true)))
    expectEqual(state.detail?.message, "Starred Bitcoin")
    expect(F.frame(state, 80, 24)[0].contains("★ starred"))
    expectEqual(
      state.handle(.key(.character("f"))),
      [.setFavorite(id: "bitcoin", symbol: "BTC", name: "Bitcoin", starred: false)])
    expect(state.lists.favorites.isEmpty)
    _ = state.handle(.saved(.setFavorite(id: "bitcoin", symbol: "BTC", name: "Bitcoin", starred: false)))
    // The answer, and the keys beside it.
    expectEqual(F.frame(state, 80, 24).last?.hasPrefix("Unstarred Bitcoin  "), true)
    expectEqual(F.frame(state, 80, 24).last?.hasSuffix("q back"), true)
  }

  /// A long name gives way in a narrow header: the range and the star stay in view.
  @Test func aLongNameLeavesTheRangeAndStarInTheHeader() {
    var row = F.bitcoin
    row.name = "Wrapped Liquid Staked Ether 2.0"
    row.symbol = "WSTETH"
    let starred = HomeLists(favorites: [FavoriteCoin(id: "bitcoin", symbol: "BTC", name: nil, addedAt: F.now)])
    var state = F.onDetail(row, data: F.coinDetail(), lists: starred)
    _ = state.handle(.key(.character("4")))
    for ascii in [false, true] {
      let header = F.frame(state, 40, 12, ascii: ascii)[0]
      expect(header.hasPrefix("Wrapped L"), "\(header)")
      expect(header.hasSuffix("365 days  " + (ascii ? "* starred" : "★ starred")), "\(header)")
      expect(TerminalText.displayWidth(header) <= 40)
    }
  }

  @Test func fOnAPairSaysItStarsCoinsOnly() {
    var state = F.onDetail(F.gbpUSD, data: F.pairDetail())
    expectEqual(state.handle(.key(.character("f"))), [])
    expect(state.lists.favorites.isEmpty)
    expectEqual(F.frame(state, 80, 24).last?.hasPrefix("Only coins can be starred: a pair has no star  "), true)
    _ = state.handle(.key(.left))
    expectEqual(state.detail?.message, nil)
  }

  @Test func rLoadsAgainAndEscGoesBack() {
    var state = F.onDetail(data: F.coinDetail())
    expectEqual(state.handle(.key(.character("r"))), [.loadDetail(row: F.bitcoin, currency: "USD", days: 30)])
    expectEqual(state.detail?.loading, true)
    expectEqual(state.handle(.key(.escape)), [])
    expectEqual(state.screen, .home)
    expectEqual(state.detail, nil)
    var again = F.onDetail(data: F.coinDetail())
    _ = again.handle(.key(.character("q")))
    expectEqual(again.screen, .home)
  }

  /// 7 → 90 days online: the cached days come first and the fresh ones follow; meanwhile
  /// the line says they load (not "stale") and keeps the keys; stale only once the load
  /// ended without fresh data.
  @Test func aCachedRangeWhileTheFreshOneLoadsSaysLoadingWithTheKeys() {
    var state = F.onDetail(data: F.coinDetail())
    _ = state.handle(.key(.character("3")))
    _ = state.handle(.detail(F.coinDetail(days: 90, stale: true)))
    _ = state.handle(.status(.loading))
    let footer = F.frame(state, 80, 24).last ?? ""
    expect(footer.hasPrefix("Loading 90 days…  ") && footer.hasSuffix("q back"), "\(footer)")
    expect(!footer.contains("stale"))
    _ = state.handle(.detail(F.coinDetail(days: 90)))
    _ = state.handle(.status(.idle))
    expectEqual(F.frame(state, 80, 24).last?.hasPrefix("←/→ day"), true)
    _ = state.handle(.key(.character("2")))
    _ = state.handle(.detail(F.coinDetail(days: 30, stale: true)))
    _ = state.handle(.status(.idle))
    let stale = F.frame(state, 80, 24).last ?? ""
    expect(stale.hasPrefix("stale: cached 5 min ago  ") && stale.hasSuffix("q back"), "\(stale)")
  }

  @Test func loadingAndStaleAreShown() {
    let loading = F.frame(F.onDetail(), 80, 24)
    expect(loading.contains("Loading 30 days…"))
    expect(F.frame(F.onDetail(), 80, 24, ascii: true).contains("Loading 30 days..."))
    let stale = F.frame(F.onDetail(data: F.coinDetail(stale: true)), 80, 24)
    expectEqual(stale.last?.hasPrefix("stale: cached 5 min ago"), true)
  }

  /// Offline or paused with nothing cached, the body says why nothing came instead of
  /// "Loading…" for ever.
  @Test func aDetailThatCannotLoadSaysSoInsteadOfLoading() {
    var failed = F.onDetail()
    _ = failed.handle(.status(.failed("cannot reach CoinGecko")))
    expect(F.frame(failed, 80, 24).contains { $0.contains("No data yet: r to try again") })
    expect(!F.frame(failed, 80, 24).contains { $0.contains("Loading") })
    var paused = F.onDetail()
    _ = paused.handle(.status(.rateLimited(until: F.now.addingTimeInterval(30))))
    expect(F.frame(paused, 80, 24).contains { $0.contains("No data yet: waiting out the pause") })
    var loading = F.onDetail()
    _ = loading.handle(.status(.loading))
    expect(F.frame(loading, 80, 24).contains { $0.contains("Loading 30 days…") })
  }

  @Test func questionMarkShowsTheKeysAndComesBack() {
    var state = F.onDetail(data: F.coinDetail())
    _ = state.handle(.key(.character("?")))
    expectEqual(state.screen, .help)
    _ = state.handle(.key(.character("x")))
    expectEqual(state.screen, .detail)
  }

  @Test func aNameThatIsTheSymbolIsNotRepeated() {
    var xrp = F.bitcoin
    xrp.id = "ripple"
    xrp.symbol = "XRP"
    xrp.name = "XRP"
    let header = F.frame(F.onDetail(xrp), 80, 24).first ?? ""
    expect(header.hasPrefix("XRP in USD"), "\(header)")
  }

  /// Offline with nothing cached, a pair's detail is drawn from the built-in ECB rates: the
  /// footer names them as `history` does, not as an ordinary stale cache.
  @Test func ratesBuiltInAreNamedAsSuch() {
    var data = F.pairDetail()
    data.series.source = .ecbSnapshot(through: Day("2026-10-30"))
    data.stale = true
    let footer = F.frame(F.onDetail(F.gbpUSD, data: data), 80, 24).last ?? ""
    expect(footer.hasPrefix("offline: ECB snapshot to 2026-10-30"), "\(footer)")
  }

  @Test func aRateLimitPauseIsNotHidden() {
    var state = F.onDetail(data: F.coinDetail())
    _ = state.handle(.status(.rateLimited(until: F.now.addingTimeInterval(42))))
    expectEqual(F.frame(state, 80, 24).last?.hasPrefix("rate limited by CoinGecko: next try in 42 s  "), true)
  }

  @Test func aCarriedDayNamesTheDayItsRateIsFrom() {
    var state = F.onDetail(F.gbpUSD, data: F.pairDetail())
    // 2026-11-22 is a Sunday: three days before Wednesday the 25th.
    for _ in 0..<3 { _ = state.handle(.key(.left)) }
    let frame = F.frame(state, 80, 24)
    expect(frame.contains { $0.contains("2026-11-22  1.2") && $0.contains("carried from Fri 2026-11-20") })
    expect(frame.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("·") })
    expect(frame.contains { $0.contains("+0.12% 1d") && $0.contains("since the working day before") })
    expect(frame.contains { $0.contains("ECB rate") && $0.contains("1.2634 USD") && $0.contains("Wed 2026-11-25") })
  }

  /// On a year, a column spans more than a day: only a column whose days are all carried is
  /// marked (every column was, since each held a weekend).
  @Test func aColumnWithAPublishedRateIsNotMarkedCarried() {
    let days = F.pairSeries(days: 365).points
    var layout = DetailLayout(body: [])
    layout.plotWidth = 40
    let marks = HomeRenderer.carriedMarks(days, layout: layout, style: F.plain, ascii: true)
    expect(!marks.contains("."), "\(marks)")
    var weekly = DetailLayout(body: [])
    weekly.plotWidth = 14
    let two = Array(days.suffix(14))
    let dots = HomeRenderer.carriedMarks(two, layout: weekly, style: F.plain, ascii: true)
    expectEqual(dots.filter { $0 == "." }.count, two.filter(\.carried).count)
  }

  @Test func aPairsChangeFromTheDayBeforeKeepsItsDecimals() {
    var state = F.onDetail(F.gbpUSD, data: F.pairDetail())
    // Tuesday 2026-11-24 (1.2530) after Monday the 23rd (1.2520).
    for _ in 0..<1 { _ = state.handle(.key(.left)) }
    expect(F.frame(state, 80, 24).contains { $0.hasPrefix("2026-11-24  1.2530 USD  +0.0010 (+0.08%)") })
  }

  @Test func coinFiguresAsInfoShowsThem() {
    let frame = F.frame(F.onDetail(data: F.coinDetail()), 80, 24)
    for text in [
      "market cap", "1.70T USD", "volume 24h", "31.23B USD", "24h low", "84,100.00 USD",
      "126,080.00 USD   2025-10-06  -32.20% from it", "67.810 USD  2013-07-06",
      "circulating", "19.80M", "max supply", "21.00M", "+1.50% 24h",
    ] {
      expect(frame.contains { $0.contains(text) }, "\(text)")
    }
    var none = F.market
    none.maxSupply = nil
    let dash = F.frame(F.onDetail(data: F.coinDetail(market: none)), 80, 24)
    expect(dash.contains { $0.hasPrefix("  max supply") && $0.hasSuffix("—") })
  }

  /// Below 40×12 (a window shrunk for a moment) nothing is promised but a frame that fits;
  /// a pair's carried-day marks on a chart with no plot columns crashed (index out of range).
  @Test func aTinyWindowStillGetsAFrame() {
    for width in 0..<40 {
      for height in 0..<12 {
        var state = F.onDetail(F.gbpUSD, data: F.pairDetail())
        state.setWindow(width: width, height: height)
        let lines = F.frame(state, width, height)
        expect(lines.count <= max(1, height) && lines.allSatisfy { TerminalText.displayWidth($0) <= width })
        _ = state.handle(.key(.mouse(column: width / 2 + 1, row: height / 2 + 1)))
      }
    }
  }

  @Test(arguments: [(40, 12), (48, 14), (60, 20), (80, 24), (120, 40)])
  func fitsWithoutCuttingAFigure(width: Int, height: Int) {
    var evil = F.bitcoin
    evil.name = "Bit\u{1B}]0;pwned\u{07}coin"
    for state in [
      F.onDetail(data: F.coinDetail(days: 365)), F.onDetail(F.gbpUSD, data: F.pairDetail(days: 365)),
      F.onDetail(evil, data: F.coinDetail()), F.onDetail(),
    ] {
      for ascii in [false, true] {
        for color in [false, true] {
          let lines = F.frame(state, width, height, color: color, ascii: ascii)
          expectEqual(lines.count, height)
          expect(lines.allSatisfy { TerminalText.displayWidth($0) <= width })
          expect(!lines.joined().contains("pwned\u{07}"))
          let cut = lines.dropLast().filter { $0.contains(ascii ? "..." : "…") && !$0.hasPrefix("Loading") }
          expect(cut.isEmpty, "\(lines)")
        }
      }
    }
  }
}

@Suite struct HomeDetailGoldenTests {
  typealias F = HomeScreenFixtures

  static func movedLeft(_ state: HomeState, _ count: Int) -> HomeState {
    var state = state
    for _ in 0..<count { _ = state.handle(.key(.left)) }
    return state
  }

  @Test func coin() throws {
    let state = Self.movedLeft(F.onDetail(data: F.coinDetail(), lists: HomeLists(favorites: [])), 4)
    try F.checkGolden(state, "detail-coin.80x24", 80, 24)
    try F.checkGolden(state, "detail-coin.color.80x24", 80, 24, color: true)
    try F.checkGolden(state, "detail-coin.ascii.80x24", 80, 24, ascii: true)
    try F.checkGolden(state, "detail-coin.40x12", 40, 12)
  }

  @Test func pair() throws {
    let state = Self.movedLeft(F.onDetail(F.gbpUSD, data: F.pairDetail()), 3)
    try F.checkGolden(state, "detail-pair.80x24", 80, 24)
    try F.checkGolden(state, "detail-pair.ascii.80x24", 80, 24, ascii: true)
    try F.checkGolden(state, "detail-pair.40x12", 40, 12)
  }

  @Test func loading() throws {
    try F.checkGolden(F.onDetail(), "detail-loading.80x24", 80, 24)
    try F.checkGolden(F.onDetail(), "detail-loading.40x12", 40, 12)
  }
}
