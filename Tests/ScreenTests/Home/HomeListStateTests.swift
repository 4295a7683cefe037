import Testing

@testable import RateCore
@testable import RatesCLI

/// The home list's state machine: event → state + effects.
@Suite struct HomeListStateTests {
  typealias S = HomeListSupport

  @Test func listShowsOwnCoinsThenPairsThenTopAndNeverFavoriteRows() {
    let mixed = [S.pairRows[0], S.favoriteOnly, S.ownRows[0]] + S.topRows.reversed()
    let state = S.state(board: S.board(mixed))
    #expect(state.listRows.map(\.kind) == [.coin, .pair, .top, .top, .top, .top, .top])
    #expect(state.listRows[2].id == "solana")
  }

  @Test func movementKeysMoveTheCursorWithinTheRows() {
    var state = S.state()
    state.pageSize = 3
    _ = S.press(.down, .character("j"), on: &state)
    #expect(state.cursor == 2)
    _ = S.press(.up, on: &state)
    #expect(state.cursor == 1)
    _ = S.press(.character("k"), .character("k"), on: &state)
    #expect(state.cursor == 0)
    _ = S.press(.pageDown, on: &state)
    #expect(state.cursor == 3)
    _ = S.press(.end, on: &state)
    #expect(state.cursor == 8)
    _ = S.press(.down, on: &state)
    #expect(state.cursor == 8)
    _ = S.press(.pageUp, on: &state)
    #expect(state.cursor == 5)
    _ = S.press(.home, on: &state)
    #expect(state.cursor == 0)
    _ = S.press(.character("G"), on: &state)
    #expect(state.cursor == 8)
    _ = S.press(.character("g"), on: &state)
    #expect(state.cursor == 0)
  }

  @Test func scrollKeepsTheCursorVisible() {
    var state = S.state()
    state.pageSize = 3
    _ = S.press(.down, .down, .down, .down, on: &state)
    #expect(state.cursor == 4)
    #expect(state.scroll == 2)
    _ = S.press(.up, .up, .up, on: &state)
    #expect(state.scroll == 1)
  }

  @Test func cursorStaysOnTheSameRowAcrossReloads() {
    var state = S.state()
    _ = S.press(.end, .up, .up, on: &state)  // tether
    let extra = S.coin(.top, "ripple", "XRP", "XRP", 0.5, 1)
    _ = state.handle(.board(S.board([extra] + S.topRows + S.ownRows + S.pairRows)))
    #expect(state.selectedRow?.id == "tether")
    #expect(state.cursor == 7)
  }

  @Test func cursorIsClampedWhenItsRowIsGone() {
    var state = S.state()
    _ = S.press(.end, on: &state)
    _ = state.handle(.board(S.board(S.topRows)))
    #expect(state.cursor == 4)
    _ = state.handle(.board(S.board([])))
    #expect(state.cursor == 0)
  }

  @Test func aBoardInAnotherCurrencyIsDropped() {
    var state = S.state()
    _ = state.handle(.board(S.board(S.topRows, currency: "EUR")))
    #expect(state.board?.currency == "USD")
    #expect(state.listRows.count == 9)
  }

  @Test func changedRatesAreMarkedForOneEvent() {
    var state = S.state()
    var rows = S.topRows
    rows[1].rate = 3_600
    _ = state.handle(.board(S.board(rows + S.ownRows)))
    #expect(state.changed == ["ethereum"])
    _ = state.handle(.tick(S.now.addingTimeInterval(1)))
    #expect(state.changed.isEmpty)
  }

  @Test func theHighlightOutlivesTheStatusThatFollowsTheBoard() {
    // The driver sends the board, then at once its status: the highlight must not end
    // with that status (it showed for a few milliseconds), but with the next tick or key.
    var state = S.state()
    var rows = S.topRows
    rows[1].rate = 3_600
    _ = state.handle(.board(S.board(rows + S.ownRows)))
    _ = state.handle(.status(.idle))
    #expect(state.changed == ["ethereum"])
    _ = state.handle(.tick(S.now.addingTimeInterval(1)))
    #expect(state.changed.isEmpty)
  }

  @Test func cCyclesTheCurrenciesAndKeepsTheCursorOnItsRow() {
    var state = S.state()
    _ = S.press(.end, .up, .up, .up, on: &state)  // ethereum
    #expect(S.press(.character("c"), on: &state) == [.loadBoard(currency: "EUR", refresh: false)])
    #expect(state.currency == "EUR")
    #expect(state.loadInFlight)
    let euro = (S.topRows.dropFirst(1) + S.topRows.prefix(1)).map { row -> HomeRow in
      var row = row
      row.currency = "EUR"
      return row
    }
    _ = state.handle(.board(S.board(Array(euro), currency: "EUR")))
    #expect(state.selectedRow?.id == "ethereum")
    #expect(state.changed.isEmpty)
    #expect(S.press(.character("c"), on: &state) == [.loadBoard(currency: "USD", refresh: false)])
  }

  /// A cached board of the new currency holding only the pairs put the cursor on the last
  /// pair for good; the cursor now goes back to its coin when the full board comes.
  @Test func aBoardWithoutTheSelectedRowDoesNotLoseIt() {
    var state = S.state()
    _ = S.press(.end, .up, .up, .up, .character("c"), on: &state)  // ethereum
    func inEuro(_ rows: [HomeRow]) -> [HomeRow] {
      rows.map { row in
        var row = row
        row.currency = "EUR"
        return row
      }
    }
    _ = state.handle(.board(S.board(inEuro(S.pairRows), currency: "EUR")))
    #expect(state.pendingSelection == "ethereum")
    _ = state.handle(.board(S.board(inEuro(S.topRows + S.pairRows), currency: "EUR")))
    #expect(state.selectedRow?.id == "ethereum")
    #expect(state.pendingSelection == nil)
  }

  @Test func rRefreshesNowUnlessRateLimited() {
    var state = S.state()
    #expect(S.press(.character("r"), on: &state) == [.loadBoard(currency: "USD", refresh: true)])
    _ = state.handle(.status(.rateLimited(until: S.now.addingTimeInterval(42))))
    #expect(S.press(.character("r"), on: &state) == [])
  }

  /// Ten `r` in a second made ten requests: `r` waits for a load in flight and spaces
  /// refreshes by ``HomeState/manualRefreshSpacing``.
  @Test func holdingRDownDoesNotSpendTheRateLimit() {
    var state = S.state()
    let effects = S.press(
      .character("r"), .character("r"), .character("r"), .character("r"), on: &state)
    #expect(effects == [.loadBoard(currency: "USD", refresh: true)])
    #expect(state.notice == "Already loading")
    _ = state.handle(.status(.idle))
    state.setClock(S.now.addingTimeInterval(5))
    #expect(S.press(.character("r"), on: &state) == [])
    #expect(state.notice == "Loaded 5 s ago: r works again in 10 s")
    state.setClock(S.now.addingTimeInterval(HomeState.manualRefreshSpacing))
    #expect(S.press(.character("r"), on: &state) == [.loadBoard(currency: "USD", refresh: true)])
  }

  /// `r` never says "Just loaded" over old data or after a failure: it loads.
  @Test func rLoadsOverOldDataAndRightAfterAFailedLoad() {
    var old = S.state(board: S.board(fetchedAt: S.now.addingTimeInterval(-45)))
    old.lastLoadRequest = S.now.addingTimeInterval(-2)
    #expect(S.press(.character("r"), on: &old) == [.loadBoard(currency: "USD", refresh: true)])
    var failed = S.state()
    _ = S.press(.character("r"), on: &failed)
    _ = failed.handle(.status(.failed("CoinGecko is unreachable")))
    failed.setClock(S.now.addingTimeInterval(2))
    #expect(S.press(.character("r"), on: &failed) == [.loadBoard(currency: "USD", refresh: true)])
    var stale = S.state(board: S.board(stale: true))
    stale.setClock(S.now.addingTimeInterval(2))
    #expect(S.press(.character("r"), on: &stale) == [.loadBoard(currency: "USD", refresh: true)])
  }

  /// `rates --refresh` on a terminal: the first load asks the provider.
  @Test func refreshAtStartAsksTheProviderFirst() {
    var state = HomeState(currencies: ["USD"], lists: HomeLists(), pickerCurrencies: [], now: S.now)
    #expect(state.start() == [.loadBoard(currency: "USD", refresh: false)])
    state.refreshAtStart = true
    #expect(state.start() == [.loadBoard(currency: "USD", refresh: true)])
  }

  /// `c` to a currency not loaded yet: while its load is in flight the list says the top
  /// coins are loading; once it failed, that none came.
  @Test func aCurrencyStillLoadingSaysSo() {
    var state = S.state()
    _ = S.press(.character("c"), on: &state)
    let pairsOnly = S.board(S.pairRows, currency: "EUR")
    _ = state.handle(.board(pairsOnly))
    let loading = HomeListRendererTests.render(state)
    #expect(loading.contains { $0.contains("Loading top coins…") }, "\(loading)")
    #expect(!loading.contains { $0.contains("No top coins") })
    _ = state.handle(.status(.failed("CoinGecko is unreachable")))
    #expect(HomeListRendererTests.render(state).contains { $0.contains("No top coins loaded yet: r to try again") })
  }

  @Test func enterOpensTheDetailOnThirtyDays() {
    var state = S.state()
    _ = S.press(.end, .up, .up, .up, on: &state)
    let row = S.topRows[1]
    #expect(S.press(.enter, on: &state) == [.loadDetail(row: row, currency: "USD", days: 30)])
    #expect(state.screen == .detail)
    #expect(state.detail?.row == row)
    #expect(state.detail?.days == 30)
    #expect(state.detail?.loading == true)
  }

  @Test func slashAndPOpenSearchAndThePickerAfresh() {
    var state = S.state()
    state.search.query = "old"
    state.picker.cursor = 7
    #expect(S.press(.character("/"), on: &state) == [])
    #expect(state.screen == .search)
    #expect(state.search == SearchState())
    state.screens = [.home]
    _ = S.press(.character("p"), on: &state)
    #expect(state.screen == .pickBase)
    #expect(state.picker == PickerState())
  }

  @Test func dRemovesAnOwnCoinAndUUndoesIt() {
    var state = S.state()
    _ = S.press(.home, on: &state)  // kaspa
    #expect(state.selectedRow?.id == "kaspa")
    #expect(S.press(.character("d"), on: &state) == [.removeCoin(id: "kaspa")])
    #expect(state.lists.coins.map(\.id) == ["shiba-inu"])
    #expect(!state.listRows.contains { $0.id == "kaspa" })
    #expect(state.undo == .coin(S.lists.coins[0], at: 0))
    #expect(state.notice == "Removing Kaspa\u{2026}")
    #expect(S.press(.character("u"), on: &state) == [.restoreCoin(S.lists.coins[0], at: 0)])
    #expect(state.lists == S.lists)
    #expect(state.listRows.map(\.id) == S.state().listRows.map(\.id))
    #expect(state.selectedRow?.id == "kaspa")
    #expect(state.undo == nil)
    #expect(S.press(.character("u"), on: &state) == [])
  }

  @Test func aLoadFromBeforeTheRemovalDoesNotBringTheRowBack() {
    var state = S.state()
    _ = S.press(.home, .character("d"), on: &state)  // kaspa
    _ = state.handle(.board(S.board()))
    #expect(!state.listRows.contains { $0.id == "kaspa" })
    _ = S.press(.character("u"), on: &state)
    _ = state.handle(.board(S.board()))
    #expect(state.listRows.contains { $0.id == "kaspa" })
  }

  @Test func deleteRemovesAPairAndUUndoesIt() {
    var state = S.state()
    _ = S.press(.down, .down, on: &state)  // GBP-USD
    #expect(S.press(.delete, on: &state) == [.removePair(name: "GBP-USD")])
    #expect(state.lists.pairs.map(\.name) == ["EUR-JPY"])
    #expect(state.selectedRow?.id == "EUR-JPY")
    let pair = S.lists.pairs[0]
    #expect(S.press(.character("u"), on: &state) == [.restorePair(pair, at: 0)])
    #expect(state.lists.pairs == S.lists.pairs)
  }

  @Test func topCoinsCannotBeRemoved() {
    var state = S.state()
    _ = S.press(.end, on: &state)
    #expect(S.press(.character("d"), on: &state) == [])
    #expect(state.listRows.count == 9)
    #expect(state.notice == "Top coins cannot be removed")
    _ = S.press(.down, on: &state)
    #expect(state.notice == nil)
  }

  @Test func fStarsAndUnstarsTheSelectedCoin() {
    var state = S.state()
    _ = S.press(.end, .up, .up, .up, on: &state)  // ethereum, not starred
    #expect(
      S.press(.character("f"), on: &state)
        == [.setFavorite(id: "ethereum", symbol: "ETH", name: "Ethereum", starred: true)])
    #expect(state.lists.favorites.map(\.id) == ["bitcoin", "monero", "ethereum"])
    _ = S.press(.character("f"), on: &state)
    #expect(state.lists.favorites.map(\.id) == ["bitcoin", "monero"])
    _ = S.press(.home, .down, .down, on: &state)  // a pair
    #expect(S.press(.character("f"), on: &state) == [])
  }

  @Test func tabOpensFavoritesWithPricesFromAnyRow() {
    var state = S.state()
    state.lists.favorites.append(S.favorite("dogecoin", "DOGE", "Dogecoin"))
    _ = S.press(.tab, on: &state)
    #expect(state.screen == .favorites)
    let rows = state.favoriteRows
    #expect(rows.map(\.id) == ["bitcoin", "monero", "dogecoin"])
    #expect(rows.map(\.rate) == [66_012.25, 171.2, nil])
    _ = S.press(.down, .enter, on: &state)
    #expect(state.screen == .detail)
    #expect(state.detail?.row.id == "monero")
    state.screens = [.home, .favorites]
    _ = S.press(.character("f"), on: &state)
    #expect(state.lists.favorites.map(\.id) == ["bitcoin", "dogecoin"])
    _ = S.press(.tab, on: &state)
    #expect(state.screen == .home)
    _ = S.press(.tab, .escape, on: &state)
    #expect(state.screen == .home)
  }

  @Test func questionMarkShowsTheKeysAndAnyKeyCloses() {
    var state = S.state()
    _ = S.press(.character("?"), on: &state)
    #expect(state.screen == .help)
    _ = S.press(.down, .down, on: &state)
    #expect(state.helpScroll == 2)
    #expect(state.screen == .help)
    _ = S.press(.character("x"), on: &state)
    #expect(state.screen == .home)
  }

  @Test func qAndEscQuitFromTheList() {
    var state = S.state()
    #expect(S.press(.character("q"), on: &state) == [.exit(.quit)])
    #expect(S.press(.escape, on: &state) == [.exit(.quit)])
    #expect(S.press(.interrupt, on: &state) == [.exit(.interrupted)])
  }

  @Test func listsWithANewCoinOrPairLoadTheBoardAgain() {
    var state = S.state()
    #expect(state.handle(.lists(S.lists)) == [])
    var added = S.lists
    added.coins.append(S.favorite("dogecoin", "DOGE", "Dogecoin"))
    #expect(state.handle(.lists(added)) == [.loadBoard(currency: "USD", refresh: false)])
    var paired = S.lists
    paired.pairs.insert(ConfiguredPair(base: "CHF", quote: "EUR", addedAt: S.now), at: 0)
    #expect(state.handle(.lists(paired)) == [.loadBoard(currency: "USD", refresh: false)])
    var reversed = S.lists
    reversed.pairs[0] = ConfiguredPair(base: "USD", quote: "GBP", addedAt: S.now)
    reversed.coins.removeFirst()
    #expect(state.handle(.lists(reversed)) == [])
  }

  @Test func statusLoadingMeansALoadIsInFlight() {
    var state = S.state()
    _ = state.handle(.status(.loading))
    #expect(state.loadInFlight)
    _ = state.handle(.status(.failed("offline")))
    #expect(!state.loadInFlight)
  }

  @Test func ticksRefreshOnceTheIntervalHasPassed() {
    var state = S.state()
    #expect(state.handle(.tick(S.now.addingTimeInterval(59))) == [])
    #expect(
      state.handle(.tick(S.now.addingTimeInterval(60)))
        == [.loadBoard(currency: "USD", refresh: true)])
    // In flight: no second load.
    #expect(state.handle(.tick(S.now.addingTimeInterval(61))) == [])
  }

  @Test func noRefreshWhileALoadIsInFlight() {
    var state = S.state(board: S.board(fetchedAt: S.now.addingTimeInterval(-600)))
    _ = state.handle(.status(.loading))
    #expect(state.handle(.tick(S.now)) == [])
    _ = state.handle(.status(.idle))
    #expect(state.handle(.tick(S.now)) == [.loadBoard(currency: "USD", refresh: true)])
  }

  @Test func ticksWaitForTheRateLimitPause() {
    var state = S.state()
    _ = state.handle(.status(.rateLimited(until: S.now.addingTimeInterval(90))))
    #expect(state.handle(.tick(S.now.addingTimeInterval(89))) == [])
    #expect(
      state.handle(.tick(S.now.addingTimeInterval(90)))
        == [.loadBoard(currency: "USD", refresh: true)])
  }

  @Test func oldCachedDataIsRetriedOnceAnIntervalNotEveryTick() {
    var state = S.state(board: S.board(fetchedAt: S.now.addingTimeInterval(-7_200), stale: true))
    #expect(state.handle(.tick(S.now)) == [.loadBoard(currency: "USD", refresh: true)])
    _ = state.handle(.status(.failed("offline")))
    #expect(state.handle(.tick(S.now.addingTimeInterval(1))) == [])
    #expect(state.handle(.tick(S.now.addingTimeInterval(59))) == [])
    #expect(state.handle(.tick(S.now.addingTimeInterval(60))).count == 1)
  }
}
