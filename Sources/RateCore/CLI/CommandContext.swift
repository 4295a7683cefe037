import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything a command needs from the outside world, injected so the whole
/// CLI runs in-process in tests: environment variables, the clock, sleeping,
/// the network, the terminal and the two output streams.
public struct CommandContext: Sendable {
  /// The process environment.
  public var environment: [String: String]
  /// The current time.
  public var now: @Sendable () -> Date
  /// Waits; real in production, instant in tests.
  public var sleep: @Sendable (Duration) async throws -> Void
  /// Makes the network transport for a per-request timeout in seconds.
  public var makeTransport: @Sendable (_ timeoutSeconds: Int) -> HTTPTransport
  /// Writes to standard output (unbuffered).
  public var writeOut: @Sendable (String) -> Void
  /// Writes to standard error (unbuffered).
  public var writeErr: @Sendable (String) -> Void
  /// Describes standard output's terminal given the `--no-color` and `--ascii` flags.
  public var terminal: @Sendable (_ noColor: Bool, _ ascii: Bool) -> TerminalCapabilities

  /// Creates a context.
  public init(
    environment: [String: String], now: @escaping @Sendable () -> Date,
    sleep: @escaping @Sendable (Duration) async throws -> Void,
    makeTransport: @escaping @Sendable (_ timeoutSeconds: Int) -> HTTPTransport,
    writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
    terminal: @escaping @Sendable (_ noColor: Bool, _ ascii: Bool) -> TerminalCapabilities
  ) {
    self.environment = environment
    self.now = now
    self.sleep = sleep
    self.makeTransport = makeTransport
    self.writeOut = writeOut
    self.writeErr = writeErr
    self.terminal = terminal
  }

  /// The real process: its environment, clock, URLSession and file descriptors.
  public static func live() -> CommandContext {
    let environment = ProcessInfo.processInfo.environment
    return CommandContext(
      environment: environment,
      now: { Date() },
      sleep: { try await Task.sleep(for: $0) },
      makeTransport: { HTTPTransport.urlSession(timeoutSeconds: $0) },
      writeOut: { writeAll(STDOUT_FILENO, $0) },
      writeErr: { writeAll(STDERR_FILENO, $0) },
      terminal: { noColor, ascii in
        TerminalCapabilities.detect(
          fileDescriptor: STDOUT_FILENO, environment: environment, noColorFlag: noColor,
          asciiFlag: ascii)
      })
  }

  /// Writes a whole string to a file descriptor, retrying short writes.
  static func writeAll(_ fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return systemWrite(fd, base, buffer.count)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      bytes = bytes.dropFirst(written)
    }
  }
}
