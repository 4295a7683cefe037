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

/// `rates history --interactive` (the home screen's detail alone): refused when the process
/// has no terminal, and driven on a real pseudo-terminal through util-linux `script` when it
/// is installed.
@Suite struct ExplorerEndToEndTests {
  static let clock: @Sendable () -> Date = { Date() }
  static let message = "--interactive needs a terminal: run it in one, or drop --interactive"

  @Test func withoutATerminalItSaysSoAndExits64BeforeFetching() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: Self.clock))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let result = try await rates.run(["history", "BTC", "EUR", "--interactive"])
    expectEqual(result.status, 64)
    expectContains(result.stderr, "error: \(Self.message)")
    expectContains(result.stderr, "usage: rates history")
    expect(result.stdout.isEmpty)
    expectEqual(server.requestCount, 0)
  }

  // MARK: - On a pseudo-terminal

  /// util-linux `script`, which runs a command on a new pseudo-terminal.
  static let script: String? = {
    #if os(Linux)
      return ["/usr/bin/script", "/bin/script"].first {
        FileManager.default.isExecutableFile(atPath: $0)
      }
    #else
      return nil  // BSD script takes other arguments
    #endif
  }()

  @Test(.enabled(if: script != nil, "needs util-linux script"))
  func keysMoveTheCursorAndQuitRestoresTheTerminal() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: Self.clock))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let binary = try BinaryRunner.binary.path
    let run = try PseudoTerminalRun(
      script: Self.script ?? "", runner: rates,
      command: "stty cols 90 rows 30; '\(binary)' history BTC EUR --interactive; "
        + "status=$?; echo; stty -a; exit $status")
    defer { run.kill() }

    expect(await run.waitFor("28/28"), "first frame: \(run.text)")
    run.send("h")
    expect(await run.waitFor("27/28"), "h moved the cursor: \(run.text)")
    // The home screen's detail: its ranges load through the same driver.
    expectContains(run.text, "1-4 7/30/90/365 days", "the detail's keys: \(run.text)")
    let mark = run.text.utf8.count
    run.send("1")
    expect(await run.waitFor("7 days", after: mark), "seven days: \(run.text)")
    run.send("lq")
    let status = await run.waitForExit()
    expectEqual(status, 0, "\(run.text)")
    let output = run.text
    let entered = try require(output.range(of: "\u{1B}[?1049h"))
    let left = try require(output.range(of: "\u{1B}[?1049l"))
    expect(entered.upperBound <= left.lowerBound)
    let shown = try require(output.range(of: "\u{1B}[?25h", options: .backwards))
    expectEqual(output.range(of: "\u{1B}[?25l").map { $0.upperBound <= shown.lowerBound }, true)
    expectContains(output, "q quit")
    Self.expectSaneTerminal(output[left.upperBound...])
  }

  @Test(
    .enabled(if: script != nil, "needs util-linux script"),
    arguments: [SIGTERM, SIGINT, SIGHUP])
  func aSignalRestoresTheTerminalAndEndsTheProcessWithIt(signal: Int32) async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: Self.clock))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let binary = try BinaryRunner.binary.path
    // In the foreground: a test process's blocked SIGCHLD would hang `wait` on a background job.
    let run = try PseudoTerminalRun(
      script: Self.script ?? "", runner: rates,
      command: "\(Self.announced("'\(binary)' history BTC EUR --interactive")); "
        + "echo \"status=$?.\"; stty -a")
    defer { run.kill() }

    expect(await run.waitFor("q quit"), "first frame: \(run.text)")
    let pid = try require(Self.number(after: "rates=", in: run.text), "the rates process")
    expectEqual(kill(pid_t(pid), signal), 0)
    expect(await run.waitForExit() != nil, "\(run.text)")
    let output = run.text
    expectEqual(Self.number(after: "status=", in: output), 128 + Int(signal), "\(output)")
    let left = try require(output.range(of: "\u{1B}[?1049l"))
    expectContains(output[..<left.lowerBound], "\u{1B}[?25h")
    Self.expectSaneTerminal(output[left.upperBound...])
  }

  /// `command` (the binary and its arguments, as shell words) run by a shell that first
  /// prints `rates=<pid>.` and then becomes it (`exec`): the pid is the `rates` process's own,
  /// known before it starts, with no search of `/proc` that could race its fork.
  static func announced(_ command: String) -> String {
    "sh -c 'echo \"rates=$$.\"; exec \"$@\"' sh \(command)"
  }

  /// `stty -a` output after the run: canonical mode, echo and signals are back on.
  static func expectSaneTerminal(
    _ stty: Substring, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let words = stty.unicodeScalars.split { " \r\n;".unicodeScalars.contains($0) }
    let flags = Set(words.map { String(String.UnicodeScalarView($0)) })
    for flag in ["icanon", "echo", "isig", "icrnl", "ixon"] {
      #expect(flags.contains(flag), "\(flag) in \(stty)", sourceLocation: sourceLocation)
      #expect(!flags.contains("-" + flag), sourceLocation: sourceLocation)
    }
  }

  static func number(after prefix: String, in text: String) -> Int? {
    guard let start = text.range(of: prefix) else { return nil }
    return Int(text[start.upperBound...].prefix { $0.isNumber })
  }
}

/// A command run by `script` on a new pseudo-terminal, its input written on
/// demand and its output collected as it comes.
final class PseudoTerminalRun: Sendable {
  private let script: ChildProcess
  /// Holds the runner, so its home (the working directory) lasts as long as the run.
  private let runner: BinaryRunner

  init(script: String, runner: BinaryRunner, command: String) throws {
    self.runner = runner
    self.script = try ChildProcess(
      script, ["-qec", command, "/dev/null"],
      environment: runner.environment.merging(["SHELL": "/bin/sh"]) { $1 },
      directory: runner.home.path, input: .pipe, mergingErrors: true)
  }

  /// Everything the terminal showed so far.
  var text: String { script.outputText }

  /// Types `keys`.
  func send(_ keys: String) {
    script.send(keys)
  }

  /// Waits until the output contains `needle`; false after `timeout` seconds (a hang guard).
  func waitFor(_ needle: String, timeout: Double = 60) async -> Bool {
    await eventually(timeout: timeout) { text.contains(needle) }
  }

  /// Waits for `script` to exit and for its output to end, and returns its status; `nil`
  /// after `timeout` seconds (a hang guard).
  func waitForExit(timeout: Double = 60) async -> Int32? {
    guard await eventually(timeout: timeout, { script.termination.count > 0 }) else { return nil }
    // Whatever it wrote last; a guard only, for a child still holding the pipe.
    return await script.finished(timeout: 10)?.status ?? script.termination.all.first?.status
  }

  /// Ends `script` if it is still running.
  func kill() {
    script.signal(SIGTERM)
    script.closeInput()
  }
}
