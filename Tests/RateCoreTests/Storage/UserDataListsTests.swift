import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The list operations of ``UserData`` on real files in a temporary directory.
@Suite struct UserDataListsTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  func makeData() throws -> UserData {
    UserData(directory: try scratch.folder().appendingPathComponent("rates"))
  }

  func coin(_ id: String, _ symbol: String? = nil) -> FavoriteCoin {
    FavoriteCoin(id: id, symbol: symbol ?? id.prefix(3).uppercased(), name: nil, addedAt: fixedNow)
  }

  func pair(_ base: String, _ quote: String) -> ConfiguredPair {
    ConfiguredPair(base: base, quote: quote, addedAt: fixedNow)
  }

  // MARK: - Coins

  @Test func addCoinsAppendsOnlyNewOnesAndReturnsThem() throws {
    let data = try makeData()
    expectEqual(try data.addCoins([coin("bitcoin"), coin("ethereum")]).map(\.id), ["bitcoin", "ethereum"])
    let added = try data.addCoins([coin("ethereum"), coin("solana"), coin("solana")])
    expectEqual(added.map(\.id), ["solana"])
    expectEqual(try data.readCoins().map(\.id), ["bitcoin", "ethereum", "solana"])
    expectEqual(try data.favorites.read(), [], "coins are not favorites")
  }

  @Test func removeCoinSaysWhereItWasAndRestorePutsItBack() throws {
    let data = try makeData()
    try data.addCoins([coin("bitcoin"), coin("ethereum"), coin("solana")])
    expect(try data.removeCoin(id: "dogecoin") == nil)
    let removed = try require(try data.removeCoin(id: "ethereum"))
    expect(removed.coin.id == "ethereum" && removed.index == 1)
    expectEqual(try data.readCoins().map(\.id), ["bitcoin", "solana"])
    try data.restoreCoin(removed.coin, at: removed.index)
    try data.restoreCoin(removed.coin, at: 0)  // there already: nothing
    expectEqual(try data.readCoins().map(\.id), ["bitcoin", "ethereum", "solana"])
    try data.restoreCoin(coin("cardano"), at: 99)
    try data.restoreCoin(coin("tether"), at: -3)
    expectEqual(try data.readCoins().map(\.id), ["tether", "bitcoin", "ethereum", "solana", "cardano"])
  }

  @Test func removeCoinsMatchesIDsAndSymbolsInAnyCase() throws {
    let data = try makeData()
    try data.addCoins([coin("bitcoin", "BTC"), coin("ethereum", "ETH")])
    let removal = try data.removeCoins(matching: ["btc", "Ripple"])
    expectEqual(removal.removed.map(\.id), ["bitcoin"])
    expectEqual(removal.absent, ["ripple"])
    expectEqual(removal.left.map(\.id), ["ethereum"])
  }

  /// Twenty threads, each with its own handle (as separate processes would be), add a
  /// different coin at once: every one of them is kept.
  @Test func concurrentAddsLoseNoCoin() async throws {
    let directory = try scratch.folder().appendingPathComponent("rates")
    let failures = await runTogether(20) { index in
      try UserData(directory: directory).addCoins([coin("coin-\(index)")])
    }
    expectEqual(failures, [])
    let stored = try UserData(directory: directory).readCoins().map(\.id)
    expectEqual(stored.count, 20)
    expectEqual(Set(stored), Set((0..<20).map { "coin-\($0)" }))
  }

  // MARK: - Favorites

  @Test func setFavoriteStarsAndUnstarsIdempotently() throws {
    let data = try makeData()
    try data.addCoins([coin("bitcoin")])
    try data.setFavorite(coin("ethereum"), starred: true)
    try data.setFavorite(coin("ethereum"), starred: true)
    try data.setFavorite(coin("solana"), starred: true)
    expectEqual(try data.favorites.read().map(\.id), ["ethereum", "solana"])
    try data.setFavorite(coin("ethereum"), starred: false)
    try data.setFavorite(coin("ethereum"), starred: false)
    expectEqual(try data.favorites.read().map(\.id), ["solana"])
    expectEqual(try data.readCoins().map(\.id), ["bitcoin"], "starring leaves your coins alone")
  }

  // MARK: - Pairs

  @Test func addPairAtTopRefusesEitherOrder() throws {
    let data = try makeData()
    expect(try data.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow)))
    expect(try data.addPairAtTop(ConfiguredPair(base: "EUR", quote: "JPY", addedAt: fixedNow)))
    expect(try !data.addPairAtTop(ConfiguredPair(base: "usd", quote: "gbp", addedAt: fixedNow)))
    // Stored in the order added; shown newest first, so the new pair is on top.
    expectEqual(try data.pairs.read().map(\.name), ["GBP-USD", "EUR-JPY"])
  }

  /// Indexes count newest first, as pairs are shown; removing and restoring any of them
  /// gives back the same list.
  @Test(arguments: [("GBP-USD", 2), ("jpy-eur", 1), ("CHF/USD", 0)])
  func removePairAndRestoreRoundTrip(name: String, shownIndex: Int) throws {
    let data = try makeData()
    for (base, quote) in [("GBP", "USD"), ("EUR", "JPY"), ("CHF", "USD")] {
      try data.addPairAtTop(ConfiguredPair(base: base, quote: quote, addedAt: fixedNow))
    }
    let before = try data.pairs.read()
    let removed = try require(try data.removePair(named: name))
    expectEqual(removed.index, shownIndex)
    expectEqual(try data.pairs.read().count, 2)
    try data.restorePair(removed.pair, at: removed.index)
    try data.restorePair(removed.pair, at: 0)  // there already: nothing
    expectEqual(try data.pairs.read(), before)
    expect(try data.removePair(named: "AUD-NZD") == nil)
  }

  @Test func restorePairClampsTheIndex() throws {
    let data = try makeData()
    try data.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    try data.restorePair(pair("EUR", "JPY"), at: 42)  // past the end: last shown, first stored
    try data.restorePair(pair("CHF", "USD"), at: -1)  // before the start: on top
    expectEqual(try data.pairs.read().map(\.name), ["EUR-JPY", "GBP-USD", "CHF-USD"])
  }
}
