import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Changes from the home screen through the built binary on a pseudo-terminal, against the
/// fake APIs and real files: undo restores removals in order, a data folder that cannot be
/// written leaves everything as it was and says so, and global flags alone open the screen.
@Suite struct HomeEditEndToEndTests {
  static let hasScript = ExplorerEndToEndTests.script != nil
  static let coins = [("tron", "TRX", "TRON"), ("chainlink", "LINK", "Chainlink"), ("litecoin", "LTC", "Litecoin")]

  /// Runs `rates <arguments>` on a 100 × 30 terminal against the fake APIs, with the user's
  /// data folder made by `prepare` first; waits for `shows` and hands the run and the data
  /// folder to `body`. Everything is cleaned up however it ends.
  static func withScreen(
    _ arguments: String, shows: String, prepare: (URL) throws -> Void,
    _ body: (PseudoTerminalRun, URL, BinaryRunner) async throws -> Void
  ) async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let data = rates.home.appendingPathComponent("data/rates")
    try prepare(data)
    defer { chmod(data.path, 0o700) }
    let run = try HomeEndToEndTests.openOnTerminal(arguments, runner: rates)
    defer { run.kill() }
    expect(await run.waitFor(shows), "the screen: \(run.text)")
    let pid = try TerminalEndToEndTests.ratesProcess(of: run)
    defer { TerminalEndToEndTests.killIfLeft(pid) }
    try await body(run, data, rates)
  }

  static func storeCoins(_ data: URL) throws {
    let user = UserData(directory: data)
    let coins = Self.coins.map { FavoriteCoin(id: $0.0, symbol: $0.1, name: $0.2, addedAt: fixedNow) }
    try user.addCoins(coins)
    try user.addFavorites([coins[2]])
  }

  static func storedCoins(_ data: URL) throws -> [String] {
    try UserData(directory: data).readCoins().map(\.id)
  }

  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func threeRemovalsAreUndoneInReverseOrderEachBackInItsPlace() async throws {
    try await Self.withScreen("", shows: "Litecoin", prepare: Self.storeCoins) { run, data, _ in
      // Your coins are the first rows: from the bottom of them up, g to the first row and j
      // down to the coin, then d. "Removed" shows once the driver stored the change, so the
      // file is read after it.
      for (index, (id, _, name)) in Self.coins.enumerated().reversed() {
        run.send("g" + String(repeating: "j", count: index) + "d")
        expect(await run.waitFor("Removed \(name)"), "\(id): \(run.text)")
      }
      let removed = try Self.storedCoins(data)
      expectEqual(removed, [], "all three removed")
      expect(await run.waitFor("u restores TRON"), "\(run.text)")
      for (restored, next, stored) in [
        ("TRON", "u restores Chainlink", ["tron"]), ("Chainlink", "u restores Litecoin", ["tron", "chainlink"]),
        ("Litecoin", "nothing left to undo", ["tron", "chainlink", "litecoin"]),
      ] {
        let mark = run.text.utf8.count
        run.send("u")
        expect(await run.waitFor("Restored \(restored)", after: mark), "\(run.text)")
        expect(await run.waitFor(next, after: mark), "after restoring \(restored): \(run.text)")
        let coins = try Self.storedCoins(data)
        expectEqual(coins, stored, "\(restored) stored back in its place")
      }
      run.send("q")
      expect(await run.waitForExit() != nil, "\(run.text)")
      TerminalEndToEndTests.expectCleanExit(run.text, status: 0)
    }
  }

  /// The data folder turns read-only once the screen is open (and, since root writes into
  /// one, folders take the place of the lock files): `f` and `d` say the change was not
  /// saved and why, the list keeps the coin, the files stay as they were, and the next run
  /// (the folder writable again) shows the old state.
  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func aReadOnlyDataFolderSaysTheChangeFailedAndChangesNothing() async throws {
    try await Self.withScreen("", shows: "Litecoin", prepare: Self.storeCoins) { run, data, rates in
      let files = ["coins.json", "favorites.json"].map { data.appendingPathComponent($0) }
      let before = try files.map { try Data(contentsOf: $0) }
      let locks = ["coins", "favorites", "pairs"].map { data.appendingPathComponent(".\($0).json.lock") }
      for lock in locks {
        try? FileManager.default.removeItem(at: lock)
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: true)
      }
      chmod(data.path, 0o555)
      run.send("gjj")  // Litecoin, the third of your coins
      run.send("f")
      expect(await run.waitFor("Not saved: could not unstar Litecoin: cannot write "), "\(run.text)")
      run.send("d")
      expect(await run.waitFor("Not saved: could not remove Litecoin: cannot write "), "\(run.text)")
      expect(!run.text.contains("Unstarred Litecoin") && !run.text.contains("Removed Litecoin"))
      let mark = run.text.utf8.count
      run.send("j")
      expect(await eventually { HomeEndToEndTests.lastFrame(of: run.text, after: mark) != nil })
      let frame = HomeEndToEndTests.lastFrame(of: run.text, after: mark) ?? []
      expect(frame.contains { $0.contains("Litecoin") }, "the list keeps Litecoin: \(frame)")
      run.send("q")
      expect(await run.waitForExit() != nil, "\(run.text)")
      expectEqual(try files.map { try Data(contentsOf: $0) }, before)
      chmod(data.path, 0o700)
      for lock in locks { try FileManager.default.removeItem(at: lock) }
      let next = try await rates.run(["coins", "--json"])
      expectContains(next.stdout, "\"litecoin\"", "\(next.stdout)\(next.stderr)")
      let starred = try await rates.run(["favorites", "--json"])
      expectContains(starred.stdout, "\"litecoin\"", "\(starred.stdout)\(starred.stderr)")
    }
  }

  /// Text beyond ASCII typed into search reaches it (it was dropped).
  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func searchTakesTextBeyondASCII() async throws {
    try await Self.withScreen("", shows: "Bitcoin", prepare: { _ in }) { run, _, _ in
      run.send("/")
      run.send("é中")
      expect(await run.waitFor("> é中"), "\(run.text)")
      run.send("\u{1B}")
      run.send("q")
      expect(await run.waitForExit() != nil, "\(run.text)")
      TerminalEndToEndTests.expectCleanExit(run.text, status: 0)
    }
  }

  /// The pair picker through the terminal, the case: with GBP/EUR and GBP/USD
  /// stored, `p`, Enter (the first currency), `k` above the first choice stays on AUD, and
  /// Enter adds exactly that pair (before: `k` jumped to KRW and Enter added a pair the
  /// user never chose).
  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func thePairPickerAddsThePairTheCursorShows() async throws {
    let prepare: (URL) throws -> Void = { data in
      let user = UserData(directory: data)
      try user.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
      try user.addPairAtTop(ConfiguredPair(base: "GBP", quote: "EUR", addedAt: fixedNow))
    }
    try await Self.withScreen("", shows: "Bitcoin", prepare: prepare) { run, data, _ in
      run.send("p")
      expect(await run.waitFor("first currency"), "\(run.text)")
      var mark = run.text.utf8.count
      run.send("\r")
      expect(await run.waitFor("second currency", after: mark), "\(run.text)")
      let base = try require(Self.pickedBase(run.text), "\(run.text)")
      // `k` on the first choice changes nothing on screen: the keys are read in order.
      mark = run.text.utf8.count
      run.send("k")
      run.send("\r")
      expect(await run.waitFor("Added \(base)/AUD", after: mark), "\(run.text)")
      let stored = try UserData(directory: data).pairs.read().map(\.name)
      expect(stored.contains("\(base)-AUD"), "\(stored)")
      expectEqual(stored.count, 3, "exactly one pair added: \(stored)")
      run.send("q")
      expect(await run.waitForExit() != nil, "\(run.text)")
      TerminalEndToEndTests.expectCleanExit(run.text, status: 0)
    }
  }

  /// The base the picker chose, from its header `Add a pair: GBP/?`.
  static func pickedBase(_ text: String) -> String? {
    guard let range = text.range(of: "Add a pair: ", options: .backwards) else { return nil }
    let rest = text[range.upperBound...]
    guard let slash = rest.firstIndex(of: "/") else { return nil }
    return String(rest[..<slash])
  }

  @Test(.enabled(if: hasScript, "needs util-linux script"), arguments: ["--no-color", "--refresh", "--ascii"])
  func globalFlagsAloneOpenTheScreen(flags: String) async throws {
    try await Self.withScreen(flags, shows: "Bitcoin", prepare: { _ in }) { run, _, _ in
      expect(!run.text.contains("missing argument"))
      run.send("q")
      expect(await run.waitForExit() != nil, "\(run.text)")
      TerminalEndToEndTests.expectCleanExit(run.text, status: 0)
    }
  }
}
