import Foundation
import RateCore
import RatesCLI
import RatesTestSupport

/// Runs `rates` in process through ``RatesCLI/run(_:context:)``, the way the
/// executable does, with everything outside injected: a temporary home with
/// its own XDG directories, a hermetic environment (nothing leaks from the
/// test process: no `COLUMNS`, `NO_COLOR`, `RATES_*` or real `HOME`), a
/// ``TestClock`` (fixed time, instant sleeps), a transport, and a fake
/// terminal of a given width. Output is captured.
///
/// One harness is one user: runs share its home (cache, favorites, ledger,
/// config) and its clock.
///
/// ```swift
/// let (cli, api) = try CLIHarness.withFakeAPI()
/// let result = await cli.run(["history", "BTC", "EUR"])
/// #expect(result.status == 0)
/// #expect(api.requestCount == 1)
/// ```
public struct CLIHarness: Sendable {
  /// The root of this harness's files; `HOME`, with `cache`, `config` and `data` inside.
  /// Removed when the last copy of the harness goes away.
  public var home: URL { directory.url }
  private let directory: TemporaryDirectory
  /// The clock every run reads and sleeps on.
  public let clock: TestClock
  /// The environment of every run, before a run's own additions. Starts as
  /// ``BinaryRunner/baseEnvironment(home:)``; assign to remove variables.
  public var environment: [String: String]
  /// The terminal width every run reports, or `nil` for none (as when piped:
  /// `COLUMNS`, then 80, decide).
  public var width: Int?
  /// Whether standard output is a terminal (colour, `watch`'s board).
  public var isTTY: Bool
  /// Makes the transport for a per-request timeout in seconds.
  public var makeTransport: @Sendable (_ timeoutSeconds: Int) -> HTTPTransport

  /// A harness whose requests go to `transport` (by default, nowhere).
  ///
  /// - Parameters:
  ///   - transport: the network; ``HTTPTransport/unreachable`` fails every request.
  ///   - clock: the time; by default ``fixedNow``, standing still until something sleeps.
  ///   - width: the terminal width, 80 by default.
  ///   - isTTY: whether stdout is a terminal; false by default, like a pipe.
  ///   - environment: variables added to ``BinaryRunner/baseEnvironment(home:)``.
  /// - Throws: when the temporary home cannot be created.
  public init(
    transport: HTTPTransport = .unreachable, clock: TestClock = TestClock(), width: Int? = 80,
    isTTY: Bool = false, environment: [String: String] = [:]
  ) throws {
    try self.init(
      makeTransport: { _ in transport }, clock: clock, width: width, isTTY: isTTY,
      environment: environment)
  }

  /// A harness whose requests go to `server`, on the server's clock.
  public init(
    server: InProcessServer, width: Int? = 80, isTTY: Bool = false,
    environment: [String: String] = [:]
  ) throws {
    try self.init(
      makeTransport: { server.transport(timeoutSeconds: $0) }, clock: server.clock, width: width,
      isTTY: isTTY, environment: environment)
  }

  /// A harness with `makeTransport` as its network.
  public init(
    makeTransport: @escaping @Sendable (_ timeoutSeconds: Int) -> HTTPTransport,
    clock: TestClock = TestClock(), width: Int? = 80, isTTY: Bool = false,
    environment: [String: String] = [:]
  ) throws {
    directory = try TemporaryDirectory()
    self.clock = clock
    self.environment = BinaryRunner.baseEnvironment(home: directory.url).merging(environment) { $1 }
    self.width = width
    self.isTTY = isTTY
    self.makeTransport = makeTransport
  }

  /// A harness talking to the fake APIs in process, and that server.
  ///
  /// - Parameters:
  ///   - now: the clock's start.
  ///   - handler: wraps the fake's handler, e.g. to inject failures:
  ///     `{ fake in { request in request.index == 0 ? .text("down", status: 503) : fake(request) } }`.
  public static func withFakeAPI(
    now: Date = fixedNow, width: Int? = 80, isTTY: Bool = false,
    environment: [String: String] = [:],
    handler: (
      _ fake: @escaping @Sendable (RecordedRequest) -> LoopbackReply
    ) -> @Sendable (RecordedRequest) -> LoopbackReply = { $0 }
  ) throws -> (CLIHarness, InProcessServer) {
    let clock = TestClock(now: now)
    let server = InProcessServer(
      clock: clock, handler: handler(FakeAPIs.handler(now: { clock.now })))
    let harness = try CLIHarness(
      server: server, width: width, isTTY: isTTY, environment: environment)
    return (harness, server)
  }

  /// One run in a fresh harness.
  public static func run(
    _ arguments: [String], environment: [String: String] = [:], now: Date = fixedNow,
    transport: HTTPTransport = .unreachable, width: Int? = 80, stdin: String? = nil
  ) async throws -> CommandResult {
    let harness = try CLIHarness(
      transport: transport, clock: TestClock(now: now), width: width, environment: environment)
    return await harness.run(arguments, stdin: stdin)
  }

  /// Runs `rates` with `arguments` and returns its status and output.
  ///
  /// - Parameters:
  ///   - environment: variables added to ``environment`` for this run.
  ///   - stdin: what a pipe on standard input would hold; each secret the
  ///     command reads (`rates config set api-key`) takes one line.
  ///   - width: this run's terminal width, instead of ``width``.
  ///   - isTTY: this run's terminal, instead of ``isTTY``.
  ///   - errorIsTTY: whether stderr is a terminal (false, like a pipe, by default).
  ///   - sleep: the run's sleeping, instead of the clock's.
  public func run(
    _ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil,
    width: Int? = nil, isTTY: Bool? = nil, errorIsTTY: Bool = false,
    sleep: (@Sendable (Duration) async throws -> Void)? = nil,
    onStderr: (@Sendable (String) -> Void)? = nil
  ) async -> CommandResult {
    let out = Recorder<String>()
    let err = Recorder<String>()
    let context = makeContext(
      environment: extra, stdin: stdin, width: width, isTTY: isTTY, errorIsTTY: errorIsTTY,
      sleep: sleep, out: out, err: err, onStderr: onStderr)
    let status = await RatesCLI.run(arguments, context: context)
    return CommandResult(status: status, stdout: out.all.joined(), stderr: err.all.joined())
  }

  /// Runs `rates` with `arguments` as the executable does, through
  /// ``RatesCLI/runOnThisThread(_:context:)``: the calling thread runs the command and is
  /// blocked until it is done (call it from a thread of its own, ``onThreadOfItsOwn(_:)``).
  /// `onClockRead` runs on the thread that reads the clock, at each read.
  public func runOnThisThread(
    _ arguments: [String], onClockRead: @escaping @Sendable () -> Void = {}
  ) -> CommandResult {
    let out = Recorder<String>()
    let err = Recorder<String>()
    var context = makeContext(out: out, err: err)
    let (now, monotonicNow) = (context.now, context.monotonicNow)
    context.now = {
      onClockRead()
      return now()
    }
    context.monotonicNow = {
      onClockRead()
      return monotonicNow()
    }
    let status = RatesCLI.runOnThisThread(arguments, context: context)
    return CommandResult(status: status, stdout: out.all.joined(), stderr: err.all.joined())
  }

  /// The context of one run, writing to `out` and `err`; the other parameters are those of
  /// ``run(_:environment:stdin:width:isTTY:errorIsTTY:sleep:onStderr:)``.
  private func makeContext(
    environment extra: [String: String] = [:], stdin: String? = nil, width: Int? = nil,
    isTTY: Bool? = nil, errorIsTTY: Bool = false,
    sleep: (@Sendable (Duration) async throws -> Void)? = nil, out: Recorder<String>,
    err: Recorder<String>, onStderr: (@Sendable (String) -> Void)? = nil
  ) -> CommandContext {
    let environment = environment.merging(extra) { $1 }
    let windowWidth = width ?? self.width
    let tty = isTTY ?? self.isTTY
    let input = Recorder<String>()
    let lines = stdin.map { $0.split(separator: "\n", omittingEmptySubsequences: false) } ?? []
    let clock = clock
    var context = CommandContext(
      environment: environment,
      now: { clock.now },
      sleep: sleep ?? { try await clock.sleep($0) },
      makeTransport: makeTransport,
      writeOut: { out.append($0) },
      writeErr: {
        err.append($0)
        onStderr?($0)
      },
      terminal: { noColor, ascii in
        TerminalCapabilities.decide(
          isTTY: tty, windowWidth: windowWidth, environment: environment, noColorFlag: noColor,
          asciiFlag: ascii)
      },
      readSecret: { _ in
        // Like reading a pipe: one line per call, trimmed; nil at the end.
        let index = input.count
        guard index < lines.count, !(index == lines.count - 1 && lines[index].isEmpty) else {
          return nil
        }
        input.append(String(lines[index]))
        return lines[index].trimmingCharacters(in: .whitespacesAndNewlines)
      }, errorIsTerminal: errorIsTTY)
    context.monotonicNow = { clock.instant }
    return context
  }
}
