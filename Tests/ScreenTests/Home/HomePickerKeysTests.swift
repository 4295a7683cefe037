import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

/// Every key on a picker whose disabled entries sit at both ends and in runs in the
/// middle: the cursor never lands on one, and Enter adds exactly the highlighted pair.
@Suite struct HomePickerKeysTests {
  typealias P = HomePickerTests

  /// The second picker for GBP: GBP (base), EUR, USD disabled first, a run of three in the
  /// middle, the last two disabled.
  static func runs() -> (state: HomeState, disabled: Set<String>) {
    let codes = P.onBase().pickerEntries.map(\.code)
    let middle = Array(codes[8..<11])
    let end = Array(codes.suffix(2))
    let paired = ["EUR", "USD"] + middle + end
    let state = P.onQuote(of: "GBP", pairs: paired.map { P.pair("GBP", $0) })
    return (state, Set(paired + ["GBP"]))
  }

  static let keys: [TerminalKey] =
    [
      .up, .down, .character("k"), .character("j"), .pageUp, .pageDown, .home, .end,
      .left, .right, .tab, .backspace, .delete, .mouse(column: 3, row: 4),
    ] + "abcdefghijlmnoprstuvwxyzJK".map { .character($0) }

  @Test func noKeyLandsOnADisabledEntryFromAnyStart() {
    let (start, disabled) = Self.runs()
    let entries = start.pickerEntries
    expectEqual(Set(entries.filter { !$0.selectable }.map(\.code)), disabled)
    for origin in entries.indices where entries[origin].selectable {
      for key in Self.keys {
        var state = start
        state.picker.cursor = origin
        _ = state.handle(.key(key))
        let code = P.code(state)
        expect(!disabled.contains(code), "\(key) from \(entries[origin].code) landed on \(code)")
        expectEqual(state.screen, .pickQuote(base: "GBP"), "\(key)")
        expectEqual(state.handle(.key(.enter)), [.addPair(base: "GBP", quote: code)], "\(key)")
      }
    }
  }

  @Test func movingStepsOverRunsAndStopsAtTheEnds() {
    var (state, _) = Self.runs()
    let entries = state.pickerEntries
    let selectable = entries.indices.filter { entries[$0].selectable }
    expectEqual(state.picker.cursor, selectable.first)
    for key in [TerminalKey.up, .character("k"), .pageUp, .home] {
      _ = state.handle(.key(key))
      expectEqual(state.picker.cursor, selectable.first, "\(key) at the top")
    }
    // Down, one selectable entry at a time, over the middle run, to the last one.
    for expected in selectable.dropFirst() {
      _ = state.handle(.key(.character("j")))
      expectEqual(state.picker.cursor, expected)
    }
    for key in [TerminalKey.down, .character("j"), .pageDown, .end] {
      _ = state.handle(.key(key))
      expectEqual(state.picker.cursor, selectable.last, "\(key) at the bottom")
    }
    for expected in selectable.dropLast().reversed() {
      _ = state.handle(.key(.up))
      expectEqual(state.picker.cursor, expected)
    }
  }

  /// The case: GBP/EUR and GBP/USD stored, `p`, Enter, `k`: the cursor stays on AUD
  /// (nothing above can be chosen) and Enter adds GBP/AUD.
  @Test func kAboveTheFirstChoiceStaysAndEnterAddsWhatIsShown() {
    var state = HomeScreenFixtures.state(
      lists: HomeLists(pairs: [P.pair("GBP", "EUR"), P.pair("GBP", "USD")]))
    _ = state.handle(.key(.character("p")))
    _ = state.handle(.key(.enter))
    expectEqual(P.code(state), "AUD")
    _ = state.handle(.key(.character("k")))
    expectEqual(P.code(state), "AUD")
    let frame = HomeRenderer.render(state, width: 80, height: 24, style: Style(enabled: false), ascii: true)
    expect(frame.contains { $0.hasPrefix(">  AUD") }, "\(frame)")
    expectEqual(state.handle(.key(.enter)), [.addPair(base: "GBP", quote: "AUD")])
  }

  @Test func upperCaseJAndKJumpToCodes() {
    var (state, _) = Self.runs()
    _ = state.handle(.key(.character("K")))
    expect(P.code(state).hasPrefix("K"))
    _ = state.handle(.key(.character("J")))
    expectEqual(P.code(state), "JPY")
  }

  @Test func aLetterWhoseCodesAreAllDisabledLeavesTheCursor() {
    var state = P.onQuote(of: "GBP", pairs: [P.pair("GBP", "EUR")])
    let before = state.picker.cursor
    _ = state.handle(.key(.character("e")))
    expectEqual(state.picker.cursor, before)
  }

  @Test func listsChangingUnderThePickerMoveTheCursorOffANewlyDisabledEntry() {
    var state = P.onQuote(of: "GBP", pairs: [P.pair("GBP", "EUR")])
    expectEqual(P.code(state), "USD")
    _ = state.handle(.lists(HomeLists(pairs: [P.pair("GBP", "EUR"), P.pair("USD", "GBP")])))
    expectEqual(P.code(state), "AUD")
    expectEqual(state.handle(.key(.enter)), [.addPair(base: "GBP", quote: "AUD")])
  }
}
