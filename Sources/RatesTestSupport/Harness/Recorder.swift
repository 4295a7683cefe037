import Foundation
import Synchronization

/// A thread-safe list, for recording what closures under test were called with.
///
/// Each change posts its ``ChangeSignal``, so ``eventually(timeout:_:)`` can wait on it.
public final class Recorder<Element: Sendable>: Sendable {
  private let storage = Mutex<[Element]>([])
  private let signal = ChangeSignal()

  /// An empty list.
  public init() {}

  /// Appends `element`.
  public func append(_ element: Element) {
    storage.withLock { $0.append(element) }
    signal.post()
  }

  /// Everything appended so far, in order.
  public var all: [Element] {
    signal.noteRead()
    return storage.withLock { $0 }
  }

  /// How many elements were appended so far.
  public var count: Int { all.count }

  /// Forgets everything appended so far.
  public func removeAll() {
    storage.withLock { $0.removeAll() }
    signal.post()
  }
}

/// 2024-06-10 06:13:20 UTC (a Monday), the fixed "now" of unit and in-process tests.
public let fixedNow = Date(timeIntervalSince1970: 1_718_000_000)
