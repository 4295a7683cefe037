import RateCore

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
  var environment: [String: String]
  /// The current time.
  public var now: @Sendable () -> Date
  /// Waits; real in production, instant in tests.
  var sleep: @Sendable (Duration) async throws -> Void
  /// Makes the network transport for a per-request timeout in seconds.
  var makeTransport: @Sendable (_ timeoutSeconds: Int) -> HTTPTransport
  /// Writes to standard output (unbuffered).
  var writeOut: @Sendable (String) -> Void
  /// Writes to standard error (unbuffered).
  var writeErr: @Sendable (String) -> Void
  /// Describes standard output's terminal given the `--no-color` and `--ascii` flags.
  var terminal: @Sendable (_ noColor: Bool, _ ascii: Bool) -> TerminalCapabilities
  /// Reads one line that must not be echoed (an API key): with a prompt and
  /// echo off on a terminal, plainly from a pipe; `nil` at end of input.
  var readSecret: @Sendable (_ prompt: String) -> String?
  /// Shows long text through a pager when stdout is a terminal it overflows
  /// (``Pager``); false when it did not, and the caller prints it.
  var page: @Sendable (_ text: String) -> Bool
  /// What became of the writes to the real stdout and stderr (the live
  /// context's); in-process contexts keep a healthy one.
  var output: OutputHealth
  /// Whether standard error is a terminal, where a slow fetch shows a progress line.
  var errorIsTerminal: Bool
  /// Whether standard input is a terminal (with standard output one too, bare `rates`
  /// opens the home screen); in-process contexts have none.
  var inputIsTerminal = false
  /// The monotonic clock a command's network deadline runs on
  /// (``Invocation/networkDeadline(started:settings:)``): real time, or in tests the clock that
  /// moves only when something sleeps.
  public var monotonicNow: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }

  /// Creates a context.
  public init(
    environment: [String: String], now: @escaping @Sendable () -> Date,
    sleep: @escaping @Sendable (Duration) async throws -> Void,
    makeTransport: @escaping @Sendable (_ timeoutSeconds: Int) -> HTTPTransport,
    writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
    terminal: @escaping @Sendable (_ noColor: Bool, _ ascii: Bool) -> TerminalCapabilities,
    readSecret: @escaping @Sendable (_ prompt: String) -> String? = { _ in nil },
    errorIsTerminal: Bool = false, page: @escaping @Sendable (_ text: String) -> Bool = { _ in false }
  ) {
    self.page = page
    self.output = OutputHealth()
    self.errorIsTerminal = errorIsTerminal
    self.environment = environment
    self.now = now
    self.sleep = sleep
    self.makeTransport = makeTransport
    self.writeOut = writeOut
    self.writeErr = writeErr
    self.terminal = terminal
    self.readSecret = readSecret
  }

  /// The real process: its environment, clock, live transport and file descriptors.
  public static func live() -> CommandContext {
    let environment = processEnvironment()
    let output = OutputHealth()
    var context = CommandContext(
      environment: environment,
      now: { Date() },
      sleep: { try await Task.sleep(for: $0) },
      makeTransport: { HTTPTransport.live(timeoutSeconds: $0) },
      writeOut: { output.writeOut($0) },
      writeErr: { output.writeErr($0) },
      terminal: { noColor, ascii in
        TerminalCapabilities.detect(
          fileDescriptor: STDOUT_FILENO, environment: environment, noColorFlag: noColor,
          asciiFlag: ascii)
      },
      readSecret: { prompt in readLineWithoutEcho(prompt: prompt) },
      errorIsTerminal: isatty(STDERR_FILENO) == 1,
      page: { Pager.live($0, environment: environment) })
    context.output = output
    context.inputIsTerminal = isatty(STDIN_FILENO) == 1
    return context
  }

  /// The process environment, read from `environ` on Linux: what
  /// `ProcessInfo.processInfo.environment` holds (the first of two entries of one name, as
  /// `getenv` does), without making `ProcessInfo`, whose first use took a tenth of a warm
  /// command's CPU time.
  static func processEnvironment() -> [String: String] {
    #if canImport(Glibc)
      return environment(fromEntries: environ)
    #else
      return ProcessInfo.processInfo.environment
    #endif
  }

  /// The variables of `entries`, a nil-terminated array of `NAME=value` C strings such as
  /// `environ`: split at the first `=` byte (as `getenv` does), each part made a `String` once
  /// (invalid UTF-8 repaired as `String(cString:)` repairs it); the first of two entries of
  /// one name wins and an entry without `=` is skipped. Byte-level, with the dictionary
  /// reserved at once: `firstIndex(of:)` on a `String` walks its characters and a growing
  /// dictionary rehashes, most of a warm command's environment work.
  static func environment(
    fromEntries entries: UnsafePointer<UnsafeMutablePointer<CChar>?>
  ) -> [String: String] {
    var count = 0
    while entries[count] != nil { count += 1 }
    var environment: [String: String] = [:]
    environment.reserveCapacity(count)
    for index in 0..<count {
      guard let entry = entries[index] else { continue }
      let length = strlen(entry)
      guard let found = memchr(entry, Int32(UInt8(ascii: "=")), length) else { continue }
      let start = UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self)
      let equals = UnsafeRawPointer(found) - UnsafeRawPointer(entry)
      let name = String(decoding: UnsafeBufferPointer(start: start, count: equals), as: UTF8.self)
      guard environment[name] == nil else { continue }
      environment[name] = String(
        decoding: UnsafeBufferPointer(start: start + equals + 1, count: length - equals - 1),
        as: UTF8.self)
    }
    return environment
  }

  /// Reads a line from stdin; on a terminal, prompts on stderr with echo off
  /// and restores the terminal's mode afterwards.
  static func readLineWithoutEcho(prompt: String) -> String? {
    guard isatty(STDIN_FILENO) == 1 else {
      return readLine(strippingNewline: true)?.trimming(.whitespacesAndNewlines)
    }
    OutputHealth().writeErr(prompt)
    var saved = termios()
    let haveMode = tcgetattr(STDIN_FILENO, &saved) == 0
    if haveMode {
      var silent = saved
      silent.c_lflag &= ~tcflag_t(ECHO)
      _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
    }
    let line = readLine(strippingNewline: true)
    if haveMode { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
    OutputHealth().writeErr("\n")
    return line?.trimming(.whitespacesAndNewlines)
  }
}
