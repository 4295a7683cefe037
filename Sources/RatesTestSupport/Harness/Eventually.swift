import Foundation
import Synchronization

/// Says when something tests wait on changes: a ``Recorder``, a `LoopbackServer`'s requests
/// and connections each have one.
///
/// ``eventually(timeout:_:)`` notes which signals its condition reads (``noteRead()``, called
/// by the readers) and sleeps until one of them posts, so a condition is checked again only
/// when what it reads has changed: no polling, and no waking for other tests' changes.
public final class ChangeSignal: @unchecked Sendable {
  private let lock = NSLock()
  private var generation = 0
  private var waiters: [@Sendable () -> Void] = []

  /// A signal nothing has posted yet.
  public init() {}

  /// Says that something changed: wakes every waiter.
  public func post() {
    let woken = lock.withLock {
      generation += 1
      defer { waiters.removeAll() }
      return waiters
    }
    for wake in woken { wake() }
  }

  /// Notes, for the ``eventually(timeout:_:)`` condition being checked, that it reads what
  /// this signal guards. Call it before reading.
  public func noteRead() {
    ReadLog.current?.add(self, generation: current)
  }

  /// How many changes were posted so far.
  var current: Int { lock.withLock { generation } }

  /// Calls `wake` once a change is posted after `seen` (at once if one already was).
  func onChange(after seen: Int, _ wake: @escaping @Sendable () -> Void) {
    let now = lock.withLock {
      guard generation == seen else { return true }
      waiters.append(wake)
      return false
    }
    if now { wake() }
  }
}

/// The signals one check of a condition read, each at the generation it had then.
final class ReadLog: @unchecked Sendable {
  @TaskLocal static var current: ReadLog?

  private let lock = NSLock()
  private var reads: [ObjectIdentifier: (signal: ChangeSignal, generation: Int)] = [:]

  func add(_ signal: ChangeSignal, generation: Int) {
    lock.withLock {
      if reads[ObjectIdentifier(signal)] == nil { reads[ObjectIdentifier(signal)] = (signal, generation) }
    }
  }

  var all: [(signal: ChangeSignal, generation: Int)] { lock.withLock { Array(reads.values) } }
}

/// Resumes a continuation once, whoever calls first.
private final class Once: Sendable {
  private let continuation: Mutex<CheckedContinuation<Void, Never>?>

  init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = Mutex(continuation) }

  func resume() { continuation.withLock { $0.take() }?.resume() }
}

/// Waits until `condition` holds, checking it again each time something it read changes;
/// false after `timeout` seconds, a hang guard only (a passing test never waits for it).
///
/// The condition must read only what posts a ``ChangeSignal`` when it changes (``Recorder``s
/// and `LoopbackServer` counts do); a condition that reads nothing of the kind is checked
/// once, then at the guard.
public func eventually(timeout: Double = 60, _ condition: () -> Bool) async -> Bool {
  let expired = Recorder<Bool>()
  let guardTask = Task {
    try? await Task.sleep(for: .seconds(timeout))
    if !Task.isCancelled { expired.append(true) }
  }
  defer { guardTask.cancel() }
  while true {
    let log = ReadLog()
    let holds = ReadLog.$current.withValue(log) { condition() || expired.count > 0 }
    if holds { return expired.count == 0 || condition() }
    let reads = log.all
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let once = Once(continuation)
      for read in reads { read.signal.onChange(after: read.generation) { once.resume() } }
    }
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
public func pollingKernelState(timeout: Double = 60, _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + .seconds(timeout)
  while ContinuousClock.now < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return condition()
}

/// ``pollingKernelState(timeout:_:)`` for a caller on a thread of its own (never one of the
/// concurrency pool's) that must catch a window of microseconds, such as a writer holding a
/// file: checked every 200 µs, so it neither misses the window nor spins a core.
public func pollingKernelStateOnThisThread(timeout: Double = 60, _ condition: () -> Bool) -> Bool {
  let deadline = ContinuousClock.now + .seconds(timeout)
  while ContinuousClock.now < deadline {
    if condition() { return true }
    usleep(200)
  }
  return condition()
}
