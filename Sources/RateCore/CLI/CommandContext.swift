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
  /// Reads one line that must not be echoed (an API key): with a prompt and
  /// echo off on a terminal, plainly from a pipe; `nil` at end of input.
  public var readSecret: @Sendable (_ prompt: String) -> String?

  /// Creates a context.
  public init(
    environment: [String: String], now: @escaping @Sendable () -> Date,
    sleep: @escaping @Sendable (Duration) async throws -> Void,
    makeTransport: @escaping @Sendable (_ timeoutSeconds: Int) -> HTTPTransport,
    writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
    terminal: @escaping @Sendable (_ noColor: Bool, _ ascii: Bool) -> TerminalCapabilities,
    readSecret: @escaping @Sendable (_ prompt: String) -> String? = { _ in nil }
  ) {
    self.environment = environment
    self.now = now
    self.sleep = sleep
    self.makeTransport = makeTransport
    self.writeOut = writeOut
    self.writeErr = writeErr
    self.terminal = terminal
    self.readSecret = readSecret
  }

  /// The real process: its environment, clock, URLSession and file descriptors.
  public static func live() -> CommandContext {
    let environment = ProcessInfo.processInfo.environment
    return CommandContext(
      environment: environment,
      now: { Date() },
      sleep: { try await Task.sleep(for: $0) },
      makeTransport: { HTTPTransport.live(timeoutSeconds: $0) },
      writeOut: { writeAll(STDOUT_FILENO, $0) },
      writeErr: { writeAll(STDERR_FILENO, $0) },
      terminal: { noColor, ascii in
        TerminalCapabilities.detect(
          fileDescriptor: STDOUT_FILENO, environment: environment, noColorFlag: noColor,
          asciiFlag: ascii)
      },
      readSecret: { prompt in readLineWithoutEcho(prompt: prompt) })
  }

  /// Reads a line from stdin; on a terminal, prompts on stderr with echo off
  /// and restores the terminal's mode afterwards.
  static func readLineWithoutEcho(prompt: String) -> String? {
    guard isatty(STDIN_FILENO) == 1 else {
      return readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    writeAll(STDERR_FILENO, prompt)
    var saved = termios()
    let haveMode = tcgetattr(STDIN_FILENO, &saved) == 0
    if haveMode {
      var silent = saved
      silent.c_lflag &= ~tcflag_t(ECHO)
      _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
    }
    let line = readLine(strippingNewline: true)
    if haveMode { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
    writeAll(STDERR_FILENO, "\n")
    return line?.trimmingCharacters(in: .whitespacesAndNewlines)
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
