import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a terminal session does when a signal arrives.
enum SignalAction: Equatable, Sendable {
  /// End the session (`SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`).
  case end
  /// Draw again at the new size (`SIGWINCH`).
  case resize
  /// Give the terminal back and stop (`SIGTSTP`).
  case suspend
  /// Take the terminal again and draw (`SIGCONT`).
  case resume

  /// The action for `number`; `nil` for a signal the sessions do not watch.
  init?(signal number: Int32) {
    switch number {
    case SIGINT, SIGTERM, SIGHUP, SIGQUIT: self = .end
    case SIGWINCH: self = .resize
    case SIGTSTP: self = .suspend
    case SIGCONT: self = .resume
    default: return nil
    }
  }

  /// The signals that end a session.
  static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
  /// The signals of suspending and resuming.
  static let jobControlSignals: [Int32] = [SIGTSTP, SIGCONT]
}

/// Delivers signals as calls instead of letting their default actions run,
/// until cancelled.
///
/// Watchers subscribe to one process-wide ``SignalHub``, so several may
/// watch the same signal and one may follow another.
final class SignalWatcher: Sendable {
  private let subscription: Mutex<Int?>
  private let onCancel: Mutex<(@Sendable () -> Void)?>

  /// Watches `signals`, calling `handler` with the signal number for each
  /// arrival, in order, on one serial queue; `onCancel` runs once when cancelled.
  init(
    _ signals: [Int32], onCancel: (@Sendable () -> Void)? = nil,
    handler: @escaping @Sendable (Int32) -> Void
  ) {
    subscription = Mutex(SignalHub.shared.subscribe(signals, handler: handler))
    self.onCancel = Mutex(onCancel)
  }

  /// Stops watching; later calls do nothing. A signal no watcher watches
  /// gets its default action again.
  func cancel() {
    if let id = subscription.withLock({ $0.take() }) { SignalHub.shared.unsubscribe(id) }
    onCancel.withLock { $0.take() }?()
  }

  deinit { cancel() }
}

/// The process's one owner of the signals the terminal layer watches.
///
/// Each signal gets one `DispatchSource`, made on first use and kept for
/// the life of the process: on Linux, libdispatch installs its own
/// `sigaction` for a signal only the first time a source watches it, so
/// putting a disposition back after a source is cancelled would leave any
/// later source deaf. The signal is set to `SIG_IGN` first, so its default
/// action cannot run before libdispatch takes it over.
///
/// A signal that arrives while nobody subscribes to it gets the default
/// action it had: an ending signal ends the process (unless it was
/// ignored when the hub took it), `SIGTSTP` stops it, `SIGCONT` and
/// `SIGWINCH` do nothing.
final class SignalHub: Sendable {
  /// The hub of this process.
  static let shared = SignalHub()

  private struct Subscriber {
    var id: Int
    var signals: Set<Int32>
    var handler: @Sendable (Int32) -> Void
  }

  private struct State {
    var nextID = 0
    var subscribers: [Subscriber] = []
    var sources: [Int32: any DispatchSourceSignal] = [:]
    /// The signals that were ignored when the hub took them.
    var ignored: Set<Int32> = []
  }

  private let state = Mutex(State())
  private let queue = DispatchQueue(label: "rates.signals")

  private init() {}

  /// Calls `handler` for each of `signals` from now on; returns the id to unsubscribe with.
  ///
  /// Returns once libdispatch has taken each new signal over: until then a
  /// signal sent to a thread that does not block it would be ignored.
  func subscribe(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) -> Int {
    let (id, registrations) = state.withLock { state in
      let registrations = signals.filter { state.sources[$0] == nil }.map { number in
        let registered = DispatchSemaphore(value: 0)
        state.sources[number] = makeSource(number, registered: registered, state: &state)
        return registered
      }
      state.nextID += 1
      state.subscribers.append(
        Subscriber(id: state.nextID, signals: Set(signals), handler: handler))
      return (state.nextID, registrations)
    }
    // Outside the lock: the registration handlers run on the queue, as deliveries do.
    for registered in registrations { _ = registered.wait(timeout: .now() + .seconds(2)) }
    return id
  }

  private func makeSource(
    _ number: Int32, registered: DispatchSemaphore, state: inout State
  ) -> any DispatchSourceSignal {
    let previous = signal(number, SIG_IGN)
    if Self.isIgnore(previous) { state.ignored.insert(number) }
    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
    source.setRegistrationHandler { registered.signal() }
    source.setEventHandler { SignalHub.shared.deliver(number) }
    source.resume()
    return source
  }

  /// Stops calling the handler subscribed as `id`.
  func unsubscribe(_ id: Int) {
    state.withLock { $0.subscribers.removeAll { $0.id == id } }
  }

  private func deliver(_ number: Int32) {
    let (handlers, ignored) = state.withLock { state in
      (
        state.subscribers.filter { $0.signals.contains(number) }.map(\.handler),
        state.ignored.contains(number)
      )
    }
    guard handlers.isEmpty else {
      for handler in handlers { handler(number) }
      return
    }
    guard !ignored else { return }
    switch SignalAction(signal: number) {
    case .end?: Self.resend(number)
    case .suspend?: kill(getpid(), SIGSTOP)
    case .resize?, .resume?, nil: break
    }
  }

  private static func isIgnore(_ handler: (@convention(c) (Int32) -> Void)?) -> Bool {
    unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
  }

  /// Ends the process with `number` as its default action would: set back
  /// to `SIG_DFL` and raised again in this thread, unblocked first (dispatch
  /// threads block signals, which would leave it pending).
  private static func resend(_ number: Int32) {
    signal(number, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, number)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(number)
  }
}
