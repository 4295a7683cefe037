import Foundation
import Synchronization

/// The clock of an in-process run: `now` stands still until something sleeps,
/// and sleeping returns at once, moving `now` forward by the duration and
/// recording it. So a test can assert what was waited (a `Retry-After`, a
/// `watch` interval) without waiting, and output stamped with `now` is stable.
///
/// ```swift
/// let clock = TestClock()
/// let context = CommandContext(now: clock.now, sleep: clock.sleep, …)
/// #expect(clock.sleeps == [.seconds(1)])
/// ```
public final class TestClock: Sendable {
  /// The current time and every duration slept so far.
  private let state: Mutex<(now: Date, sleeps: [Duration])>
  private let origin = ContinuousClock.now

  /// A clock reading `now` (by default ``fixedNow``, Monday 2024-06-10 06:13:20 UTC).
  public init(now: Date = fixedNow) {
    state = Mutex((now, []))
  }

  /// The current time.
  public var now: Date { state.withLock { $0.now } }

  /// Every duration slept so far, in order.
  public var sleeps: [Duration] { state.withLock { $0.sleeps } }

  /// The monotonic time: it too moves only when something sleeps, so a command's network
  /// deadline passes only with the time its retries waited, never with a busy machine.
  public var instant: ContinuousClock.Instant { origin + totalSlept }

  /// The sum of ``sleeps``.
  public var totalSlept: Duration { sleeps.reduce(.zero, +) }

  /// Moves `now` forward by `seconds` without recording a sleep.
  public func advance(by seconds: TimeInterval) {
    state.withLock { $0.now = $0.now.addingTimeInterval(seconds) }
  }

  /// Sleeps instantly: throws `CancellationError` when the task is cancelled,
  /// like `Task.sleep`, otherwise records `duration` and moves `now` forward.
  public func sleep(_ duration: Duration) async throws {
    try Task.checkCancellation()
    state.withLock {
      $0.sleeps.append(duration)
      $0.now = $0.now.addingTimeInterval(duration.timeInterval)
    }
  }
}

extension Duration {
  /// The duration in seconds, with its fraction.
  public var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
