import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct HomePickerTests {
  typealias F = HomeScreenFixtures

  static func pair(_ base: String, _ quote: String) -> ConfiguredPair {
    ConfiguredPair(base: base, quote: quote, addedAt: F.now)
  }

  static func onBase(pairs: [ConfiguredPair] = []) -> HomeState {
    var state = F.state(lists: HomeLists(pairs: pairs))
    _ = state.openPairPicker()
    return state
  }

  static func onQuote(of base: String, pairs: [ConfiguredPair] = []) -> HomeState {
    var state = onBase(pairs: pairs)
    state.screens.append(.pickQuote(base: base))
    state.picker.cursor = state.firstSelectable(from: 0, step: 1) ?? 0
    return state
  }

  static func code(_ state: HomeState) -> String { state.pickerEntries[state.picker.cursor].code }

  @Test func gbpEURAndUSDComeFirstThenTheRestAToZ() {
    expectEqual(
      FiatCurrencies.ordered(["usd", "AUD", "GBP", "CHF", "EUR", "AUD"]), ["GBP", "EUR", "USD", "AUD", "CHF"])
    let codes = Self.onBase().pickerEntries.map(\.code)
    expectEqual(Array(codes.prefix(4)), ["GBP", "EUR", "USD", "AUD"])
    expectEqual(Array(codes.dropFirst(3)), Array(codes.dropFirst(3)).sorted())
    expectEqual(codes.count, FiatCurrencies.ecb.count - 1)
    expect(!codes.contains("BGN"), "a currency that ended is not offered")
  }

  @Test func theSecondPickerDisablesTheBaseAndItsPairsInEitherOrder() {
    let state = Self.onQuote(
      of: "GBP", pairs: [Self.pair("USD", "GBP"), Self.pair("GBP", "JPY"), Self.pair("BTC", "EUR")])
    let reasons = Dictionary(uniqueKeysWithValues: state.pickerEntries.map { ($0.code, $0.disabledReason) })
    expectEqual(reasons["GBP"], "base")
    expectEqual(reasons["USD"], "paired")
    expectEqual(reasons["JPY"], "paired")
    expectEqual(reasons["EUR"], .some(nil))
    expectEqual(state.pickerEntries.map(\.code), Self.onBase().pickerEntries.map(\.code))
  }

  @Test func theCursorSkipsDisabledCurrencies() {
    var state = Self.onQuote(of: "GBP", pairs: [Self.pair("GBP", "EUR")])
    expectEqual(Self.code(state), "USD")
    _ = state.handle(.key(.up))
    expectEqual(Self.code(state), "USD")
    _ = state.handle(.key(.down))
    expectEqual(Self.code(state), "AUD")
    _ = state.handle(.key(.home))
    expectEqual(Self.code(state), "USD")
    _ = state.handle(.key(.end))
    expectEqual(Self.code(state), "ZAR")
    _ = state.handle(.key(.pageUp))
    expectEqual(state.picker.cursor, state.pickerEntries.count - 1 - PickerState.page)
    _ = state.handle(.key(.pageDown))
    expectEqual(Self.code(state), "ZAR")
  }

  @Test func aLetterJumpsToTheFirstSelectableCodeWithIt() {
    var state = Self.onQuote(of: "GBP", pairs: [Self.pair("GBP", "CAD")])
    _ = state.handle(.key(.character("J")))  // j moves, as on every screen
    expectEqual(Self.code(state), "JPY")
    _ = state.handle(.key(.character("c")))
    expectEqual(Self.code(state), "CHF")
    _ = state.handle(.key(.character("C")))
    expectEqual(Self.code(state), "CNY")
    _ = state.handle(.key(.character("g")))  // GBP is the base: nothing else starts with G
    expectEqual(Self.code(state), "CNY")
  }

  @Test func enterOnTheBaseOpensTheSecondPicker() {
    var state = Self.onBase()
    expectEqual(Self.code(state), "GBP")
    _ = state.handle(.key(.down))
    expectEqual(state.handle(.key(.enter)), [])
    expectEqual(state.screen, .pickQuote(base: "EUR"))
    expectEqual(Self.code(state), "GBP")
  }

  @Test func enterOnADisabledCurrencyDoesNothing() {
    var state = Self.onQuote(of: "GBP", pairs: [Self.pair("GBP", "EUR")])
    state.picker.cursor = 1  // EUR, paired
    expectEqual(state.handle(.key(.enter)), [])
    expectEqual(state.screen, .pickQuote(base: "GBP"))
    expectEqual(state.lists.pairs.count, 1)
  }

  @Test func enterOnTheQuoteAddsThePairAtTheTopAndGoesHome() {
    var state = Self.onQuote(of: "GBP", pairs: [Self.pair("EUR", "JPY")])
    expectEqual(Self.code(state), "EUR")
    _ = state.handle(.key(.down))
    expectEqual(state.handle(.key(.enter)), [.addPair(base: "GBP", quote: "USD")])
    expectEqual(state.lists.pairs.map(\.name), ["GBP-USD", "EUR-JPY"])
    expectEqual(state.screens, [.home])
    expectEqual(state.picker.addedPair, "GBP-USD")
  }

  @Test func theListCursorGoesToTheNewPairWhenTheBoardHasIt() {
    var state = Self.onQuote(of: "GBP")
    let rows = [F.bitcoin, F.gbpUSD]
    state.board = HomeBoard(currency: "USD", rows: rows, fetchedAt: F.now, stale: false)
    _ = state.handle(.key(.character("u")))
    _ = state.handle(.key(.enter))
    expectEqual(state.selectedRow?.id, "GBP-USD")
  }

  @Test func aBasePairedWithEveryCurrencyIsDisabled() {
    let others = F.pickerCurrencies.filter { $0 != "GBP" }
    let state = Self.onBase(pairs: others.map { Self.pair($0, "GBP") })
    expectEqual(state.pickerEntries[0], PickerEntry(code: "GBP", disabledReason: "all paired"))
    expectEqual(Self.code(state), "EUR")
    expect(F.frame(state, 80, 24).contains { $0.contains("GBP") && $0.hasSuffix("all paired") })
  }

  @Test func aRateLimitPauseIsShownOnTheStatusLine() {
    var state = Self.onBase()
    _ = state.handle(.status(.rateLimited(until: F.now.addingTimeInterval(9.2))))
    expectEqual(F.frame(state, 40, 12).last, "rate limited: next try in 10 s")
    _ = state.handle(.status(.rateLimited(until: F.now.addingTimeInterval(-1))))
    expectEqual(F.frame(state, 40, 12).last?.hasPrefix("↑/↓"), true)
  }

  @Test func escGoesBackOneStep() {
    var state = Self.onBase()
    _ = state.handle(.key(.character("u")))
    _ = state.handle(.key(.enter))
    expectEqual(state.screen, .pickQuote(base: "USD"))
    _ = state.handle(.key(.escape))
    expectEqual(state.screen, .pickBase)
    expectEqual(Self.code(state), "USD")
    _ = state.handle(.key(.escape))
    expectEqual(state.screen, .home)
  }

  /// `q` goes back as on every other screen (no currency code starts with Q); `?` shows
  /// the keys and any key comes back to the picker.
  @Test func qGoesBackAndQuestionMarkShowsTheKeys() {
    var state = Self.onBase()
    _ = state.handle(.key(.character("?")))
    expectEqual(state.screen, .help)
    _ = state.handle(.key(.character("x")))
    expectEqual(state.screen, .pickBase)
    _ = state.handle(.key(.character("q")))
    expectEqual(state.screen, .home)
  }

  @Test func disabledCurrenciesAreDimmedWithTheirReason() {
    let state = Self.onQuote(of: "GBP", pairs: [Self.pair("GBP", "EUR")])
    let plain = F.frame(state, 80, 24)
    expect(plain.contains { $0.contains("EUR") && $0.hasSuffix("paired") })
    let colored = F.frame(state, 80, 24, color: true)
    expect(colored.contains { $0.hasPrefix("\u{1B}[2m") && $0.contains("EUR") })
    expect(!colored.contains { $0.hasPrefix("\u{1B}[2m") && $0.contains("USD") })
  }
}

@Suite struct HomePickerGoldenTests {
  typealias F = HomeScreenFixtures

  @Test func frames() throws {
    let pairs = [HomePickerTests.pair("GBP", "EUR"), HomePickerTests.pair("JPY", "GBP")]
    try F.checkGolden(HomePickerTests.onBase(pairs: pairs), "picker-base.80x24", 80, 24)
    var quote = HomePickerTests.onQuote(of: "GBP", pairs: pairs)
    _ = quote.handle(.key(.character("J")))
    _ = quote.handle(.key(.character("K")))
    try F.checkGolden(quote, "picker-quote.80x24", 80, 24)
    try F.checkGolden(quote, "picker-quote.color.80x24", 80, 24, color: true)
    try F.checkGolden(quote, "picker-quote.ascii.80x24", 80, 24, ascii: true)
    try F.checkGolden(quote, "picker-quote.40x12", 40, 12)
  }
}
