import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rates history --interactive` on the real terminal: a ``TerminalSession``
/// (raw mode, alternate screen, keys, signals) running the ``ExplorerSession`` loop.
///
/// Raw mode turns `ISIG` off, so Ctrl-C is read as a key and ends the
/// session (exit 130), and Ctrl-Z suspends it like `SIGTSTP`: the terminal
/// is given back, the process stops, and `fg` redraws. `SIGINT`, `SIGTERM`,
/// `SIGHUP` and `SIGQUIT` end it with 128 + the signal (`SIGQUIT`: 130), and
/// `SIGWINCH` redraws. The terminal is restored on every way out.
enum HistoryExplorer {
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
    let outcome: ExplorerOutcome
    do {
      outcome = try await TerminalSession.run(
        .init(fullScreen: true, keys: .required), write: write
      ) { session in
        var explorer = ExplorerSession(
          state: ExplorerState(series: series), style: style, ascii: ascii,
          size: { TerminalScreen.windowSize(of: STDOUT_FILENO) ?? (fallbackWidth, 24) },
          screen: session.screen)
        return await explorer.run(events: session.events)
      }
    } catch is RawMode.Failure {
      throw UsageError.invalid(
        "--interactive needs a terminal: run it in one, or drop --interactive")
    }
    switch outcome {
    case .quit, .inputClosed: return .success
    case .interrupted: return .interrupted
    case .signal(let number): return ExitCode(endingSignal: number)
    }
  }
}
