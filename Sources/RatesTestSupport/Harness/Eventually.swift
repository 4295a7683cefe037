import Foundation

/// A process-wide "something a test watches has changed" signal.
///
/// Everything tests wait on posts to it when it changes (``Recorder`` on every append, a
/// `PseudoTerminalRun` on output and exit, ``ChangeSignal/post()`` by hand elsewhere), so
/// ``eventually(timeout:_:)`` re-checks its condition on each change instead of polling on
/// the wall clock.
public final class ChangeSignal: @unchecked Sendable {
  /// The one signal of this process.
  public static let shared = ChangeSignal()

  private let lock = NSLock()
  private var generation = 0
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Says that something changed: wakes every waiter.
  public func post() {
    let woken = lock.withLock {
      generation += 1
      defer { waiters.removeAll() }
      return waiters
    }
    for waiter in woken { waiter.resume() }
  }

  /// How many changes were posted so far.
  var current: Int { lock.withLock { generation } }

  /// Returns once a change is posted after `seen` (at once if one already was).
  func wait(after seen: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = lock.withLock {
        guard generation == seen else { return true }
        waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }
}

/// Waits until `condition` holds, re-checking it on each ``ChangeSignal`` post; false after
/// `timeout` seconds, a hang guard only (a passing test never waits for it).
///
/// The condition must read only state that posts when it changes (``Recorder``s do).
public func eventually(timeout: Double = 15, _ condition: () -> Bool) async -> Bool {
  let signal = ChangeSignal.shared
  let expired = Recorder<Bool>()
  let guardTask = Task {
    try? await Task.sleep(for: .seconds(timeout))
    if !Task.isCancelled { expired.append(true) }
  }
  defer { guardTask.cancel() }
  while true {
    let seen = signal.current
    if condition() { return true }
    if expired.count > 0 { return false }
    await signal.wait(after: seen)
  }
}

/// Returns once the current task is cancelled (a stand-in for work that never ends on its
/// own, such as a network answer that never comes).
public func untilCancelled() async {
  while !Task.isCancelled {
    try? await Task.sleep(for: .seconds(3600))
  }
}

/// Checks `condition` every 5 ms until it holds; false after `timeout` seconds (a hang guard).
///
/// Only for state that sends no event: another process's kernel state (its `/proc` status,
/// its terminal's modes). Everything else waits with ``eventually(timeout:_:)``.
public func pollingKernelState(timeout: Double = 15, _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + .seconds(timeout)
  while ContinuousClock.now < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return condition()
}

/// A recorder that gets `true` once `process` has exited, for ``eventually(timeout:_:)``.
///
/// The wait runs on a thread of its own, never on one of the concurrency pool's (as few as
/// the cores), and not through `terminationHandler`, which crashed libdispatch here.
public func watchExit(of process: Process) -> Recorder<Bool> {
  let exited = Recorder<Bool>()
  Thread {
    process.waitUntilExit()
    exited.append(true)
  }.start()
  return exited
}
