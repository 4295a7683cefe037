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

/// Turns signals into events instead of letting their default actions run,
/// and puts each signal's previous disposition back on ``cancel()``.
///
/// Each watched signal is set to `SIG_IGN` first, so its default action
/// (terminating or stopping the process) cannot run before the terminal is
/// restored; a `DispatchSource` still sees it, on one serial queue, so
/// events arrive in order.
final class SignalWatcher: Sendable {
  private struct Installed {
    var number: Int32
    var source: any DispatchSourceSignal
    var previous: (@convention(c) (Int32) -> Void)?
  }

  private let installed: Mutex<[Installed]>
  private let onCancel: Mutex<(@Sendable () -> Void)?>

  /// Watches `signals`, calling `handler` on a private serial queue with the
  /// signal number for each arrival, and `onCancel` once when cancelled.
  init(
    _ signals: [Int32], onCancel: (@Sendable () -> Void)? = nil,
    handler: @escaping @Sendable (Int32) -> Void
  ) {
    let queue = DispatchQueue(label: "rates.signals")
    var installed: [Installed] = []
    for number in signals {
      let previous = signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { handler(number) }
      source.resume()
      installed.append(Installed(number: number, source: source, previous: previous))
    }
    self.installed = Mutex(installed)
    self.onCancel = Mutex(onCancel)
  }

  /// Watches `signals` and delivers them, in order, as a stream that
  /// finishes when the watcher is cancelled.
  static func stream(_ signals: [Int32]) -> (signals: AsyncStream<Int32>, watcher: SignalWatcher) {
    let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
    let watcher = SignalWatcher(
      signals, onCancel: { continuation.finish() }, handler: { continuation.yield($0) })
    return (stream, watcher)
  }

  /// Stops watching and restores the previous dispositions; later calls do nothing.
  func cancel() {
    installed.withLock { installed in
      for entry in installed {
        entry.source.cancel()
        signal(entry.number, entry.previous)
      }
      installed.removeAll()
    }
    let action = onCancel.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }

  deinit { cancel() }
}
