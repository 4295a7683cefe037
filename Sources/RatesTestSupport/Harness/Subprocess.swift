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
    /// `/dev/null`.
    case null
    /// This text, then the end of input.
    case text(String)
    /// A pipe written with ``send(_:)`` and ended with ``closeInput()``.
    case pipe
  }

  /// Where one of the child's output streams goes.
  public enum Destination: Sendable {
    /// A pipe whose bytes are recorded as they come.
    case pipe
    /// `/dev/null`.
    case null
    /// This open file descriptor (which stays the caller's to close).
    case descriptor(Int32)
    /// Standard error only: the same place as standard output (`2>&1`).
    case output
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
  /// Its standard output (with standard error when that goes to ``Destination/output``), in
  /// the chunks it came in.
  public let output = Recorder<[UInt8]>()
  /// Its standard error, when that goes to a ``Destination/pipe`` of its own.
  public let errors = Recorder<[UInt8]>()
  /// Gets one element per output pipe that reached its end.
  public let endedPipes = Recorder<Bool>()
  /// Gets how the child ended, once it has ended and been reaped.
  public let termination = Recorder<Termination>()

  private let pipeCount: Int
  private let state = NSCondition()
  private var inputEnd: Int32?
  private var reaped = false

  /// Starts `executable` with `arguments`.
  /// - Parameters:
  ///   - environment: the complete environment; nil inherits the test process's.
  ///   - directory: the working directory; nil keeps the test process's.
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    directory: String? = nil, input: Input = .null, output: Destination = .pipe,
    errors: Destination = .pipe
  ) throws {
    var streams = try StreamEnds(input: input, output: output, errors: errors)
    defer { streams.closeChildEnds() }
    guard
      let pid = spawnProgram(
        executable, [executable] + arguments,
        environment: environment.map { $0.map { $0.key + "=" + $0.value } },
        directory: directory, streams: streams.child)
    else {
      let reason = String(cString: strerror(errno))
      streams.closeParentEnds()
      throw SpawnFailure(description: "could not start \(executable): \(reason)")
    }
    self.pid = pid
    self.pipeCount = streams.reading.count
    self.inputEnd = streams.writing
    for (end, recorder) in zip(streams.reading, [self.output, self.errors]) {
      detachThread { [self] in drain(end, into: recorder) }
    }
    detachThread { [self] in reap() }
    if case .text(let text) = input {
      detachThread { [self] in
        send(text)
        closeInput()
      }
    }
  }

  /// Writes `text` to the child's standard input (an ``Input/pipe``); dropped once the child
  /// closed it.
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
    if let end = state.withLock({
      defer { inputEnd = nil }
      return inputEnd
    }) {
      close(end)
    }
  }

  /// Sends `signal` to the child unless it has already been reaped (its pid could be
  /// another's by then); true when it was sent.
  @discardableResult
  public func signal(_ signal: Int32) -> Bool {
    state.withLock { reaped ? false : kill(pid, signal) == 0 }
  }

  /// Everything on the output pipe so far, as text.
  public var outputText: String { String(decoding: output.all.joined(), as: UTF8.self) }

  /// Blocks this thread (never one of the concurrency pool's) until the child has ended.
  public func waitOnThisThread() -> Termination {
    state.withLock {
      while termination.count == 0 { state.wait() }
    }
    return termination.all[0]
  }

  /// Waits until the child has ended and its output pipes reached their ends; nil after
  /// `timeout` seconds (a hang guard only: a passing test never waits for it).
  public func finished(timeout: Double = 120) async -> Termination? {
    guard
      await eventually(
        timeout: timeout,
        {
          termination.count > 0 && endedPipes.count == pipeCount
        })
    else { return nil }
    return termination.all.first
  }

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
    let signal = status & 0x7F
    termination.append(signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal))
    state.withLock { state.broadcast() }
  }
}

/// Why a ``ChildProcess`` could not start.
public struct SpawnFailure: Error, CustomStringConvertible {
  public let description: String
}

/// The descriptors a ``ChildProcess`` is started with: the child's standard streams, and the
/// ends this process keeps.
private struct StreamEnds {
  /// The child's standard streams, by number.
  var child: [Int32: Int32] = [:]
  /// Pipe ends this process reads: standard output's, then standard error's.
  var reading: [Int32] = []
  /// The end this process writes the child's standard input to.
  var writing: Int32?
  /// Descriptors opened for the child only, closed once it has started.
  private var childOnly: [Int32] = []

  init(input: ChildProcess.Input, output: ChildProcess.Destination, errors: ChildProcess.Destination) throws {
    if case .null = input {
      child[0] = try Self.devNull(&childOnly)
    } else {
      // A child that ends without reading all of its input must not end this process too.
      signal(SIGPIPE, SIG_IGN)
      let pipe = try Self.pipe()
      child[0] = pipe.read
      childOnly.append(pipe.read)
      writing = pipe.write
    }
    let output = try end(for: output)
    child[1] = output
    if case .output = errors { child[2] = output } else { child[2] = try end(for: errors) }
  }

  private mutating func end(for destination: ChildProcess.Destination) throws -> Int32 {
    switch destination {
    case .null, .output: return try Self.devNull(&childOnly)
    case .descriptor(let descriptor): return descriptor
    case .pipe:
      let pipe = try Self.pipe()
      reading.append(pipe.read)
      childOnly.append(pipe.write)
      return pipe.write
    }
  }

  func closeChildEnds() { for end in childOnly { close(end) } }

  func closeParentEnds() { for end in reading + [writing].compactMap({ $0 }) { close(end) } }

  private static func pipe() throws -> (read: Int32, write: Int32) {
    guard let pipe = closeOnExecPipe() else { throw SpawnFailure(description: "no pipe: \(errno)") }
    return pipe
  }

  private static func devNull(_ opened: inout [Int32]) throws -> Int32 {
    let descriptor = open("/dev/null", O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { throw SpawnFailure(description: "no /dev/null: \(errno)") }
    opened.append(descriptor)
    return descriptor
  }
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
    input: stdin.map { .text($0) } ?? .null, errors: mergingErrors ? .output : .pipe)
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
