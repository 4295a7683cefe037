import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a screen's loop reacts to while a ``TerminalSession`` runs.
enum TerminalEvent: Equatable, Sendable {
  /// The keys of one read, in order (Ctrl-Z is handled by the session).
  case keys([TerminalKey])
  /// Draw again: the window changed size, or the session is back from a suspension.
  case redraw
  /// An ending signal arrived (`SIGINT`, `SIGTERM`, `SIGHUP` or `SIGQUIT`).
  case signal(Int32)
  /// The keyboard input ended (end of file or a read error).
  case inputClosed
}

/// The one terminal layer of `watch` and `history --interactive`: raw mode,
/// the alternate screen, keys and signals as one stream of events,
/// suspension and resumption, and the terminal restored on every way out.
///
/// Use ``run(_:write:body:)``: it restores the terminal when `body` returns
/// or throws. Inside, draw on ``screen`` and read ``events``. The session
/// handles job control itself: on Ctrl-Z (a key in raw mode) or `SIGTSTP`
/// it leaves the alternate screen, shows the cursor and restores the
/// terminal's settings, then stops the process with `SIGSTOP`; on `SIGCONT`
/// (`fg`) it enters raw mode and the alternate screen again and sends
/// ``TerminalEvent/redraw``.
final class TerminalSession: Sendable {
  /// Which parts of the terminal a session takes.
  struct Configuration: Sendable {
    /// Whether keys are read from standard input in raw mode.
    enum Keys: Sendable, Equatable {
      /// Standard input is left alone.
      case none
      /// Read when standard input is a terminal and the process is in its
      /// foreground; otherwise go on without keys.
      case ifTerminal
      /// Read, or throw ``RawMode/Failure`` when standard input is not a terminal.
      case required
    }

    /// Draw on the alternate screen, and redraw on `SIGWINCH`.
    var fullScreen: Bool
    var keys: Keys
    /// Have the terminal report mouse presses and drags while the screen is on
    /// (``TerminalScreen``); off again on leaving and suspending.
    var mouse = false
    /// The keyboard, `STDIN_FILENO` outside tests.
    var input: Int32 = STDIN_FILENO
    /// Stops the process: `SIGSTOP` to itself outside tests.
    var stopProcess: @Sendable () -> Void = { _ = kill(getpid(), SIGSTOP) }
  }

  /// The alternate screen (untouched unless the configuration asks for it).
  let screen: TerminalScreen
  /// Keys, redraws, ending signals and the end of input, in order; finished by ``end()``.
  let events: AsyncStream<TerminalEvent>
  /// Whether keys are read (and raw mode is on).
  var readsKeys: Bool { reader != nil }

  private let jobControl: JobControl
  private let reader: KeyReader?
  private let watcher: SignalWatcher

  /// Starts a session: signals first, so none is missed, then raw mode, the
  /// screen and the key reader. Call ``end()`` when done, or use ``run(_:write:body:)``.
  /// - Throws: ``RawMode/Failure`` when keys are required and cannot be read.
  init(_ configuration: Configuration, write: @escaping @Sendable (String) -> Void) throws {
    let (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
    // No raw mode without a reader: Ctrl-C would then do nothing at all.
    let reader =
      Self.canReadKeys(configuration) ? KeyReader(fileDescriptor: configuration.input) : nil
    let rawMode = reader.map { RawMode(fileDescriptor: $0.fileDescriptor) }
    if configuration.keys == .required && reader == nil { throw RawMode.Failure.notATerminal }
    let jobControl = JobControl(
      screen: TerminalScreen(mouse: configuration.mouse, write: write), rawMode: rawMode, events: continuation,
      stopProcess: configuration.stopProcess)
    let watcher = SignalWatcher(Self.signals(for: configuration, readsKeys: rawMode != nil)) {
      jobControl.handle(signal: $0)
    }
    do {
      try rawMode?.enable()
    } catch {
      // Unless keys are required, go on without them.
      guard configuration.keys != .required else {
        watcher.cancel()
        throw error
      }
    }
    self.events = events
    self.screen = jobControl.screen
    self.jobControl = jobControl
    self.watcher = watcher
    self.reader = rawMode?.isRaw == true ? reader : nil
    if configuration.fullScreen { screen.enter() }
    self.reader?.start(
      onKeys: { jobControl.handle(keys: $0) }, onEnd: { continuation.yield(.inputClosed) })
  }

  /// Runs `body` in a session and restores the terminal however it ends.
  static func run<Result>(
    _ configuration: Configuration, write: @escaping @Sendable (String) -> Void,
    body: (TerminalSession) async throws -> Result
  ) async throws -> Result {
    let session = try TerminalSession(configuration, write: write)
    defer { session.end() }
    return try await body(session)
  }

  /// Stops reading keys, leaves the alternate screen, restores the terminal's
  /// settings, stops watching signals (each gets its default action again)
  /// and finishes ``events``; later calls do nothing.
  func end() {
    reader?.stop()
    jobControl.end()
    watcher.cancel()
  }

  deinit { end() }

  /// Whether standard input is a terminal this process may read: it is one,
  /// and the process is in its foreground process group (a background job
  /// would be stopped by `SIGTTIN`/`SIGTTOU`).
  static func isForegroundTerminal(_ fd: Int32) -> Bool {
    isatty(fd) == 1 && tcgetpgrp(fd) == getpgrp()
  }

  private static func canReadKeys(_ configuration: Configuration) -> Bool {
    switch configuration.keys {
    case .none: false
    case .ifTerminal: isForegroundTerminal(configuration.input)
    case .required: true
    }
  }

  /// The ending signals always; `SIGWINCH` for a full screen; job control
  /// when the terminal is changed, so it can be given back before stopping.
  static func signals(for configuration: Configuration, readsKeys: Bool) -> [Int32] {
    var signals = SignalAction.endingSignals
    if configuration.fullScreen { signals.append(SIGWINCH) }
    if configuration.fullScreen || readsKeys { signals += SignalAction.jobControlSignals }
    return signals
  }
}

/// What a session does with signals and keys, on their threads: kept apart
/// from ``TerminalSession`` so the handlers hold only what they use.
final class JobControl: Sendable {
  let screen: TerminalScreen
  let rawMode: RawMode?
  let events: AsyncStream<TerminalEvent>.Continuation
  let stopProcess: @Sendable () -> Void
  private let ended = Atomic(false)

  init(
    screen: TerminalScreen, rawMode: RawMode?,
    events: AsyncStream<TerminalEvent>.Continuation, stopProcess: @escaping @Sendable () -> Void
  ) {
    self.screen = screen
    self.rawMode = rawMode
    self.events = events
    self.stopProcess = stopProcess
  }

  private var hasEnded: Bool { ended.load(ordering: .sequentiallyConsistent) }

  /// Acts on a signal from the ``SignalWatcher``.
  func handle(signal number: Int32) {
    guard !hasEnded, let action = SignalAction(signal: number) else { return }
    switch action {
    case .end: events.yield(.signal(number))
    case .resize: events.yield(.redraw)
    case .suspend: suspend()
    case .resume: resume()
    }
  }

  /// Passes keys on, except Ctrl-Z, which suspends the session where it was typed.
  func handle(keys: [TerminalKey]) {
    var pending: [TerminalKey] = []
    for key in keys {
      guard key == .suspend else {
        pending.append(key)
        continue
      }
      if !pending.isEmpty { events.yield(.keys(pending)) }
      pending.removeAll()
      suspend()
    }
    if !pending.isEmpty { events.yield(.keys(pending)) }
  }

  /// Gives the terminal back as it was (main screen, cursor shown, settings
  /// restored), then stops the process; it goes on here after `SIGCONT`.
  func suspend() {
    guard !hasEnded else { return }
    screen.suspend()
    rawMode?.suspend()
    stopProcess()
  }

  /// Takes the terminal again after `SIGCONT` and asks for a redraw.
  func resume() {
    guard !hasEnded else { return }
    rawMode?.resume()
    screen.resume()
    events.yield(.redraw)
  }

  /// Leaves the screen, restores the settings and finishes the events, once.
  func end() {
    guard !ended.exchange(true, ordering: .sequentiallyConsistent) else { return }
    screen.leave()
    rawMode?.restore()
    events.finish()
  }
}
