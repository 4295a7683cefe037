import RatesCLIHarness
import RatesExpectations
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
    expectEqual(events.lists.last?.coins.map(\.id), ["dogecoin"])
    expect(events.statuses.isEmpty && events.notSaved.isEmpty)
    expectEqual(try fixture.userData.readCoins().map(\.id), ["dogecoin"])
    expectEqual(try fixture.driver.lists().coins.first?.name, "Dogecoin")
  }

  @Test func aRemovedCoinIsRestoredWhereItWas() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addCoins([fixture.coin("bitcoin", "BTC"), fixture.coin("dogecoin", "DOGE")])
    let removed = await fixture.run(.removeCoin(id: "bitcoin"))
    expectEqual(removed.lists.last?.coins.map(\.id), ["dogecoin"])
    let restored = await fixture.run(.restoreCoin(fixture.coin("bitcoin", "BTC"), at: 0))
    expectEqual(restored.lists.last?.coins.map(\.id), ["bitcoin", "dogecoin"])
  }

  @Test func aPairGoesOnTopAndUnknownOrRepeatedPairsAreRefused() async throws {
    let fixture = try HomeDriverFixture()
    _ = await fixture.run(.addPair(base: "EUR", quote: "JPY"))
    let added = await fixture.run(.addPair(base: "GBP", quote: "USD"))
    expectEqual(added.lists.last?.pairs.map(\.name), ["GBP-USD", "EUR-JPY"])
    expect(added.statuses.isEmpty && added.notSaved.isEmpty)
    let repeated = await fixture.run(.addPair(base: "USD", quote: "GBP"))
    expectEqual(repeated.notSaved, ["USD and GBP are already paired"])
    let same = await fixture.run(.addPair(base: "GBP", quote: "GBP"))
    expectEqual(same.notSaved.first?.hasPrefix("GBP in GBP is always 1"), true, "\(same)")
    let street = await fixture.run(.addPair(base: "GBP", quote: "1X"))
    expectEqual(street.notSaved.count, 1)
    expectEqual(try fixture.driver.lists().pairs.map(\.name), ["GBP-USD", "EUR-JPY"])
    // Each fiat pair checked with the currency sources once (EUR-JPY, GBP-USD, USD-GBP).
    expectEqual(fixture.server.requestCount, 3)
  }

  @Test func aRemovedPairIsRestoredWhereItWas() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "EUR", quote: "JPY", addedAt: fixedNow))
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    let removed = await fixture.run(.removePair(name: "USD-GBP"))
    expectEqual(removed.lists.last?.pairs.map(\.name), ["EUR-JPY"])
    let pair = ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow)
    let restored = await fixture.run(.restorePair(pair, at: 0))
    expectEqual(restored.lists.last?.pairs.map(\.name), ["GBP-USD", "EUR-JPY"])
  }

  @Test func starringAndUnstarringChangeTheFavorites() async throws {
    let fixture = try HomeDriverFixture()
    let starred = await fixture.run(.setFavorite(id: "solana", symbol: "SOL", name: "Solana", starred: true))
    expectEqual(starred.lists.last?.favorites.map(\.id), ["solana"])
    expectEqual(starred.lists.last?.coins.isEmpty, true)
    let unstarred = await fixture.run(.setFavorite(id: "solana", symbol: "SOL", name: "Solana", starred: false))
    expectEqual(unstarred.lists.last?.favorites.isEmpty, true)
  }

  @Test func aChangeThatCannotBeStoredIsSentBackNotSavedNamingTheFile() async throws {
    let fixture = try HomeDriverFixture()
    try FileManager.default.createDirectory(at: fixture.data, withIntermediateDirectories: true)
    try Data("not json".utf8).write(to: fixture.data.appendingPathComponent("coins.json"))
    let events = await fixture.run(.addCoin(Self.dogecoin))
    expectEqual(events.notSaved.count, 1)
    expectEqual(events.notSaved.first?.contains("coins.json"), true, "\(events)")
    expect(events.lists.isEmpty)
  }
}
