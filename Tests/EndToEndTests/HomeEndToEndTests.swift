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

/// The home screen through the built binary on a pseudo-terminal (util-linux `script`),
/// against the fake APIs: it opens on bare `rates`, draws the list, and gives the terminal
/// back on every way out; suspend, resume and resize redraw. Only hang guards, no timing.
@Suite struct HomeEndToEndTests {
  static let hasScript = ExplorerEndToEndTests.script != nil
  static let mouseOn = "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h"
  static let mouseOff = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"
  /// Text the list shows once the fake API's answer is in.
  static let listed = "Bitcoin"

  /// The home screen running in a pseudo-terminal: the run, the `rates` process, the fake
  /// APIs and the user's home folder.
  struct Opened {
    var run: PseudoTerminalRun
    var pid: pid_t
    var server: LoopbackServer
    var home: URL
  }

  /// Runs `rates <arguments>` on a 100 × 30 terminal against the fake APIs (after printing
  /// the shell's pid; then its status and `stty -a`), waits for the list, and hands it to
  /// `body`; the process, the terminal and the server are cleaned up however it ends.
  /// `rates ARGUMENTS` on a 100×30 pseudo-terminal, announced, with its exit status and the
  /// terminal's modes printed after it ends.
  static func openOnTerminal(_ arguments: String, runner: BinaryRunner) throws
    -> PseudoTerminalRun
  {
    try PseudoTerminalRun(
      script: ExplorerEndToEndTests.script ?? "", runner: runner,
      command: "stty cols 100 rows 30; "
        + "\(ExplorerEndToEndTests.announced("'\(try BinaryRunner.binary.path)' \(arguments)")); "
        + "echo \"status=$?.\"; stty -a")
  }

  static func withList(_ arguments: String, _ body: (Opened) async throws -> Void) async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL, extra: ["RATES_WATCH_FLOOR": "1"])
    let run = try HomeEndToEndTests.openOnTerminal(arguments, runner: rates)
    defer { run.kill() }
    expect(await run.waitFor(listed), "the list: \(run.text)")
    let pid = try TerminalEndToEndTests.ratesProcess(of: run)
    defer { TerminalEndToEndTests.killIfLeft(pid) }
    try await body(Opened(run: run, pid: pid, server: server, home: rates.home))
  }

  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func bareRatesOpensTheListAndQGivesTheTerminalBack() async throws {
    try await Self.withList("") { opened in
      let (run, server) = (opened.run, opened.server)
      run.send("q")
      expect(await run.waitForExit() != nil, "\(run.text)")
      let output = run.text
      TerminalEndToEndTests.expectCleanExit(output, status: 0)
      let on = try require(output.range(of: Self.mouseOn, options: .backwards))
      let off = try require(output.range(of: Self.mouseOff, options: .backwards))
      expect(on.upperBound <= off.lowerBound, "mouse reports off again")
      expect(server.requestCount > 0)
    }
  }

  /// A walk through the screens with keys, as a user types them: a coin's detail and a
  /// range, back, search and add a coin (stored in coins.json), back, quit.
  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func keysWalkTheScreensAndAnAddedCoinIsStored() async throws {
    try await Self.withList("ui") { opened in
      let run = opened.run
      run.send("\r")
      expect(await run.waitFor("all-time high"), "the detail: \(run.text)")
      run.send("1")
      expect(await run.waitFor("7 days"), "seven days: \(run.text)")
      run.send("q/so")
      // The hit's line (the list's row spaces the name further off).
      expect(await run.waitFor("SOL  Solana"), "a search hit: \(run.text)")
      run.send("\r")
      expect(await run.waitFor("Added Solana (SOL) to your coins"), "\(run.text)")
      run.send("\u{1B}")
      expect(await run.waitFor("Your coins"), "back on the list: \(run.text)")
      run.send("q")
      expect(await run.waitForExit() != nil, "\(run.text)")
      TerminalEndToEndTests.expectCleanExit(run.text, status: 0)
      let stored = try String(
        contentsOf: opened.home.appendingPathComponent("data/rates/coins.json"), encoding: .utf8)
      expectContains(stored, "\"solana\"")
    }
  }

  @Test(
    .enabled(if: hasScript, "needs util-linux script"),
    arguments: [("ctrl-c", 130), ("SIGTERM", 143), ("SIGHUP", 129)])
  func ctrlCAndSignalsEndItWithTheirStatusAndTheTerminalRestored(
    way: String, status: Int
  ) async throws {
    try await Self.withList("ui") { opened in
      let (run, pid) = (opened.run, opened.pid)
      switch way {
      case "ctrl-c": run.send("\u{03}")
      case "SIGTERM": kill(pid, SIGTERM)
      default: kill(pid, SIGHUP)
      }
      expect(await run.waitForExit() != nil, "\(run.text)")
      TerminalEndToEndTests.expectCleanExit(run.text, status: status)
      expectContains(run.text, Self.mouseOff)
    }
  }

  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func ctrlZGivesTheTerminalBackAndContinueRedraws() async throws {
    try await Self.withList("ui") { opened in
      let (run, pid) = (opened.run, opened.pid)
      run.send("\u{1A}")
      expect(
        await pollingKernelState { TerminalEndToEndTests.state(of: pid) == "T" }, "stopped: \(run.text)")
      expect(await run.waitFor(TerminalEndToEndTests.leave), "left before stopping: \(run.text)")
      try TerminalEndToEndTests.expectGivenBack(run.text, pid: pid, frame: Self.listed)
      expectContains(run.text, Self.mouseOff, "no mouse reports while stopped")

      let mark = run.text.utf8.count
      kill(pid, SIGCONT)
      expect(await run.waitFor(TerminalEndToEndTests.enter, after: mark), "entered: \(run.text)")
      expect(await run.waitFor(Self.listed, after: mark), "redrawn: \(run.text)")
      expect(await run.waitFor(Self.mouseOn, after: mark), "mouse reports again")
      run.send("q")
      expect(await run.waitForExit() != nil, "\(run.text)")
      TerminalEndToEndTests.expectCleanExit(run.text, status: 0)
    }
  }

  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func aResizeRedrawsAtTheNewSize() async throws {
    try await Self.withList("ui") { opened in
      let (run, pid) = (opened.run, opened.pid)

      let mark = run.text.utf8.count
      // The kernel sends SIGWINCH to the terminal's foreground group when its size changes.
      expect(Self.resize(pid, columns: 50, rows: 15))
      expect(
        await eventually { Self.lastFrame(of: run.text, after: mark).map { $0.count == 15 } == true },
        "a 15-line frame: \(run.text)")
      let frame = try require(Self.lastFrame(of: run.text, after: mark))
      for line in frame {
        expect(TerminalText.displayWidth(line) <= 50, "\(line)")
      }
      run.send("q")
      expect(await run.waitForExit() != nil, "\(run.text)")
      TerminalEndToEndTests.expectCleanExit(run.text, status: 0)
    }
  }

  @Test func withoutATerminalUIExits64InOneLine() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let result = try await rates.run(["ui"])
    expectEqual(result.status, 64)
    expectEqual(result.stderr.split(separator: "\n").count, 1)
    expectContains(result.stderr, "needs a terminal")
    expect(result.stdout.isEmpty)
    expectEqual(server.requestCount, 0)
  }

  // MARK: - Helpers

  /// Sets the window size of the terminal on the process's standard input.
  static func resize(_ pid: pid_t, columns: UInt16, rows: UInt16) -> Bool {
    let fd = open("/proc/\(pid)/fd/0", O_RDWR | O_NOCTTY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    return ioctl(fd, UInt(TIOCSWINSZ), &size) == 0
  }

  /// The last whole frame written after `offset` bytes once one of its lines contains
  /// `needle`; nil when none does before the hang guard. Waiting for the text alone is not
  /// enough: the terminal may hand over the head of a frame (its header) before its end
  /// (`ESC [ J`), and the last whole frame is then the one before.
  static func frame(of run: PseudoTerminalRun, containing needle: String, after offset: Int)
    async -> [String]?
  {
    func found() -> [String]? {
      lastFrame(of: run.text, after: offset).flatMap { lines in
        lines.contains { $0.contains(needle) } ? lines : nil
      }
    }
    return await eventually { found() != nil } ? found() : nil
  }

  /// The lines of the last whole frame (`ESC [ H` … `ESC [ J`) written after `offset` bytes.
  static func lastFrame(of text: String, after offset: Int) -> [String]? {
    let tail = String(decoding: Array(text.utf8.dropFirst(offset)), as: UTF8.self)
    guard let end = tail.range(of: "\u{1B}[J", options: .backwards),
      let start = tail[..<end.lowerBound].range(of: "\u{1B}[H", options: .backwards)
    else { return nil }
    return tail[start.upperBound..<end.lowerBound].components(separatedBy: "\r\n")
  }
}
