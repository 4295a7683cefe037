import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

/// The home list's state machine: event → state + effects.
@Suite struct HomeListStateTests {
  typealias S = HomeListSupport

  @Test func listShowsOwnCoinsThenPairsThenTopAndNeverFavoriteRows() {
    let mixed = [S.pairRows[0], S.favoriteOnly, S.ownRows[0]] + S.topRows.reversed()
    let state = S.state(board: S.board(mixed))
    expectEqual(state.listRows.map(\.kind), [.coin, .pair, .top, .top, .top, .top, .top])
    expectEqual(state.listRows[2].id, "solana")
  }

  @Test func movementKeysMoveTheCursorWithinTheRows() {
    var state = S.state()
    state.pageSize = 3
    _ = S.press(.down, .character("j"), on: &state)
    expectEqual(state.cursor, 2)
    _ = S.press(.up, on: &state)
    expectEqual(state.cursor, 1)
    _ = S.press(.character("k"), .character("k"), on: &state)
    expectEqual(state.cursor, 0)
    _ = S.press(.pageDown, on: &state)
    expectEqual(state.cursor, 3)
    _ = S.press(.end, on: &state)
    expectEqual(state.cursor, 8)
    _ = S.press(.down, on: &state)
    expectEqual(state.cursor, 8)
    _ = S.press(.pageUp, on: &state)
    expectEqual(state.cursor, 5)
    _ = S.press(.home, on: &state)
    expectEqual(state.cursor, 0)
    _ = S.press(.character("G"), on: &state)
    expectEqual(state.cursor, 8)
    _ = S.press(.character("g"), on: &state)
    expectEqual(state.cursor, 0)
  }

  @Test func scrollKeepsTheCursorVisible() {
    var state = S.state()
    state.pageSize = 3
    _ = S.press(.down, .down, .down, .down, on: &state)
    expectEqual(state.cursor, 4)
    expectEqual(state.scroll, 2)
    _ = S.press(.up, .up, .up, on: &state)
    expectEqual(state.scroll, 1)
  }

  @Test func cursorStaysOnTheSameRowAcrossReloads() {
    var state = S.state()
    _ = S.press(.end, .up, .up, on: &state)  // tether
    let extra = S.coin(.top, "ripple", "XRP", "XRP", 0.5, 1)
    _ = state.handle(.board(S.board([extra] + S.topRows + S.ownRows + S.pairRows)))
    expectEqual(state.selectedRow?.id, "tether")
    expectEqual(state.cursor, 7)
  }

  @Test func cursorIsClampedWhenItsRowIsGone() {
    var state = S.state()
    _ = S.press(.end, on: &state)
    _ = state.handle(.board(S.board(S.topRows)))
    expectEqual(state.cursor, 4)
    _ = state.handle(.board(S.board([])))
    expectEqual(state.cursor, 0)
  }

  @Test func aBoardInAnotherCurrencyIsDropped() {
    var state = S.state()
    _ = state.handle(.board(S.board(S.topRows, currency: "EUR")))
    expectEqual(state.board?.currency, "USD")
    expectEqual(state.listRows.count, 9)
  }

  @Test func changedRatesAreMarkedForOneEvent() {
    var state = S.state()
    var rows = S.topRows
    rows[1].rate = 3_600
    _ = state.handle(.board(S.board(rows + S.ownRows)))
    expectEqual(state.changed, ["ethereum"])
    _ = state.handle(.tick(S.now.addingTimeInterval(1)))
    expect(state.changed.isEmpty)
  }

  @Test func theHighlightOutlivesTheStatusThatFollowsTheBoard() {
    // The driver sends the board, then at once its status: the highlight must not end
    // with that status (it showed for a few milliseconds), but with the next tick or key.
    var state = S.state()
    var rows = S.topRows
    rows[1].rate = 3_600
    _ = state.handle(.board(S.board(rows + S.ownRows)))
    _ = state.handle(.status(.idle))
    expectEqual(state.changed, ["ethereum"])
    _ = state.handle(.tick(S.now.addingTimeInterval(1)))
    expect(state.changed.isEmpty)
  }

  @Test func cCyclesTheCurrenciesAndKeepsTheCursorOnItsRow() {
    var state = S.state()
    _ = S.press(.end, .up, .up, .up, on: &state)  // ethereum
    expectEqual(S.press(.character("c"), on: &state), [.loadBoard(currency: "EUR", refresh: false)])
    expectEqual(state.currency, "EUR")
    expect(state.loadInFlight)
    let euro = (S.topRows.dropFirst(1) + S.topRows.prefix(1)).map { row -> HomeRow in
      var row = row
      row.currency = "EUR"
      return row
    }
    _ = state.handle(.board(S.board(Array(euro), currency: "EUR")))
    expectEqual(state.selectedRow?.id, "ethereum")
    expect(state.changed.isEmpty)
    expectEqual(S.press(.character("c"), on: &state), [.loadBoard(currency: "USD", refresh: false)])
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
    expectEqual(state.pendingSelection, "ethereum")
    _ = state.handle(.board(S.board(inEuro(S.topRows + S.pairRows), currency: "EUR")))
    expectEqual(state.selectedRow?.id, "ethereum")
    expectEqual(state.pendingSelection, nil)
  }

  @Test func rRefreshesNowUnlessRateLimited() {
    var state = S.state()
    expectEqual(S.press(.character("r"), on: &state), [.loadBoard(currency: "USD", refresh: true)])
    _ = state.handle(.status(.rateLimited(until: S.now.addingTimeInterval(42))))
    expectEqual(S.press(.character("r"), on: &state), [])
  }

  /// Ten `r` in a second made ten requests: `r` waits for a load in flight and spaces
  /// refreshes by ``HomeState/manualRefreshSpacing``.
  @Test func holdingRDownDoesNotSpendTheRateLimit() {
    var state = S.state()
    let effects = S.press(
      .character("r"), .character("r"), .character("r"), .character("r"), on: &state)
    expectEqual(effects, [.loadBoard(currency: "USD", refresh: true)])
    expectEqual(state.notice, "Already loading")
    _ = state.handle(.status(.idle))
    state.setClock(S.now.addingTimeInterval(5))
    expectEqual(S.press(.character("r"), on: &state), [])
    expectEqual(state.notice, "Loaded 5 s ago: r works again in 10 s")
    state.setClock(S.now.addingTimeInterval(HomeState.manualRefreshSpacing))
    expectEqual(S.press(.character("r"), on: &state), [.loadBoard(currency: "USD", refresh: true)])
  }

  /// `r` never says "Just loaded" over old data or after a failure: it loads.
  @Test func rLoadsOverOldDataAndRightAfterAFailedLoad() {
    var old = S.state(board: S.board(fetchedAt: S.now.addingTimeInterval(-45)))
    old.lastLoadRequest = S.now.addingTimeInterval(-2)
    expectEqual(S.press(.character("r"), on: &old), [.loadBoard(currency: "USD", refresh: true)])
    var failed = S.state()
    _ = S.press(.character("r"), on: &failed)
    _ = failed.handle(.status(.failed("CoinGecko is unreachable")))
    failed.setClock(S.now.addingTimeInterval(2))
    expectEqual(S.press(.character("r"), on: &failed), [.loadBoard(currency: "USD", refresh: true)])
    var stale = S.state(board: S.board(stale: true))
    stale.setClock(S.now.addingTimeInterval(2))
    expectEqual(S.press(.character("r"), on: &stale), [.loadBoard(currency: "USD", refresh: true)])
  }

  /// `rates --refresh` on a terminal: the first load asks the provider.
  @Test func refreshAtStartAsksTheProviderFirst() {
    var state = HomeState(currencies: ["USD"], lists: HomeLists(), pickerCurrencies: [], now: S.now)
    expectEqual(state.start(), [.loadBoard(currency: "USD", refresh: false)])
    state.refreshAtStart = true
    expectEqual(state.start(), [.loadBoard(currency: "USD", refresh: true)])
  }

  /// `c` to a currency not loaded yet: while its load is in flight the list says the top
  /// coins are loading; once it failed, that none came.
  @Test func aCurrencyStillLoadingSaysSo() {
    var state = S.state()
    _ = S.press(.character("c"), on: &state)
    let pairsOnly = S.board(S.pairRows, currency: "EUR")
    _ = state.handle(.board(pairsOnly))
    let loading = HomeListRendererTests.render(state)
    expect(loading.contains { $0.contains("Loading top coins…") }, "\(loading)")
    expect(!loading.contains { $0.contains("No top coins") })
    _ = state.handle(.status(.failed("CoinGecko is unreachable")))
    expect(HomeListRendererTests.render(state).contains { $0.contains("No top coins loaded yet: r to try again") })
  }

  @Test func enterOpensTheDetailOnThirtyDays() {
    var state = S.state()
    _ = S.press(.end, .up, .up, .up, on: &state)
    let row = S.topRows[1]
    expectEqual(S.press(.enter, on: &state), [.loadDetail(row: row, currency: "USD", days: 30)])
    expectEqual(state.screen, .detail)
    expectEqual(state.detail?.row, row)
    expectEqual(state.detail?.days, 30)
    expectEqual(state.detail?.loading, true)
  }

  @Test func slashAndPOpenSearchAndThePickerAfresh() {
    var state = S.state()
    state.search.query = "old"
    state.picker.cursor = 7
    expectEqual(S.press(.character("/"), on: &state), [])
    expectEqual(state.screen, .search)
    expectEqual(state.search, SearchState())
    state.screens = [.home]
    _ = S.press(.character("p"), on: &state)
    expectEqual(state.screen, .pickBase)
    expectEqual(state.picker, PickerState())
  }

  @Test func dRemovesAnOwnCoinAndUUndoesIt() {
    var state = S.state()
    _ = S.press(.home, on: &state)  // kaspa
    expectEqual(state.selectedRow?.id, "kaspa")
    expectEqual(S.press(.character("d"), on: &state), [.removeCoin(id: "kaspa")])
    expectEqual(state.lists.coins.map(\.id), ["shiba-inu"])
    expect(!state.listRows.contains { $0.id == "kaspa" })
    expectEqual(state.undo, .coin(S.lists.coins[0], at: 0))
    expectEqual(state.notice, "Removing Kaspa\u{2026}")
    expectEqual(S.press(.character("u"), on: &state), [.restoreCoin(S.lists.coins[0], at: 0)])
    expectEqual(state.lists, S.lists)
    expectEqual(state.listRows.map(\.id), S.state().listRows.map(\.id))
    expectEqual(state.selectedRow?.id, "kaspa")
    expectEqual(state.undo, nil)
    expectEqual(S.press(.character("u"), on: &state), [])
  }

  @Test func aLoadFromBeforeTheRemovalDoesNotBringTheRowBack() {
    var state = S.state()
    _ = S.press(.home, .character("d"), on: &state)  // kaspa
    _ = state.handle(.board(S.board()))
    expect(!state.listRows.contains { $0.id == "kaspa" })
    _ = S.press(.character("u"), on: &state)
    _ = state.handle(.board(S.board()))
    expect(state.listRows.contains { $0.id == "kaspa" })
  }

  @Test func deleteRemovesAPairAndUUndoesIt() {
    var state = S.state()
    _ = S.press(.down, .down, on: &state)  // GBP-USD
    expectEqual(S.press(.delete, on: &state), [.removePair(name: "GBP-USD")])
    expectEqual(state.lists.pairs.map(\.name), ["EUR-JPY"])
    expectEqual(state.selectedRow?.id, "EUR-JPY")
    let pair = S.lists.pairs[0]
    expectEqual(S.press(.character("u"), on: &state), [.restorePair(pair, at: 0)])
    expectEqual(state.lists.pairs, S.lists.pairs)
  }

  @Test func topCoinsCannotBeRemoved() {
    var state = S.state()
    _ = S.press(.end, on: &state)
    expectEqual(S.press(.character("d"), on: &state), [])
    expectEqual(state.listRows.count, 9)
    expectEqual(state.notice, "Top coins cannot be removed")
    _ = S.press(.down, on: &state)
    expectEqual(state.notice, nil)
  }

  @Test func fStarsAndUnstarsTheSelectedCoin() {
    var state = S.state()
    _ = S.press(.end, .up, .up, .up, on: &state)  // ethereum, not starred
    expectEqual(
      S.press(.character("f"), on: &state),
      [.setFavorite(id: "ethereum", symbol: "ETH", name: "Ethereum", starred: true)])
    expectEqual(state.lists.favorites.map(\.id), ["bitcoin", "monero", "ethereum"])
    _ = S.press(.character("f"), on: &state)
    expectEqual(state.lists.favorites.map(\.id), ["bitcoin", "monero"])
    _ = S.press(.home, .down, .down, on: &state)  // a pair
    expectEqual(S.press(.character("f"), on: &state), [])
  }

  @Test func tabOpensFavoritesWithPricesFromAnyRow() {
    var state = S.state()
    state.lists.favorites.append(S.favorite("dogecoin", "DOGE", "Dogecoin"))
    _ = S.press(.tab, on: &state)
    expectEqual(state.screen, .favorites)
    let rows = state.favoriteRows
    expectEqual(rows.map(\.id), ["bitcoin", "monero", "dogecoin"])
    expectEqual(rows.map(\.rate), [66_012.25, 171.2, nil])
    _ = S.press(.down, .enter, on: &state)
    expectEqual(state.screen, .detail)
    expectEqual(state.detail?.row.id, "monero")
    state.screens = [.home, .favorites]
    _ = S.press(.character("f"), on: &state)
    expectEqual(state.lists.favorites.map(\.id), ["bitcoin", "dogecoin"])
    _ = S.press(.tab, on: &state)
    expectEqual(state.screen, .home)
    _ = S.press(.tab, .escape, on: &state)
    expectEqual(state.screen, .home)
  }

  @Test func questionMarkShowsTheKeysAndAnyKeyCloses() {
    var state = S.state()
    _ = S.press(.character("?"), on: &state)
    expectEqual(state.screen, .help)
    _ = S.press(.down, .down, on: &state)
    expectEqual(state.helpScroll, 2)
    expectEqual(state.screen, .help)
    _ = S.press(.character("x"), on: &state)
    expectEqual(state.screen, .home)
  }

  @Test func qAndEscQuitFromTheList() {
    var state = S.state()
    expectEqual(S.press(.character("q"), on: &state), [.exit(.quit)])
    expectEqual(S.press(.escape, on: &state), [.exit(.quit)])
    expectEqual(S.press(.interrupt, on: &state), [.exit(.interrupted)])
  }

  @Test func listsWithANewCoinOrPairLoadTheBoardAgain() {
    var state = S.state()
    expectEqual(state.handle(.lists(S.lists)), [])
    var added = S.lists
    added.coins.append(S.favorite("dogecoin", "DOGE", "Dogecoin"))
    expectEqual(state.handle(.lists(added)), [.loadBoard(currency: "USD", refresh: false)])
    var paired = S.lists
    paired.pairs.insert(ConfiguredPair(base: "CHF", quote: "EUR", addedAt: S.now), at: 0)
    expectEqual(state.handle(.lists(paired)), [.loadBoard(currency: "USD", refresh: false)])
    var reversed = S.lists
    reversed.pairs[0] = ConfiguredPair(base: "USD", quote: "GBP", addedAt: S.now)
    reversed.coins.removeFirst()
    expectEqual(state.handle(.lists(reversed)), [])
  }

  @Test func statusLoadingMeansALoadIsInFlight() {
    var state = S.state()
    _ = state.handle(.status(.loading))
    expect(state.loadInFlight)
    _ = state.handle(.status(.failed("offline")))
    expect(!state.loadInFlight)
  }

  @Test func ticksRefreshOnceTheIntervalHasPassed() {
    var state = S.state()
    expectEqual(state.handle(.tick(S.now.addingTimeInterval(59))), [])
    expectEqual(
      state.handle(.tick(S.now.addingTimeInterval(60))),
      [.loadBoard(currency: "USD", refresh: true)])
    // In flight: no second load.
    expectEqual(state.handle(.tick(S.now.addingTimeInterval(61))), [])
  }

  @Test func noRefreshWhileALoadIsInFlight() {
    var state = S.state(board: S.board(fetchedAt: S.now.addingTimeInterval(-600)))
    _ = state.handle(.status(.loading))
    expectEqual(state.handle(.tick(S.now)), [])
    _ = state.handle(.status(.idle))
    expectEqual(state.handle(.tick(S.now)), [.loadBoard(currency: "USD", refresh: true)])
  }

  @Test func ticksWaitForTheRateLimitPause() {
    var state = S.state()
    _ = state.handle(.status(.rateLimited(until: S.now.addingTimeInterval(90))))
    expectEqual(state.handle(.tick(S.now.addingTimeInterval(89))), [])
    expectEqual(
      state.handle(.tick(S.now.addingTimeInterval(90))),
      [.loadBoard(currency: "USD", refresh: true)])
  }

  @Test func oldCachedDataIsRetriedOnceAnIntervalNotEveryTick() {
    var state = S.state(board: S.board(fetchedAt: S.now.addingTimeInterval(-7_200), stale: true))
    expectEqual(state.handle(.tick(S.now)), [.loadBoard(currency: "USD", refresh: true)])
    _ = state.handle(.status(.failed("offline")))
    expectEqual(state.handle(.tick(S.now.addingTimeInterval(1))), [])
    expectEqual(state.handle(.tick(S.now.addingTimeInterval(59))), [])
    expectEqual(state.handle(.tick(S.now.addingTimeInterval(60))).count, 1)
  }
}
