import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

/// A click on a row of the list (or the favorites) selects it: the terminal's SGR report
/// (`ESC [ < 0 ; x ; y M`) through ``KeyDecoder`` into ``HomeState``, checked against the
/// frame the renderer draws at that size.
@Suite struct HomeMouseTests {
  typealias S = HomeListSupport

  /// `state`'s frame at `width` × `height` (the state told the size, as the runtime does).
  static func frame(_ state: inout HomeState, _ width: Int, _ height: Int) -> [String] {
    state.setWindow(width: width, height: height)
    return HomeRenderer.render(state, width: width, height: height, style: Style(enabled: false), ascii: false)
  }

  /// The keys a press of the left button at 1-based `column`, `line` decodes to.
  static func click(column: Int, line: Int) -> [TerminalKey] {
    var decoder = KeyDecoder()
    return decoder.feed(Array("\u{1B}[<0;\(column);\(line)M\u{1B}[<0;\(column);\(line)m".utf8))
  }

  static func press(_ keys: [TerminalKey], on state: inout HomeState) {
    for key in keys { _ = state.handle(.key(key)) }
  }

  @Test(arguments: [(80, 24), (120, 40), (40, 12)])
  func aClickOnARowSelectsIt(width: Int, height: Int) throws {
    var state = S.state()
    let lines = Self.frame(&state, width, height)
    for symbol in ["SHIB", "EUR/JPY", "BTC", "KAS"] {
      let line = try require(lines.firstIndex { $0.contains(" \(symbol) ") }, "\(symbol) in \(lines)")
      let keys = Self.click(column: 12, line: line + 1)
      expectEqual(keys, [.mouse(column: 12, row: line + 1)])
      Self.press(keys, on: &state)
      expectEqual(state.selectedRow?.symbol, symbol, "\(symbol) at \(width)x\(height)")
      // The frame marks it: `>` without colour.
      let after = Self.frame(&state, width, height)
      expect(after[line].hasPrefix(">"), "\(after[line])")
    }
  }

  @Test func aClickOnAHeadingTheHeaderOrTheStatusLineDoesNothing() throws {
    var state = S.state()
    let lines = Self.frame(&state, 80, 24)
    let before = state
    let heading = try require(lines.firstIndex { $0.hasPrefix("Your pairs") })
    for line in [heading, 0, 1, lines.count - 1, lines.count - 3] {
      Self.press(Self.click(column: 5, line: line + 1), on: &state)
      expectEqual(state, before, "line \(line + 1): \(lines[line])")
    }
  }

  /// Scrolled to the end of a long list, a click picks the row drawn there, not the one at
  /// that place from the top.
  @Test func aClickOnAScrolledListSelectsTheRowDrawnThere() throws {
    let own = (0..<60).map { S.coin(.coin, "coin-\($0)", "C\($0)", "Coin number \($0)", Double($0) + 0.5, 1) }
    var state = S.state(board: S.board(S.topRows + own + S.pairRows))
    state.setWindow(width: 80, height: 24)
    state.moveCursor(to: 50)
    let lines = Self.frame(&state, 80, 24)
    let line = try require(lines.firstIndex { $0.contains(" C44 ") }, "\(lines)")
    Self.press(Self.click(column: 30, line: line + 1), on: &state)
    expectEqual(state.selectedRow?.symbol, "C44")
  }

  /// With the Portfolio section above the list (its heading selected), a click on a row
  /// selects the row and leaves the heading.
  @Test func aClickBelowThePortfolioSectionSelectsTheRowDrawnThere() throws {
    var state = S.state()
    _ = state.handle(.portfolio(HomePortfolioDetailTests.portfolio))
    _ = state.handle(.key(.up))
    expect(state.portfolioSelected)
    let lines = Self.frame(&state, 80, 24)
    let line = try require(lines.firstIndex { $0.contains(" SOL ") }, "\(lines)")
    Self.press(Self.click(column: 20, line: line + 1), on: &state)
    expectEqual(state.selectedRow?.symbol, "SOL")
    expect(!state.portfolioSelected)
  }

  @Test func aClickOnAFavoriteSelectsIt() throws {
    var state = S.state()
    _ = state.handle(.key(.tab))
    let lines = Self.frame(&state, 80, 24)
    let line = try require(lines.firstIndex { $0.contains(" XMR ") }, "\(lines)")
    Self.press(Self.click(column: 8, line: line + 1), on: &state)
    expectEqual(state.favoriteRows[state.favoritesCursor].symbol, "XMR")
  }
}
