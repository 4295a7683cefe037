import Foundation
import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A program the tests run, started with posix_spawn (``spawnProgram(_:_:environment:directory:streams:)``,
/// the pager's own), its output read and its exit awaited by blocking calls on threads of
/// their own: never Foundation's `Process`, whose child-exit handling crashed libdispatch
/// here about one run in fifteen (signal 11 in `_dispatch_event_loop_drain`, as in
/// swift-subprocess#47), and no dispatch source, so nothing spends CPU while it runs.
public final class ChildProcess: @unchecked Sendable {
  /// What the child reads on its standard input.
  public enum Input: Sendable {
    /// Nothing: its end at once.
    case none
    /// This text, then the end of input.
    case text(String)
    /// What ``send(_:)`` writes, up to ``closeInput()``.
    case pipe
  }

  /// How the child ended.
  public enum Termination: Equatable, Sendable {
    case exited(Int32)
    case signalled(Int32)

    /// The exit status, or the signal's number (as Foundation's `terminationStatus`).
    public var status: Int32 {
      switch self {
      case .exited(let code), .signalled(let code): code
      }
    }
  }

  /// The child's process id.
  public let pid: pid_t
  /// Its standard output (with standard error when merged), in the chunks it came in.
  public let output = Recorder<[UInt8]>()
  /// Its standard error, unless merged into ``output``.
  public let errors = Recorder<[UInt8]>()
  /// Gets how the child ended, once it has ended and been reaped.
  public let termination = Recorder<Termination>()
  /// Gets an element for each output pipe that reached its end.
  private let endedPipes = Recorder<Bool>()
  private let pipeCount: Int
  private let state = NSCondition()
  private var inputEnd: Int32?
  private var reaped = false

  /// Starts `executable` with `arguments`.
  /// - Parameters:
  ///   - environment: the complete environment; nil inherits the test process's.
  ///   - directory: the working directory; nil keeps the test process's.
  ///   - mergingErrors: standard error into the same pipe as standard output (`2>&1`).
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    directory: String? = nil, input: Input = .none, mergingErrors: Bool = false
  ) throws {
    ignoreBrokenPipes()
    let pipes = (0..<(mergingErrors ? 2 : 3)).compactMap { _ in closeOnExecPipe() }
    guard pipes.count == (mergingErrors ? 2 : 3) else { throw SpawnFailure("no pipe: \(errno)") }
    let (stdin, reading) = (pipes[0], Array(pipes.dropFirst()))
    let spawned = spawnProgram(
      executable, [executable] + arguments,
      environment: environment.map { $0.map { $0.key + "=" + $0.value } }, directory: directory,
      streams: [0: stdin.read, 1: reading[0].write, 2: reading.last?.write ?? -1])
    for end in [stdin.read] + reading.map(\.write) { close(end) }
    guard let pid = spawned else {
      let reason = String(cString: strerror(errno))
      for end in [stdin.write] + reading.map(\.read) { close(end) }
      throw SpawnFailure("could not start \(executable): \(reason)")
    }
    (self.pid, pipeCount, inputEnd) = (pid, reading.count, stdin.write)
    var started = zip(reading, [output, errors]).map { pipe, recorder in
      detachThread { [self] in drain(pipe.read, into: recorder) }
    }
    started.append(detachThread { [self] in reap() })
    switch input {
    case .none: closeInput()
    case .pipe: break
    case .text(let text):
      started.append(
        detachThread { [self] in
          send(text)
          closeInput()
        })
    }
    precondition(!started.contains(false), "the system made no thread for the test")
  }

  /// Writes `text` to the child's standard input; dropped once the child closed it (the test
  /// process ignores SIGPIPE).
  public func send(_ text: String) {
    guard let end = state.withLock({ inputEnd }) else { return }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(end, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      bytes = bytes.dropFirst(written)
    }
  }

  /// Ends the child's standard input.
  public func closeInput() {
    let end = state.withLock {
      defer { inputEnd = nil }
      return inputEnd
    }
    if let end { close(end) }
  }

  /// Sends `signal` to the child unless it has been reaped (its pid could be another's by
  /// then).
  public func signal(_ signal: Int32) {
    state.withLock { _ = reaped ? 0 : kill(pid, signal) }
  }

  /// Everything on the output pipe so far, as text. (The chunks are copied into one array
  /// first: decoding their `joined()` view walked it byte by byte, and a test waiting for a
  /// screen decodes the whole output again on every chunk.)
  public var outputText: String {
    String(decoding: output.all.reduce(into: [UInt8]()) { $0 += $1 }, as: UTF8.self)
  }

  /// Blocks this thread (never one of the concurrency pool's) until the child has ended and
  /// its output pipes reached their ends.
  public func waitOnThisThread() -> Termination {
    state.withLock {
      while !isFinished { state.wait() }
    }
    return termination.all[0]
  }

  /// Waits until the child has ended and its output pipes reached their ends; nil after
  /// `timeout` seconds (a hang guard only: a passing test never waits for it).
  public func finished(timeout: Double = 120) async -> Termination? {
    await eventually(timeout: timeout) { isFinished } ? termination.all.first : nil
  }

  private var isFinished: Bool { termination.count > 0 && endedPipes.count == pipeCount }

  private func drain(_ end: Int32, into recorder: Recorder<[UInt8]>) {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(end, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      recorder.append(Array(buffer[..<count]))
    }
    close(end)
    endedPipes.append(true)
    state.withLock { state.broadcast() }
  }

  /// Waits for the child's exit without reaping it (`WNOWAIT`), so ``signal(_:)`` never
  /// reaches a reused pid, then reaps it.
  private func reap() {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
    var status: Int32 = 0
    state.withLock {
      while waitpid(pid, &status, 0) < 0, errno == EINTR {}
      reaped = true
    }
    termination.append(status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F))
    state.withLock { state.broadcast() }
  }
}

/// A write to a child that has closed its input fails (EPIPE) instead of ending the test
/// process.
private func ignoreBrokenPipes() {
  signal(SIGPIPE, SIG_IGN)
}

/// Why a ``ChildProcess`` could not start.
public struct SpawnFailure: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}

/// Runs `executable` with `arguments` and awaits its exit without holding a thread of the
/// concurrency pool (as few threads as the cores): a ``ChildProcess``, its output drained on
/// threads of their own. `rates` itself runs through ``BinaryRunner``, which calls this.
///
/// - Parameters:
///   - environment: the complete environment; nil inherits the test process's.
///   - directory: the working directory; nil keeps the test process's.
///   - stdin: written to standard input, then closed; `nil` for `/dev/null`.
///   - mergingErrors: standard error into the same pipe as standard output (`2>&1`).
///   - hangGuard: seconds after which a process still running is killed (SIGTERM); only a true
///     hang reaches it, and the result then says so on stderr.
public func runProcess(
  _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
  directory: URL? = nil, stdin: String? = nil, mergingErrors: Bool = false,
  hangGuard: Double = 60
) async throws -> CommandResult {
  let child = try ChildProcess(
    executable.path, arguments, environment: environment, directory: directory?.path,
    input: stdin.map { .text($0) } ?? .none, mergingErrors: mergingErrors)
  var termination = await child.finished(timeout: hangGuard)
  var stderr = String(decoding: child.errors.all.joined(), as: UTF8.self)
  if termination == nil {
    child.signal(SIGTERM)
    termination = await child.finished()
    stderr += "\n[runProcess: killed, still running after \(hangGuard) s]\n"
  }
  return CommandResult(
    status: termination?.status ?? -1, stdout: child.outputText, stderr: stderr)
}
