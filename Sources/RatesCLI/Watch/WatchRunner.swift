import RateCore
import Synchronization

/// Runs a ``WatchEngine`` in a ``TerminalSession`` and turns how it ended
/// into an exit code: 0 after `--count` updates or `q`/`Esc`, 3 for an alert
/// with `--exit-on-alert`, 130 for Ctrl-C or `SIGINT` (and `SIGQUIT`), 143
/// for `SIGTERM`, 129 for `SIGHUP`; an error of the engine is thrown. The
/// terminal is restored before it returns or throws.
struct WatchRunner: Sendable {
  /// Why the watch stopped.
  enum Ending: Equatable, Sendable {
    /// The engine returned or threw.
    case finished
    /// `q`, `Q` or `Esc`.
    case quit
    /// Ctrl-C typed in raw mode.
    case interrupted
    /// An ending signal.
    case signal(Int32)
  }

  var engine: WatchEngine
  /// The session: the board takes the full screen; keys are read when possible.
  var terminal: TerminalSession.Configuration
  /// Writes to the terminal (standard output).
  var write: @Sendable (String) -> Void
  /// Makes the output, given the session's screen.
  var makeOutput: @Sendable (TerminalScreen) -> WatchOutput
  /// How long a stopped engine may take to finish: a request that ignores
  /// cancellation must not keep the process alive.
  var grace: Duration = .seconds(2)
  /// Whether standard output can no longer be written (its reader went
  /// away): the watch then ends quietly, nobody being left to watch.
  var outputClosed: @Sendable () -> Bool = { false }

  /// Runs the watch until it finishes, a key ends it or a signal does.
  func run() async throws -> ExitCode {
    try await TerminalSession.run(terminal, write: write) { session in
      let output = makeOutput(session.screen)
      let open = Atomic(true)
      let engine = engine
      let outputClosed = outputClosed
      let task = Task {
        try await engine.run(emit: {
          if open.load(ordering: .acquiring) { output.emit($0, $1) }
          if outputClosed() { withUnsafeCurrentTask { $0?.cancel() } }
        })
      }
      let ending = await Self.firstEnding(of: task, events: session.events, board: output.board)
      if ending != .finished {
        open.store(false, ordering: .releasing)  // nothing is shown after the end
        task.cancel()  // the transport resumes a cancelled request at once
        await Self.settle(task, within: grace)
      }
      do {
        return try await Self.exitCode(for: ending, of: task)
      } catch  where outputClosed() {
        return .success
      }
    }
  }

  /// What an event means to the watch: `q`, `Q` and `Esc` quit, Ctrl-C
  /// interrupts, an ending signal ends it; `nil` for anything else.
  static func ending(for event: TerminalEvent) -> Ending? {
    switch event {
    case .keys(let keys):
      for key in keys {
        switch key {
        case .character("q"), .character("Q"), .escape: return .quit
        case .interrupt: return .interrupted
        default: continue
        }
      }
      return nil
    case .signal(let number): return .signal(number)
    case .redraw, .inputClosed: return nil
    }
  }

  /// The exit code for `ending`; the engine's own outcome when it finished.
  static func exitCode(
    for ending: Ending, of task: Task<WatchEngine.Outcome, any Error>
  ) async throws -> ExitCode {
    switch ending {
    case .quit: return .success
    case .interrupted: return .interrupted
    case .signal(let number): return ExitCode(endingSignal: number)
    case .finished:
      switch try await task.value {
      case .finished: return .success
      case .alert: return .alert
      }
    }
  }

  /// Waits for the engine to finish or for an event that ends the watch,
  /// redrawing the board when asked meanwhile. The end of input (stdin
  /// closed) does not end it.
  static func firstEnding(
    of task: Task<WatchEngine.Outcome, any Error>, events: AsyncStream<TerminalEvent>,
    board: WatchBoard?
  ) async -> Ending {
    let (endings, end) = AsyncStream.makeStream(of: Ending.self)
    let listener = Task {
      for await event in events {
        if event == .redraw { board?.redraw() }
        if let ending = ending(for: event) { end.yield(ending) }
      }
    }
    let waiter = Task {
      _ = await task.result
      end.yield(.finished)
    }
    defer {
      listener.cancel()
      waiter.cancel()
    }
    for await ending in endings { return ending }
    return .finished
  }

  /// Waits until `task` has finished, or `grace` has passed.
  static func settle(_ task: Task<WatchEngine.Outcome, any Error>, within grace: Duration) async {
    let (done, finish) = AsyncStream.makeStream(of: Void.self)
    let waiter = Task {
      _ = await task.result
      finish.yield()
    }
    let timer = Task {
      try? await Task.sleep(for: grace)
      finish.yield()
    }
    for await _ in done { break }
    waiter.cancel()
    timer.cancel()
  }
}
