import RatesCLIHarness
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct HomeDriverListsTests {
  static let dogecoin = HomeSearchHit(
    id: "dogecoin", symbol: "DOGE", name: "Dogecoin", marketCapRank: 8, sharedSymbol: false)

  @Test func addingACoinTwiceStoresItOnceAndSendsTheListsAsStored() async throws {
    let fixture = try HomeDriverFixture()
    _ = await fixture.run(.addCoin(Self.dogecoin))
    let events = await fixture.run(.addCoin(Self.dogecoin))
    #expect(events.lists.last?.coins.map(\.id) == ["dogecoin"])
    #expect(events.statuses.isEmpty && events.notSaved.isEmpty)
    #expect(try fixture.userData.readCoins().map(\.id) == ["dogecoin"])
    #expect(try fixture.driver.lists().coins.first?.name == "Dogecoin")
  }

  @Test func aRemovedCoinIsRestoredWhereItWas() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addCoins([fixture.coin("bitcoin", "BTC"), fixture.coin("dogecoin", "DOGE")])
    let removed = await fixture.run(.removeCoin(id: "bitcoin"))
    #expect(removed.lists.last?.coins.map(\.id) == ["dogecoin"])
    let restored = await fixture.run(.restoreCoin(fixture.coin("bitcoin", "BTC"), at: 0))
    #expect(restored.lists.last?.coins.map(\.id) == ["bitcoin", "dogecoin"])
  }

  @Test func aPairGoesOnTopAndUnknownOrRepeatedPairsAreRefused() async throws {
    let fixture = try HomeDriverFixture()
    _ = await fixture.run(.addPair(base: "EUR", quote: "JPY"))
    let added = await fixture.run(.addPair(base: "GBP", quote: "USD"))
    #expect(added.lists.last?.pairs.map(\.name) == ["GBP-USD", "EUR-JPY"])
    #expect(added.statuses.isEmpty && added.notSaved.isEmpty)
    let repeated = await fixture.run(.addPair(base: "USD", quote: "GBP"))
    #expect(repeated.notSaved == ["USD and GBP are already paired"])
    let same = await fixture.run(.addPair(base: "GBP", quote: "GBP"))
    #expect(same.notSaved.first?.hasPrefix("GBP in GBP is always 1") == true, "\(same)")
    let street = await fixture.run(.addPair(base: "GBP", quote: "1X"))
    #expect(street.notSaved.count == 1)
    #expect(try fixture.driver.lists().pairs.map(\.name) == ["GBP-USD", "EUR-JPY"])
    // Each fiat pair checked with the currency sources once (EUR-JPY, GBP-USD, USD-GBP).
    #expect(fixture.server.requestCount == 3)
  }

  @Test func aRemovedPairIsRestoredWhereItWas() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "EUR", quote: "JPY", addedAt: fixedNow))
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    let removed = await fixture.run(.removePair(name: "USD-GBP"))
    #expect(removed.lists.last?.pairs.map(\.name) == ["EUR-JPY"])
    let pair = ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow)
    let restored = await fixture.run(.restorePair(pair, at: 0))
    #expect(restored.lists.last?.pairs.map(\.name) == ["GBP-USD", "EUR-JPY"])
  }

  @Test func starringAndUnstarringChangeTheFavorites() async throws {
    let fixture = try HomeDriverFixture()
    let starred = await fixture.run(.setFavorite(id: "solana", symbol: "SOL", name: "Solana", starred: true))
    #expect(starred.lists.last?.favorites.map(\.id) == ["solana"])
    #expect(starred.lists.last?.coins.isEmpty == true)
    let unstarred = await fixture.run(.setFavorite(id: "solana", symbol: "SOL", name: "Solana", starred: false))
    #expect(unstarred.lists.last?.favorites.isEmpty == true)
  }

  @Test func aChangeThatCannotBeStoredIsSentBackNotSavedNamingTheFile() async throws {
    let fixture = try HomeDriverFixture()
    try FileManager.default.createDirectory(at: fixture.data, withIntermediateDirectories: true)
    try Data("not json".utf8).write(to: fixture.data.appendingPathComponent("coins.json"))
    let events = await fixture.run(.addCoin(Self.dogecoin))
    #expect(events.notSaved.count == 1)
    #expect(events.notSaved.first?.contains("coins.json") == true, "\(events)")
    #expect(events.lists.isEmpty)
  }
}
