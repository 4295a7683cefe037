import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

/// The home list's frames, piece by piece (whole frames are in ``HomeListGoldenTests``).
@Suite struct HomeListRendererTests {
  typealias S = HomeListSupport
  static let plain = Style(enabled: false)
  static let color = Style(enabled: true)

  static func render(
    _ state: HomeState, width: Int = 80, height: Int = 24, style: Style = plain, ascii: Bool = false
  ) -> [String] {
    HomeRenderer.render(state, width: width, height: height, style: style, ascii: ascii)
  }

  static func row(_ lines: [String], _ symbol: String) -> String {
    lines.first { $0.dropFirst(3).hasPrefix(symbol + " ") || $0.contains("  \(symbol) ") } ?? ""
  }

  @Test func everyFrameFitsTheWindow() {
    let states = [
      HomeListGoldenTests.list(), HomeListGoldenTests.loading(), HomeListGoldenTests.staleAndLimited(),
      HomeListGoldenTests.failed(), HomeListGoldenTests.favorites(), HomeListGoldenTests.noFavorites(),
      HomeListGoldenTests.help(), HomeListGoldenTests.long(),
    ]
    for state in states {
      for (width, height) in [(40, 12), (41, 13), (57, 20), (80, 24), (120, 40), (200, 60)] {
        for style in [Self.plain, Self.color] {
          for ascii in [false, true] {
            let lines = Self.render(state, width: width, height: height, style: style, ascii: ascii)
            expectEqual(lines.count, height)
            expect(lines.allSatisfy { TerminalText.displayWidth($0) <= width }, "\(width)x\(height)")
          }
        }
      }
    }
  }

  /// The name is shortened first, down to 16 columns, before the sparkline (or any other
  /// column) drops; numbers and symbols are never cut.
  @Test func numbersAndSymbolsAreNeverCutAndTheNameShortensBeforeTheSparklineGoes() {
    let long = S.coin(.coin, "long", "LONGSYM", "A coin with a very long name indeed", 1_234_567.5, -12.34)
    let state = S.state(board: S.board(S.topRows + [long] + S.pairRows))
    for width in 40...130 {
      let lines = Self.render(state, width: width, height: 40)
      let line = Self.row(lines, "LONGSYM")
      expectContains(line, "LONGSYM", "\(width)")
      expectContains(line, "1,234,567.50", "\(width)")
      expectContains(line, "▼ -12.34%", "\(width)")
      expect(Self.row(lines, "GBP/USD").contains("▲ +0.12% 1d"), "\(width)")
      let sparkline = line.contains { Sparkline.unicodeLevels.contains($0) }
      if sparkline {
        expectContains(line, "A coin with a v", "\(width): the name kept 16 columns")
      }
      if width >= 120 { expect(sparkline && line.contains("A coin with a very long name indeed"), "\(width)") }
    }
    let narrow = Self.row(Self.render(state, width: 40), "BTC")
    expect(!narrow.contains("Bitcoin"))
    expect(!narrow.contains { Sparkline.unicodeLevels.contains($0) })
    let wide = Self.row(Self.render(S.state(), width: 120), "BTC")
    expect(wide.contains("Bitcoin") && wide.contains { Sparkline.unicodeLevels.contains($0) })
  }

  @Test func namesAndSymbolsAreSanitized() {
    let evil = S.coin(.coin, "evil", "EV\u{1B}[2JL", "Evil\u{1B}]0;owned\u{07} coin", 1, 1)
    let lines = Self.render(S.state(board: S.board([evil])))
    expect(!lines.joined().contains("\u{1B}"))
    expect(Self.row(lines, "EVL").contains("Evil coin"))
  }

  @Test func changesCarryASignAsWellAsAColour() {
    let state = S.state()
    let unicode = Self.render(state)
    expect(Self.row(unicode, "BTC").contains("▼ -2.51%"))
    expect(Self.row(unicode, "ETH").contains("▲ +2.28%"))
    let ascii = Self.render(state, ascii: true)
    expect(Self.row(ascii, "BTC").contains("-2.51%"))
    expect(Self.row(ascii, "ETH").contains("+2.28%"))
    expect(!ascii.joined().contains("\u{1B}"))
    let colored = Self.render(state, style: Self.color)
    expect(Self.row(colored, "BTC").contains("\u{1B}[31m▼ -2.51%\u{1B}[39m"))
    expect(Self.row(colored, "ETH").contains("\u{1B}[32m▲ +2.28%\u{1B}[39m"))
  }

  @Test func onlyEcbPairsLabelTheirPeriod() {
    let lines = Self.render(S.state())
    expect(Self.row(lines, "EUR/JPY").contains("-0.40% 1d"))
    expect(!Self.row(lines, "BTC").contains("24h"))
    expect(!Self.row(lines, "BTC").contains("1d"))
  }

  @Test func theSelectedRowIsMarked() {
    var state = S.state()
    _ = S.press(.end, .up, .up, .up, on: &state)
    expect(Self.row(Self.render(state), "ETH").hasPrefix(">  "))
    expect(Self.row(Self.render(state), "BTC").hasPrefix(" ★ "), "starred")
    let colored = Self.row(Self.render(state, style: Self.color), "ETH")
    expect(colored.hasPrefix("\u{1B}[7m   ") && colored.hasSuffix("\u{1B}[27m"))
  }

  @Test func aChangedPriceIsHighlightedForOneFrame() {
    var state = S.state()
    var rows = S.board().rows
    rows[1].rate = 3_571.15
    _ = state.handle(.board(S.board(rows)))
    expect(Self.row(Self.render(state), "ETH").hasPrefix("*  "))
    let colored = Self.row(Self.render(state, style: Self.color), "ETH")
    expectContains(colored, "\u{1B}[7m\u{1B}[1m3,571.15\u{1B}[22m\u{1B}[27m")
    _ = state.handle(.tick(S.now))
    expect(Self.row(Self.render(state), "ETH").hasPrefix("   "))
  }

  @Test func theHeaderTellsTheAgeOfTheData() {
    expectEqual(Self.render(S.state())[0], "rates · USD · Top 1–5 of 5 · updated 06:13:20 UTC")
    let stale = S.state(board: S.board(fetchedAt: S.now.addingTimeInterval(-7_200), stale: true))
    expectEqual(Self.render(stale)[0], "rates · USD · Top 1–5 of 5 · cached 2 h ago")
    expect(Self.render(stale, style: Self.color)[0].contains("\u{1B}[33mcached 2 h ago\u{1B}[39m"))
    expectEqual(
      Self.render(HomeListGoldenTests.favorites(), width: 40, ascii: true)[0],
      "Favorites | USD | updated 06:13:20")
  }

  @Test func emptySectionsSayHowToFillThem() {
    let lines = Self.render(S.state(board: S.board(S.topRows), lists: HomeLists()))
    expectEqual(lines[2], "Your coins (0)  No coins of your own yet: / to search and add one")
    expectEqual(lines[3], "Your pairs (0)  No pairs yet: p to add one")
    expectEqual(lines[4], "Top 5 by market cap")
  }

  @Test func loadingBeforeTheFirstBoard() {
    let lines = Self.render(HomeListGoldenTests.loading())
    expectEqual(lines[0], "rates · USD")
    expectEqual(lines[1], "Loading…")
    expectEqual(Self.render(HomeListGoldenTests.loading(), ascii: true)[1], "Loading...")
  }

  @Test func aFirstLoadThatFailedOrWaitsSaysSoInsteadOfLoading() {
    var state = S.state(board: nil)
    _ = state.handle(.status(.failed("CoinGecko: cannot connect")))
    expectEqual(Self.render(state)[1], "No data yet: r to try again")
    _ = state.handle(.status(.rateLimited(until: S.now.addingTimeInterval(30))))
    expectEqual(Self.render(state)[1], "No data yet: waiting out the pause")
    expect(Self.render(state, width: 40, height: 12).allSatisfy { TerminalText.displayWidth($0) <= 40 })
  }

  @Test func theStatusLineShowsPausesFailuresLoadingAndNotices() {
    var state = S.state()
    _ = state.handle(.status(.rateLimited(until: S.now.addingTimeInterval(41.2))))
    expectEqual(Self.render(state).last?.hasPrefix("rate limited by CoinGecko: next try in 42 s  ? keys"), true)
    _ = state.handle(.tick(S.now.addingTimeInterval(42)))
    expectEqual(Self.render(state).last?.hasPrefix("? keys"), true)
    _ = state.handle(.status(.failed("no\nnetwork\u{1B}[2J")))
    expectEqual(Self.render(state).last?.hasPrefix("no network  ? keys"), true)
    _ = state.handle(.status(.loading))
    expectEqual(Self.render(state).last?.hasPrefix("Loading…  ? keys"), true)
    _ = S.press(.end, .character("d"), on: &state)
    expectEqual(Self.render(state).last?.hasPrefix("Top coins cannot be removed  ? keys"), true)
  }

  /// A partial answer names what it lacked; the rows alone only showed a dash.
  @Test func whatTheAnswerLackedIsNamed() {
    var board = S.board()
    board.missing = ["KAS/USD", "SHIB/USD", "XMR/USD", "DOGE/USD"]
    let state = S.state(board: board)
    expectEqual(Self.render(state).last?.hasPrefix("No price for KAS/USD, SHIB/USD and 2 more  ? keys"), true)
  }

  @Test func keyHintsFitTheWidthAndNameTheNextCurrency() {
    let state = S.state()
    expectEqual(Self.render(state, width: 40).last, "? keys  / search  p pair  c EUR  q quit")
    var removed = state
    _ = S.press(.home, .character("d"), .down, on: &removed)
    expectEqual(Self.render(removed, width: 40).last, "? keys  p pair  u restores Kaspa  q quit")
    var single = state
    single.currencies = ["USD"]
    expect(!(Self.render(single, width: 120).last ?? "").contains("c "))
  }

  @Test func theCursorStaysInViewOnAShortWindow() {
    var state = HomeListGoldenTests.long()
    state.pageSize = 100  // not yet told the window's size
    let lines = Self.render(state, width: 40, height: 12)
    expect(lines.contains { $0.hasPrefix(">") && $0.contains(" C98 ") })
    _ = S.press(.home, on: &state)
    expectEqual(Self.render(state, width: 40, height: 12)[2], "Your coins (100)")
  }

  @Test func theKeysScreenListsEveryScreenAndScrolls() {
    var state = S.state()
    _ = S.press(.character("?"), on: &state)
    let wide = Self.render(state, width: 80, height: 24).joined(separator: "\n")
    for title in ["Home list", "Favorites", "Detail", "Search", "Pair pickers"] {
      expectContains(wide, title)
    }
    for key in ["Ctrl-C", "1 2 3 4", "Backspace", "d/Delete", "Tab", "mouse", "a letter"] {
      expectContains(wide, key)
    }
    let short = Self.render(state, width: 40, height: 12)
    expectEqual(short.last, "↓ more  any other key closes")
    _ = S.press(.pageDown, .pageDown, .pageDown, .pageDown, .pageDown, on: &state)
    let end = Self.render(state, width: 40, height: 12)
    expectEqual(end.last, "any key closes")
    expectContains(end[end.count - 2], "Ctrl-C")
  }

  @Test func afterCTheHeaderNamesTheRowsCurrencyUntilTheNewOneLoads() {
    // `c` during a pause or offline: the rows are still in USD, and the header says so.
    var state = S.state()
    _ = S.press(.character("c"), on: &state)
    expectEqual(state.currency, "EUR")
    expectEqual(Self.render(state)[0], "rates · USD (EUR not loaded yet) · Top 1–5 of 5 · updated 06:13:20 UTC")
    expectEqual(Self.render(state, width: 40)[0], "USD · Top 1–5 of 5 · updated 06:13:20")
    _ = state.handle(.board(S.board(currency: "EUR")))
    expectEqual(Self.render(state)[0], "rates · EUR · Top 1–5 of 5 · updated 06:13:20 UTC")
  }

  @Test func theFavoritesEmptyStateFitsAtFortyColumns() {
    let lines = Self.render(HomeListGoldenTests.noFavorites(), width: 40, height: 12)
    expect(!lines[1].hasSuffix("…"), "\(lines[1])")
    expectContains(lines[1], "f to star")
  }

  @Test func favoritesWithoutAStarSayHowToStarOne() {
    let lines = Self.render(HomeListGoldenTests.noFavorites())
    expectEqual(lines[1], "No favorites yet: open a coin with Enter and press f to star it")
    let favorites = Self.render(HomeListGoldenTests.favorites())
    expectEqual(favorites[0], "rates · Favorites · USD · updated 06:13:20 UTC")
    expect(Self.row(favorites, "DOGE").contains("—"))
    expect(Self.row(favorites, "XMR").hasPrefix(">★ "))
  }

  /// The quick count that styled rows go through (SGR, arrows, blocks) agrees with the
  /// full per-cluster measure on every scalar of its ranges and on escapes it leaves alone.
  @Test func quickWidthAgreesWithTheFullMeasure() {
    let ranges: [ClosedRange<UInt32>] = [0x2190...0x21FF, 0x2500...0x2600]
    var samples = ranges.flatMap { $0 }.compactMap(Unicode.Scalar.init).map { "a\($0)b" }
    samples += [
      "\u{1B}[7m\u{1B}[1m3,571.15\u{1B}[22m\u{1B}[27m", "\u{1B}[32m▲ +2.28%\u{1B}[39m ▁▃▅█",
      "\u{1B}[m—…", "\u{1B}[2Jx", "\u{1B}]0;title\u{07}x", "x\u{1B}", "x\u{1B}[31", "\u{1B}[1;31mé\u{301}",
      "漢字 ▲", "▶\u{FE0F}", "⬆",
    ]
    for sample in samples {
      expectEqual(TerminalText.displayWidth(sample), TerminalText.measuredWidth(sample), "\(sample.debugDescription)")
    }
  }

  @Test func pageSizeLeavesRoomForTheHeadings() {
    expectEqual(HomeRenderer.pageSize(height: 24), 17)
    expectEqual(HomeRenderer.pageSize(height: 3), 1)
  }
}
