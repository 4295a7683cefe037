import RateCore
import Synchronization

/// Carries out the home screen's effects through a ``HomeDriver``, each on a task of its
/// own, and posts what the driver sends to the loop's ``HomeInbox``.
///
/// A load of the list, of a detail or a search replaces the one of its kind still running:
/// that task is cancelled, and whatever it sends after that is dropped, so a slow answer
/// for the previous currency or query never lands on top of the new one. Changes to the
/// user's lists (add, remove, undo, star, pair) run one after another, in the order asked,
/// so an undo never overtakes its removal.
final class HomeWork: Sendable {
  /// The kinds of effect of which only the latest runs.
  enum Kind: Hashable, Sendable {
    case board, detail, search
  }

  private struct Tasks {
    var latest: [Kind: Task<Void, Never>] = [:]
    /// The last change to the lists, which the next one waits for.
    var changes: Task<Void, Never>?
  }

  private let driver: any HomeDriver
  private let inbox: HomeInbox
  private let queued: @Sendable (HomeEffect) -> Void
  private let tasks = Mutex(Tasks())

  /// - Parameter queued: told of a change to the lists as it starts waiting for the one
  ///   before it (a test awaits that instead of guessing when the wait began).
  init(
    driver: any HomeDriver, inbox: HomeInbox,
    queued: @escaping @Sendable (HomeEffect) -> Void = { _ in }
  ) {
    self.driver = driver
    self.inbox = inbox
    self.queued = queued
  }

  /// The kind of `effect` that replaces an earlier one; `nil` for changes to the lists.
  static func kind(of effect: HomeEffect) -> Kind? {
    switch effect {
    case .loadBoard: .board
    case .loadDetail: .detail
    case .search: .search
    default: nil
    }
  }

  /// Starts carrying out `effect` (never ``HomeEffect/exit(_:)``).
  func start(_ effect: HomeEffect) {
    let driver = driver
    // A cancelled task's events are stale: they are dropped here.
    let send: @Sendable (HomeEvent) -> Void = { [inbox] event in
      if !Task.isCancelled { inbox.post(.driver(event)) }
    }
    tasks.withLock { tasks in
      if let kind = Self.kind(of: effect) {
        tasks.latest[kind]?.cancel()
        tasks.latest[kind] = Task { await driver.perform(effect, send: send) }
      } else {
        let previous = tasks.changes
        tasks.changes = Task { [queued] in
          if let previous {
            queued(effect)
            await previous.value
          }
          await driver.perform(effect, send: send)
        }
      }
    }
  }

  /// Cancels the loads and searches, then waits for the changes to the lists still running,
  /// for at most `limit`.
  func finish(within limit: Duration) async {
    let changes = tasks.withLock { tasks -> Task<Void, Never>? in
      for task in tasks.latest.values { task.cancel() }
      tasks.latest.removeAll()
      return tasks.changes
    }
    guard let changes else { return }
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await changes.value }
      group.addTask { try? await Task.sleep(for: limit) }
      await group.next()
      group.cancelAll()
    }
  }
}
