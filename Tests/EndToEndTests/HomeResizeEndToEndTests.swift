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

/// Every resize redraws the whole screen: the home screen opened at 80 × 24 and resized to
/// 160 × 50, then 100 × 30, on the list and on the detail (and the keys screen through the
/// sizes the other way), shows after each resize the very
/// frame a fresh start at that size shows (clock times aside), drawn from a cleared screen.
/// The binary on pseudo-terminals (util-linux `script`) against one fake API with a fixed
/// clock; only hang guards, no timing.
@Suite struct HomeResizeEndToEndTests {
  static let hasScript = ExplorerEndToEndTests.script != nil
  static let sizes: [(columns: UInt16, rows: UInt16)] = [(80, 24), (160, 50), (100, 30)]
  /// What a redraw after a resize starts with: cursor home, clear the whole screen.
  static let cleared = "\u{1B}[H\u{1B}[2J"

  /// `rates ui` on a pseudo-terminal of `columns` × `rows`, with the list shown.
  struct Opened {
    var run: PseudoTerminalRun
    var pid: pid_t
  }

  static func open(
    columns: UInt16, rows: UInt16, server: LoopbackServer
  ) async throws -> Opened {
    let rates = try BinaryRunner(server: server.baseURL)
    let run = try PseudoTerminalRun(
      script: ExplorerEndToEndTests.script ?? "", runner: rates,
      command: "stty cols \(columns) rows \(rows); "
        + "\(ExplorerEndToEndTests.announced("'\(try BinaryRunner.binary.path)' ui")); echo \"status=$?.\"")
    expect(await run.waitFor(HomeEndToEndTests.listed), "the list: \(run.text)")
    return Opened(run: run, pid: try TerminalEndToEndTests.ratesProcess(of: run))
  }

  /// The last whole frame after `offset` bytes, its clock times (`14:03:21`) masked: they
  /// say when each process loaded, the one thing two runs cannot share.
  static func frame(_ run: PseudoTerminalRun, after offset: Int) -> [String]? {
    HomeEndToEndTests.lastFrame(of: run.text, after: offset)?.map {
      $0.replacing(/\d\d:\d\d:\d\d/, with: "hh:mm:ss")
    }
  }

  /// Waits until the last frame of `resized` after `mark` is the last frame of `fresh`;
  /// records both when they never agree.
  static func expectSameFrame(
    _ resized: PseudoTerminalRun, after mark: Int, as fresh: PseudoTerminalRun, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let agree = await eventually(timeout: 20) {
      guard let frame = frame(resized, after: mark) else { return false }
      return frame == Self.frame(fresh, after: 0)
    }
    let shown = frame(resized, after: mark)?.joined(separator: "\n") ?? "no frame"
    let expected = frame(fresh, after: 0)?.joined(separator: "\n") ?? "no frame"
    #expect(agree, "\(what): after the resize\n\(shown)\nfresh\n\(expected)", sourceLocation: sourceLocation)
  }

  /// Resizes `opened` to `size`, and expects a redraw from a cleared screen that shows
  /// what `fresh` shows.
  static func resize(
    _ opened: Opened, to size: (columns: UInt16, rows: UInt16), as fresh: PseudoTerminalRun, _ what: String
  ) async {
    let mark = opened.run.text.utf8.count
    expect(HomeEndToEndTests.resize(opened.pid, columns: size.columns, rows: size.rows))
    await expectSameFrame(opened.run, after: mark, as: fresh, "\(what) at \(size.columns)x\(size.rows)")
    let after = String(decoding: Array(opened.run.text.utf8.dropFirst(mark)), as: UTF8.self)
    expectContains(after, cleared, "\(what): the redraw clears the screen first")
  }

  @Test(.enabled(if: hasScript, "needs util-linux script"))
  func everyResizeOnTheListTheDetailAndTheKeysRedrawsWhatAFreshStartShows() async throws {
    let now = Date()
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { now }))
    defer { server.stop() }
    var fresh: [PseudoTerminalRun] = []
    var pids: [pid_t] = []
    defer {
      for run in fresh { run.kill() }
      for pid in pids { TerminalEndToEndTests.killIfLeft(pid) }
    }
    for size in Self.sizes {
      let opened = try await Self.open(columns: size.columns, rows: size.rows, server: server)
      fresh.append(opened.run)
      pids.append(opened.pid)
    }
    let resized = try await Self.open(columns: 80, rows: 24, server: server)
    defer { resized.run.kill() }
    pids.append(resized.pid)
    await Self.expectSameFrame(resized.run, after: 0, as: fresh[0], "the list at 80x24")
    for index in [1, 2, 0] {
      await Self.resize(resized, to: Self.sizes[index], as: fresh[index], "the list")
    }

    // The detail of the first row, Bitcoin, in every run.
    for run in fresh + [resized.run] {
      let mark = run.text.utf8.count
      run.send("\r")
      expect(await run.waitFor("all-time high", after: mark), "the detail: \(run.text)")
    }
    await Self.expectSameFrame(resized.run, after: 0, as: fresh[0], "the detail at 80x24")
    for index in [1, 2] {
      await Self.resize(resized, to: Self.sizes[index], as: fresh[index], "the detail")
    }

    // Back on the list, the keys screen: the same at every size.
    for run in fresh + [resized.run] {
      let mark = run.text.utf8.count
      run.send("q?")
      expect(await run.waitFor("any key closes", after: mark), "the keys: \(run.text)")
    }
    await Self.expectSameFrame(resized.run, after: 0, as: fresh[2], "the keys at 100x30")
    for index in [0, 1] {
      await Self.resize(resized, to: Self.sizes[index], as: fresh[index], "the keys")
    }
    resized.run.send("qq")
    expect(await resized.run.waitForExit() != nil, "\(resized.run.text)")
    expectEqual(ExplorerEndToEndTests.number(after: "status=", in: resized.run.text), 0)
  }
}
