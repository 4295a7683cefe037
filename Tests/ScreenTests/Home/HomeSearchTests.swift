import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct HomeSearchTests {
  typealias F = HomeScreenFixtures

  static let bitcoin = HomeSearchHit(
    id: "bitcoin", symbol: "BTC", name: "Bitcoin", marketCapRank: 1, sharedSymbol: true)
  static let batcat = HomeSearchHit(id: "batcat", symbol: "BTC", name: "batcat", marketCapRank: nil, sharedSymbol: true)
  static let wrapped = HomeSearchHit(
    id: "wrapped-bitcoin", symbol: "WBTC", name: "Wrapped Bitcoin", marketCapRank: 14, sharedSymbol: false)

  static func onSearch(lists: HomeLists = HomeLists()) -> HomeState {
    var state = F.state(lists: lists)
    _ = state.openSearch()
    return state
  }

  static func typed(_ text: String, lists: HomeLists = HomeLists()) -> HomeState {
    var state = onSearch(lists: lists)
    for character in text { _ = state.handle(.key(.character(character))) }
    return state
  }

  /// Any Unicode text: the bytes the terminal sends decode to characters, the query keeps
  /// them, and the prompt shows them (folded on an ASCII terminal; controls never reach it).
  @Test func aQueryBeyondASCIIIsKeptAndShown() {
    var decoder = KeyDecoder()
    var state = Self.onSearch()
    var effects: [HomeEffect] = []
    for key in decoder.feed(Array("é中\u{1B}[31m".utf8)) + decoder.flush() { effects = state.handle(.key(key)) }
    expect(state.search.query.hasPrefix("é中"))
    expectEqual(effects.last.map { if case .search(let query) = $0 { query.hasPrefix("é中") } else { false } }, true)
    let frame = F.frame(state, 80, 24)
    expect(frame.contains { $0.hasPrefix("> é中") && !$0.contains("\u{1B}") }, "\(frame)")
    expect(F.frame(state, 80, 24, ascii: true).contains { $0.hasPrefix("> e?") }, "folded")
  }

  @Test func everyChangeOfTheQueryAsksForIt() {
    var state = Self.onSearch()
    expectEqual(state.screen, .search)
    expectEqual(state.handle(.key(.character("b"))), [.search(query: "b")])
    expectEqual(state.handle(.key(.character("q"))), [.search(query: "bq")])
    expectEqual(state.handle(.key(.backspace)), [.search(query: "b")])
    expectEqual(state.handle(.key(.backspace)), [.search(query: "")])
    expectEqual(state.handle(.key(.backspace)), [])
    expectEqual(state.screen, .search)
  }

  @Test func aFailureIsShownOnTheStatusLine() {
    var state = Self.typed("bit")
    _ = state.handle(.status(.failed("CoinGecko is unreachable\u{1B}[2J")))
    expectEqual(F.frame(state, 80, 24).last, "CoinGecko is unreachable")
  }

  @Test func theQueryStopsAtFortyCharacters() {
    var state = Self.typed(String(repeating: "a", count: 40))
    expectEqual(state.handle(.key(.character("b"))), [])
    expectEqual(state.search.query.count, 40)
    expect(F.frame(state, 40, 12).allSatisfy { TerminalText.displayWidth($0) <= 40 })
  }

  /// At 40 columns a long query keeps its end in view, where the typing happens.
  @Test func aLongQueryShowsItsEndAndTheCaret() {
    let state = Self.typed(String(repeating: "a", count: 38) + "yz")
    for ascii in [false, true] {
      let prompt = F.frame(state, 40, 12, ascii: ascii)[1]
      expect(prompt.hasSuffix("ayz" + (ascii ? "_" : "▏")), "\(prompt)")
      expect(prompt.hasPrefix("> " + (ascii ? "..." : "…")) && TerminalText.displayWidth(prompt) == 40)
    }
  }

  @Test func resultsForAnOlderQueryAreDropped() {
    var state = Self.typed("bit")
    _ = state.handle(.searchResults(query: "bi", hits: [Self.wrapped], remote: true))
    expect(state.search.hits.isEmpty)
    _ = state.handle(.searchResults(query: "bit", hits: [Self.bitcoin, Self.wrapped], remote: false))
    expectEqual(state.search.hits, [Self.bitcoin, Self.wrapped])
  }

  @Test func searchingTheProviderIsShownUntilItAnswers() {
    var state = Self.typed("bit")
    expectEqual(F.frame(state, 80, 24).last?.contains("Searching"), false)
    _ = state.handle(.searchResults(query: "bit", hits: [Self.bitcoin], remote: false))
    expectEqual(F.frame(state, 80, 24).last, "Searching CoinGecko…")
    _ = state.handle(.searchResults(query: "bit", hits: [Self.bitcoin, Self.wrapped], remote: true))
    expectEqual(F.frame(state, 80, 24).last?.contains("Searching"), false)
    // A late local answer does not replace the provider's.
    _ = state.handle(.searchResults(query: "bit", hits: [], remote: false))
    expectEqual(state.search.hits.count, 2)
  }

  @Test func arrowsSelectAndTheSelectionFollowsItsCoin() {
    var state = Self.typed("bit")
    _ = state.handle(.searchResults(query: "bit", hits: [Self.bitcoin, Self.wrapped], remote: false))
    _ = state.handle(.key(.down))
    _ = state.handle(.key(.down))
    expectEqual(state.search.cursor, 1)
    _ = state.handle(.searchResults(query: "bit", hits: [Self.batcat, Self.bitcoin, Self.wrapped], remote: true))
    expectEqual(state.search.cursor, 2)
    _ = state.handle(.key(.up))
    expectEqual(state.search.cursor, 1)
  }

  /// A coin that could not be stored leaves your coins again, and the search's line says why.
  @Test func anAddThatCouldNotBeSavedSaysSoOnTheSearch() {
    var state = Self.typed("bit")
    _ = state.handle(.searchResults(query: "bit", hits: [Self.bitcoin], remote: false))
    _ = state.handle(.key(.enter))
    _ = state.handle(.notSaved(.addCoin(Self.bitcoin), reason: "cannot write /d/coins.json: No space left on device"))
    expect(state.lists.coins.isEmpty)
    expectEqual(
      F.frame(state, 120, 24).last,
      "Not saved: could not add Bitcoin: cannot write /d/coins.json: No space left on device")
  }

  @Test func enterAddsTheCoinOnceAndStays() {
    var state = Self.typed("bit")
    _ = state.handle(.searchResults(query: "bit", hits: [Self.bitcoin, Self.wrapped], remote: false))
    expectEqual(state.handle(.key(.enter)), [.addCoin(Self.bitcoin)])
    expectEqual(state.lists.coins.map(\.id), ["bitcoin"])
    expectEqual(state.screen, .search)
    expectEqual(F.frame(state, 80, 24).last, "Adding Bitcoin (BTC) to your coins\u{2026}")
    _ = state.handle(.saved(.addCoin(Self.bitcoin)))
    let frame = F.frame(state, 80, 24)
    expectEqual(frame.last, "Added Bitcoin (BTC) to your coins")
    expect(frame.contains { $0.contains("Bitcoin") && $0.hasSuffix("added") })
    expectEqual(state.handle(.key(.enter)), [])
    expectEqual(state.lists.coins.count, 1)
    expectEqual(F.frame(state, 80, 24).last, "Bitcoin is already in your coins")
  }

  /// Issue 22: a currency code typed means the currency; the coin with that symbol is
  /// added by its id, as `rates coins add` does.
  @Test func aCurrencyCodeTypedDoesNotAddTheCoinWithThatSymbol() {
    let poundtoken = HomeSearchHit(
      id: "poundtoken", symbol: "GBP", name: "poundtoken", marketCapRank: 900, sharedSymbol: false)
    var state = Self.typed("gbp")
    _ = state.handle(.searchResults(query: "gbp", hits: [poundtoken], remote: true))
    expectEqual(state.handle(.key(.enter)), [])
    expect(state.lists.coins.isEmpty)
    expectEqual(
      F.frame(state, 80, 24).last, "GBP is a currency, not a coin: type the coin's id (poundtoken) to add it")
    var byID = Self.typed("poundtoken")
    _ = byID.handle(.searchResults(query: "poundtoken", hits: [poundtoken], remote: true))
    expectEqual(byID.handle(.key(.enter)), [.addCoin(poundtoken)])
    expectEqual(byID.lists.coins.map(\.id), ["poundtoken"])
  }

  /// Enter typed before the answer for the query came (a fast typist, a paste ending in a
  /// newline) acts on that answer, never on the hits an older query left on screen.
  @Test func enterBeforeTheAnswerWaitsForIt() {
    var state = Self.typed("bi")
    _ = state.handle(.searchResults(query: "bi", hits: [Self.wrapped], remote: false))
    _ = state.handle(.key(.character("t")))
    expectEqual(state.handle(.key(.enter)), [])
    expect(state.lists.coins.isEmpty)
    expectEqual(
      state.handle(.searchResults(query: "bit", hits: [Self.bitcoin, Self.wrapped], remote: false)),
      [.addCoin(Self.bitcoin)])
    expectEqual(state.lists.coins.map(\.id), ["bitcoin"])
    expectEqual(state.search.enterPending, false)
  }

  @Test func aCoinAlreadyInYourCoinsIsShownAdded() {
    let coin = FavoriteCoin(id: "wrapped-bitcoin", symbol: "WBTC", name: "Wrapped Bitcoin", addedAt: F.now)
    var state = Self.typed("bit", lists: HomeLists(coins: [coin]))
    _ = state.handle(.searchResults(query: "bit", hits: [Self.bitcoin, Self.wrapped], remote: false))
    let frame = F.frame(state, 80, 24)
    expect(frame.contains { $0.contains("Wrapped Bitcoin") && $0.hasSuffix("added") })
    expect(!frame.contains { $0.contains("›  BTC") && $0.hasSuffix("added") })
  }

  @Test func aSharedSymbolIsMarkedWithALegend() {
    var state = Self.typed("btc")
    _ = state.handle(.searchResults(query: "btc", hits: [Self.bitcoin, Self.wrapped], remote: false))
    let frame = F.frame(state, 80, 24)
    expect(frame.contains { $0.contains("BTC*") })
    expect(frame.contains { $0.contains("WBTC ") })
    expect(frame.contains("* symbol shared by several coins: pick by name"))
    _ = state.handle(.searchResults(query: "btc", hits: [Self.wrapped], remote: true))
    expect(!F.frame(state, 80, 24).contains("* symbol shared by several coins: pick by name"))
  }

  @Test func anEmptyQueryShowsAHintAndEscGoesBack() {
    var state = Self.onSearch()
    expect(F.frame(state, 80, 24).contains("Type a coin's name or symbol, e.g. bitcoin or BTC"))
    _ = state.handle(.key(.character("x")))
    expectEqual(state.handle(.key(.escape)), [])
    expectEqual(state.screen, .home)
    expect(state.search.query.isEmpty)
  }

  @Test func theSelectionScrollsIntoViewAndNamesAreSanitized() {
    var state = Self.typed("coin")
    let hits = (1...30).map { (number: Int) in
      HomeSearchHit(
        id: "c\(number)", symbol: "C\(number)", name: "Coin\u{1B}[31m \(number)", marketCapRank: number,
        sharedSymbol: false)
    }
    _ = state.handle(.searchResults(query: "coin", hits: hits, remote: true))
    for _ in 0..<25 { _ = state.handle(.key(.down)) }
    let lines = F.frame(state, 40, 12)
    expect(lines.contains { $0.hasPrefix("›   C26") })
    expect(!lines.joined().contains("\u{1B}"))
    expect(lines.allSatisfy { TerminalText.displayWidth($0) <= 40 })
  }
}

@Suite struct HomeSearchGoldenTests {
  typealias F = HomeScreenFixtures

  @Test func results() throws {
    let coin = FavoriteCoin(id: "wrapped-bitcoin", symbol: "WBTC", name: "Wrapped Bitcoin", addedAt: F.now)
    // Bitcoin is starred: its hit carries the list's ★.
    let starred = FavoriteCoin(id: HomeSearchTests.bitcoin.id, symbol: "BTC", name: "Bitcoin", addedAt: F.now)
    var state = HomeSearchTests.typed("bit", lists: HomeLists(coins: [coin], favorites: [starred]))
    _ = state.handle(
      .searchResults(
        query: "bit", hits: [HomeSearchTests.bitcoin, HomeSearchTests.wrapped, HomeSearchTests.batcat],
        remote: false))
    _ = state.handle(.key(.down))
    try F.checkGolden(state, "search-bit.80x24", 80, 24)
    try F.checkGolden(state, "search-bit.color.80x24", 80, 24, color: true)
    try F.checkGolden(state, "search-bit.ascii.80x24", 80, 24, ascii: true)
    try F.checkGolden(state, "search-bit.40x12", 40, 12)
  }

  @Test func empty() throws {
    try F.checkGolden(HomeSearchTests.onSearch(), "search-empty.40x12", 40, 12)
  }
}
