import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The home list as a market table through the built binary on a pseudo-terminal, against
/// the fake APIs: sorting (remembered in the config file), paging through the top 100 and
/// starring, as a user types them. Only hang guards, no timing: each step awaits its frame.
@Suite struct HomeMarketEndToEndTests {
  static let hasScript = ExplorerEndToEndTests.script != nil

  /// `rates ui` on a `columns` × `rows` terminal against the fake APIs (`markets` answers
  /// `/coins/markets` when given), once `ready` shows; then `q`, and `stored` reads the
  /// user's home folder once the process has ended (its writes are done: the screen waits
  /// for them before it quits). Cleaned up however it ends.
  static func withScreen(
    columns: Int, rows: Int, ready: String,
    markets: (@Sendable ([String: String]) -> LoopbackReply)? = nil,
    _ body: (PseudoTerminalRun) async throws -> Void,
    stored: (URL) throws -> Void = { _ in }
  ) async throws {
    let fake = FakeAPIs.handler(now: { Date() })
    let server = try LoopbackServer { request in
      if let markets, request.path.hasSuffix("/coins/markets") { return markets(request.query) }
      return fake(request)
    }
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let run = try PseudoTerminalRun(
      script: ExplorerEndToEndTests.script ?? "", runner: rates,
      command: "stty cols \(columns) rows \(rows); "
        + "\(ExplorerEndToEndTests.announced("'\(try BinaryRunner.binary.path)' ui")); "
        + "echo \"status=$?.\"; stty -a")
    defer { run.kill() }
    expect(await run.waitFor(ready), "the list: \(run.text)")
    let pid = try TerminalEndToEndTests.ratesProcess(of: run)
    defer { TerminalEndToEndTests.killIfLeft(pid) }
    try await body(run)
    run.send("q")
    expect(await run.waitForExit() != nil, "\(run.text)")
    TerminalEndToEndTests.expectCleanExit(run.text, status: 0)
    try stored(rates.home)
  }

  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func sortBy24HoursThenByMarketCapAndTheSortIsRemembered() async throws {
    try await Self.withScreen(columns: 160, rows: 40, ready: "Bitcoin") { run in
      run.send("D")
      expect(await run.waitFor("24h▼"), "sorted by 24 h: \(run.text)")
      expect(await run.waitFor("Sorted by 24 h change, largest first"), "\(run.text)")
      let mark = run.text.utf8.count
      run.send("M")
      expect(await run.waitFor("Market cap▼", after: mark), "sorted by market cap: \(run.text)")
      expect(await run.waitFor("Sorted by market cap, largest first", after: mark), "\(run.text)")
    } stored: { home in
      let config = try String(
        contentsOf: home.appendingPathComponent("config/rates/config.json"), encoding: .utf8)
      expect(config.contains("\"home-sort\"") && config.contains("\"-market-cap\""), "\(config)")
    }
  }

  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func pageDownFourTimesShowsRanks81To100() async throws {
    // 27 rows: pages of 20 top coins.
    try await Self.withScreen(
      columns: 100, rows: 27, ready: "Coin 1 ", markets: { FakeManyCoins.reply($0, count: 100) }
    ) { run in
      expect(await run.waitFor("Top 1–20 of 100"), "\(run.text)")
      for _ in 0..<4 { run.send("\u{1B}[6~") }
      let frame = try require(
        await HomeEndToEndTests.frame(of: run, containing: "Top 81–100 of 100", after: 0),
        "paged: \(run.text)")
      expect(frame.contains { $0.contains("Coin 100") } && frame.contains { $0.contains("Coin 81 ") })
      expect(!frame.contains { $0.contains("Coin 80 ") })
    }
  }

  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func fStarsAndUnstarsAndTheStarShows() async throws {
    // Star Bitcoin and Ethereum, unstar Bitcoin: the frames show the stars, the file keeps
    // Ethereum alone.
    try await Self.withScreen(columns: 100, rows: 30, ready: "Bitcoin") { run in
      run.send("f")
      expect(await run.waitFor("Starred Bitcoin"), "\(run.text)")
      expect(await run.waitFor("★  1  BTC"), "the star: \(run.text)")
      run.send("jf")
      expect(await run.waitFor("Starred Ethereum"), "\(run.text)")
      let mark = run.text.utf8.count
      run.send("kf")
      let frame = try require(
        await HomeEndToEndTests.frame(of: run, containing: "Unstarred Bitcoin", after: mark),
        "\(run.text)")
      expect(frame.contains { $0.contains("★  2  ETH") } && !frame.contains { $0.contains("★  1  BTC") })
    } stored: { home in
      let favorites = try String(
        contentsOf: home.appendingPathComponent("data/rates/favorites.json"), encoding: .utf8)
      expect(favorites.contains("\"ethereum\"") && !favorites.contains("\"bitcoin\""), "\(favorites)")
    }
  }
}
