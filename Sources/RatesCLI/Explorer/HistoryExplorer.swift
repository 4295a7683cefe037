import Foundation
import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rates history --interactive` on the real terminal: raw mode, input
/// thread, signals and the ``ExplorerSession`` loop.
///
/// Raw mode turns `ISIG` off, so Ctrl-C is read as the byte `0x03` and
/// ends the session like a key (exit 130), with the terminal restored on
/// the normal path. `SIGINT` (from `kill`), `SIGTERM` and `SIGHUP` are
/// caught with `DispatchSource`: the loop ends, the screen and `termios`
/// are restored, and the signal is raised again with its default action so
/// the parent sees the process die of it. `SIGWINCH` redraws.
enum HistoryExplorer {
  /// The signals that end the session.
  static let terminatingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// Whether both standard input and standard output are terminals.
  /// `outputIsTTY` is the already-detected state of standard output.
  static func isInteractiveTerminal(outputIsTTY: Bool) -> Bool {
    outputIsTTY && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
  }

  /// Runs the explorer on the process's terminal until `q`, `Esc`, Ctrl-C,
  /// the end of input or a signal, and returns the exit code.
  static func run(
    series: RateSeries, style: Style, ascii: Bool, fallbackWidth: Int,
    write: @escaping @Sendable (String) -> Void
  ) async throws -> ExitCode {
    let outcome = try await session(
      series: series, style: style, ascii: ascii, fallbackWidth: fallbackWidth, write: write)
    // Everything is restored here: the session's defers have run.
    switch outcome {
    case .quit, .inputClosed: return .success
    case .interrupted: return .interrupted
    case .signal(let number):
      SignalWatcher.resend(number)
      return .interrupted  // only if the signal did not end the process
    }
  }

  private static func session(
    series: RateSeries, style: Style, ascii: Bool, fallbackWidth: Int,
    write: @escaping @Sendable (String) -> Void
  ) async throws -> ExplorerOutcome {
    let (events, continuation) = AsyncStream.makeStream(of: ExplorerEvent.self)
    let signals = SignalWatcher(signals: terminatingSignals + [SIGWINCH]) { number in
      continuation.yield(number == SIGWINCH ? .resize : .signal(number))
    }
    defer { signals.cancel() }

    let terminal = RawTerminal(fileDescriptor: STDIN_FILENO)
    do {
      try terminal.enable()
    } catch {
      throw UsageError.invalid(
        "--interactive needs a terminal: run it in one, or drop --interactive")
    }
    defer { terminal.restore() }

    let reader = TerminalInputReader(fileDescriptor: STDIN_FILENO)
    reader.start(
      onBytes: { continuation.yield(.input($0)) }, onPause: { continuation.yield(.pause) },
      onEnd: { continuation.yield(.closed) })
    defer {
      reader.stop()
      continuation.finish()
    }

    var session = ExplorerSession(
      state: ExplorerState(series: series), style: style, ascii: ascii,
      size: {
        RawTerminal.windowSize(of: STDOUT_FILENO) ?? (fallbackWidth, 24)
      },
      write: write)
    return await session.run(events: events)
  }
}
