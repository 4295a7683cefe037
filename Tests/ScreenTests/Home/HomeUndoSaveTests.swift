import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

/// Undo is a stack for the session, and every change from the home screen is saved or
/// said: the state alone, then the state with the real driver on real files.
@Suite struct HomeUndoSaveTests {
  typealias S = HomeListSupport

  static let fourCoins = HomeLists(
    coins: [
      S.favorite("kaspa", "KAS", "Kaspa"), S.favorite("shiba-inu", "SHIB", "Shiba Inu"),
      S.favorite("tron", "TRX", "TRON"), S.favorite("chainlink", "LINK", "Chainlink"),
    ],
    favorites: [S.favorite("bitcoin", "BTC", "Bitcoin")], pairs: [])

  static var fourCoinBoard: HomeBoard {
    S.board(
      S.topRows + [
        S.coin(.coin, "kaspa", "KAS", "Kaspa", 0.16, 7), S.coin(.coin, "shiba-inu", "SHIB", "Shiba Inu", 0.1, 1),
        S.coin(.coin, "tron", "TRX", "TRON", 0.12, 2), S.coin(.coin, "chainlink", "LINK", "Chainlink", 14, 3),
      ])
  }

  /// Puts the cursor on the own coin `id`.
  static func select(_ id: String, on state: inout HomeState) {
    state.moveCursor(to: state.listRows.firstIndex { $0.id == id } ?? 0)
  }

  @Test func uRestoresEveryRemovalInReverseOrderEachInItsPlace() {
    var state = S.state(board: Self.fourCoinBoard, lists: Self.fourCoins)
    let rows = state.listRows.map(\.id)
    for id in ["tron", "kaspa", "chainlink"] {
      Self.select(id, on: &state)
      expectEqual(S.press(.character("d"), on: &state), [.removeCoin(id: id)])
    }
    expectEqual(state.lists.coins.map(\.id), ["shiba-inu"])
    expectEqual(state.notice, "Removing Chainlink\u{2026}")
    _ = state.handle(.saved(.removeCoin(id: "tron")))
    expectEqual(state.notice, "Removing Chainlink\u{2026}", "another change's answer")
    _ = state.handle(.saved(.removeCoin(id: "chainlink")))
    expectEqual(state.notice, "Removed Chainlink")
    expectEqual(state.undoHint, "u restores Chainlink")
    let restore = S.press(.character("u"), on: &state)
    expectEqual(restore, [.restoreCoin(Self.fourCoins.coins[3], at: 1)])
    _ = state.handle(.saved(restore[0]))
    expectEqual(state.notice, "Restored Chainlink")
    expectEqual(state.undoHint, "u restores Kaspa")
    expectEqual(state.selectedRow?.id, "chainlink")
    expectEqual(S.press(.character("u"), on: &state), [.restoreCoin(Self.fourCoins.coins[0], at: 0)])
    expectEqual(state.undoHint, "u restores TRON")
    expectEqual(S.press(.character("u"), on: &state), [.restoreCoin(Self.fourCoins.coins[2], at: 2)])
    _ = state.handle(.saved(.restoreCoin(Self.fourCoins.coins[2], at: 2)))
    expectEqual(state.notice, "Restored TRON: nothing left to undo")
    expectEqual(state.undoHint, nil)
    expectEqual(state.lists, Self.fourCoins)
    expectEqual(state.listRows.map(\.id), rows)
    expectEqual(S.press(.character("u"), on: &state), [])
    expectEqual(state.notice, "Nothing to undo")
  }

  @Test func theStatusLineSaysWhatURestoresUntilNothingIsLeft() {
    var state = S.state(board: Self.fourCoinBoard, lists: Self.fourCoins)
    Self.select("tron", on: &state)
    _ = S.press(.character("d"), .down, on: &state)
    let line = HomeListRendererTests.render(state).last ?? ""
    expectContains(line, "u restores TRON")
    _ = S.press(.character("u"), .down, on: &state)
    let after = HomeListRendererTests.render(state).last ?? ""
    expect(!after.contains("u restores"), "\(after)")
  }

  @Test func aRemovalThatCouldNotBeSavedComesBackAndTheLineSaysWhy() {
    var state = S.state(board: Self.fourCoinBoard, lists: Self.fourCoins)
    let rows = state.listRows
    Self.select("tron", on: &state)
    _ = S.press(.character("d"), on: &state)
    _ = state.handle(.notSaved(.removeCoin(id: "tron"), reason: "cannot write /d/.coins.json.lock: Permission denied"))
    expectEqual(state.notice, "Not saved: could not remove TRON: cannot write /d/.coins.json.lock: Permission denied")
    expectEqual(state.listRows, rows)
    expectEqual(state.lists, Self.fourCoins)
    expect(state.undoStack.isEmpty)
    expect(state.unsaved.isEmpty)
    expectEqual(state.selectedRow?.id, "tron")
  }

  @Test func anUndoThatCouldNotBeSavedLeavesTheRemovalOnTheStack() {
    var state = S.state(board: Self.fourCoinBoard, lists: Self.fourCoins)
    Self.select("tron", on: &state)
    let effects = S.press(.character("d"), .character("u"), on: &state)
    expectEqual(effects.count, 2)
    _ = state.handle(.notSaved(effects[1], reason: "disk full"))
    expectEqual(state.notice, "Not saved: could not restore TRON: disk full")
    expect(!state.listRows.contains { $0.id == "tron" })
    expect(!state.lists.coins.contains { $0.id == "tron" })
    expectEqual(state.undoHint, "u restores TRON")
  }

  @Test func aStarThatCouldNotBeSavedIsTakenBack() {
    var state = S.state()
    Self.select("bitcoin", on: &state)
    let starred = S.press(.character("f"), on: &state)  // bitcoin is starred: unstar
    expect(!state.lists.favorites.contains { $0.id == "bitcoin" })
    _ = state.handle(.notSaved(starred[0], reason: "disk full"))
    expect(state.lists.favorites.contains { $0.id == "bitcoin" })
    expectEqual(state.notice, "Not saved: could not unstar Bitcoin: disk full")
    Self.select("ethereum", on: &state)
    let star = S.press(.character("f"), on: &state)
    _ = state.handle(.notSaved(star[0], reason: "disk full"))
    expect(!state.lists.favorites.contains { $0.id == "ethereum" })
    expectEqual(state.notice, "Not saved: could not star Ethereum: disk full")
  }

  @Test func anAddedPairThatCouldNotBeSavedLeavesTheLists() {
    var state = S.state()
    _ = state.handle(.notSaved(.addPair(base: "GBP", quote: "USD"), reason: "GBP and USD are already paired"))
    expectEqual(state.notice, "Not saved: could not add GBP/USD: GBP and USD are already paired")
    var fresh = S.state(lists: HomeLists())
    let effects = S.press(.character("p"), .enter, .enter, on: &fresh)
    expectEqual(fresh.lists.pairs.count, 1)
    _ = fresh.handle(.notSaved(effects[0], reason: "disk full"))
    expect(fresh.lists.pairs.isEmpty)
    expectEqual(fresh.picker.addedPair, nil)
  }

  // MARK: - With the real driver and files

  /// The state with `fixture`'s driver: keys, then each effect carried out and its events
  /// applied, as the session does.
  static func drive(_ keys: [TerminalKey], _ state: inout HomeState, _ fixture: HomeDriverFixture) async {
    for key in keys {
      for effect in state.handle(.key(key)) {
        for event in await fixture.run(effect) { _ = state.handle(event) }
      }
    }
  }

  static func storedCoins(_ fixture: HomeDriverFixture) throws -> [String] {
    try fixture.userData.readCoins().map(\.id)
  }

  @Test func threeRemovalsAndThreeUndosAreStoredInOrder() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addCoins(Self.fourCoins.coins)
    var state = S.state(board: Self.fourCoinBoard, lists: try fixture.driver.lists())
    for id in ["tron", "kaspa", "chainlink"] {
      Self.select(id, on: &state)
      await Self.drive([.character("d")], &state, fixture)
    }
    expectEqual(try Self.storedCoins(fixture), ["shiba-inu"])
    expectEqual(state.notice, "Removed Chainlink")
    await Self.drive([.character("u")], &state, fixture)
    expectEqual(try Self.storedCoins(fixture), ["shiba-inu", "chainlink"])
    await Self.drive([.character("u")], &state, fixture)
    expectEqual(try Self.storedCoins(fixture), ["kaspa", "shiba-inu", "chainlink"])
    await Self.drive([.character("u")], &state, fixture)
    expectEqual(try Self.storedCoins(fixture), ["kaspa", "shiba-inu", "tron", "chainlink"])
    expectEqual(state.lists.coins.map(\.id), ["kaspa", "shiba-inu", "tron", "chainlink"])
  }

  /// Root writes into a read-only folder, so unwritable lock files (folders in their
  /// place) stand in for one: every write fails as on a read-only folder.
  static func makeUnwritable(_ data: URL) throws {
    for name in ["coins", "favorites", "pairs"] {
      let lock = data.appendingPathComponent(".\(name).json.lock")
      try? FileManager.default.removeItem(at: lock)
      try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: true)
    }
  }

  @Test func onAnUnwritableFolderNothingIsShownAsDoneAndTheFilesStayAsTheyWere() async throws {
    let fixture = try HomeDriverFixture()
    try fixture.userData.addCoins(Self.fourCoins.coins)
    try fixture.userData.addFavorites(Self.fourCoins.favorites)
    var state = S.state(board: Self.fourCoinBoard, lists: try fixture.driver.lists())
    // Reading needs the lock files too: the folder turns unwritable once the screen is open.
    try Self.makeUnwritable(fixture.data)
    let files = ["coins.json", "favorites.json"].map { fixture.data.appendingPathComponent($0) }
    let before = try files.map { try Data(contentsOf: $0) }
    let rows = state.listRows
    Self.select("tron", on: &state)
    await Self.drive([.character("d")], &state, fixture)
    expectEqual(state.listRows, rows)
    expectEqual(
      state.notice?.hasPrefix("Not saved: could not remove TRON: cannot write "), true, "\(state.notice ?? "")")
    expectEqual(state.notice?.contains("coins.json"), true)
    expectEqual(state.undoHint, nil)
    Self.select("bitcoin", on: &state)
    await Self.drive([.character("f")], &state, fixture)
    expectEqual(
      state.notice?.hasPrefix("Not saved: could not unstar Bitcoin: cannot write "), true, "\(state.notice ?? "")")
    expectEqual(state.lists.favorites.map(\.id), ["bitcoin"])
    expectEqual(try files.map { try Data(contentsOf: $0) }, before)
  }
}
