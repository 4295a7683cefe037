import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

/// The screens working together through the one state: the list opens them, and data for
/// one reaches the others.
@Suite struct HomeScreensTogetherTests {
  typealias S = HomeListSupport

  @Test func aBoardWhileOnTheDetailMovesItsLivePrice() {
    var state = S.state()
    _ = S.press(.enter, on: &state)
    let id = state.detail?.row.id ?? ""
    var rows = S.board().rows
    let index = rows.firstIndex { $0.id == id } ?? 0
    rows[index].rate = 12_345.5
    _ = state.handle(.board(S.board(rows)))
    expectEqual(state.screen, .detail)
    expectEqual(state.detail?.row.rate, 12_345.5)
  }

  @Test func aNewPairTakesTheListCursorWhenItsRowArrives() {
    var state = S.state(lists: HomeLists(coins: S.lists.coins, favorites: [], pairs: []))
    let effects = S.press(.character("p"), .enter, on: &state)  // base: the first selectable
    let quoteEffects = S.press(.enter, on: &state)
    expect(effects.isEmpty)
    guard case .addPair(let base, let quote)? = quoteEffects.first else {
      Issue.record("no pair added: \(quoteEffects)")
      return
    }
    expectEqual(state.screen, .home)
    let newRow = S.pair(base, quote, 1.1, 0.1)
    _ = state.handle(.board(S.board(S.topRows + S.ownRows + [newRow] + S.pairRows)))
    expectEqual(state.selectedRow?.id, newRow.id)
    expectEqual(state.picker.addedPair, nil)
  }

  @Test func slashOpensSearchAndPTheFirstPickerFresh() {
    var state = S.state()
    _ = S.press(.character("/"), .character("b"), .escape, .character("p"), on: &state)
    expectEqual(state.screen, .pickBase)
    expect(state.search.query.isEmpty)
    expectEqual(state.pickerEntries.first?.code, "GBP")
  }
}
