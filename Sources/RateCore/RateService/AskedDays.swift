import Synchronization

/// The days one run (one ``RateDesk``, shared by every service it makes) has asked a
/// provider for, by day store key: a day a stored answer cannot explain (a none that cannot
/// be, ``RateService/isPlausibleNone(_:carriesForward:firstValue:)``) is asked again once a
/// run, not on every history call of it.
public final class AskedDays: Sendable {
  private let spans = Mutex<[String: [ClosedRange<Day>]]>([:])

  /// Nothing asked yet.
  public init() {}

  /// Notes that `span` of the pair under `key` was asked.
  func note(_ key: String, _ span: ClosedRange<Day>) {
    spans.withLock { $0[key, default: []].append(span) }
  }

  /// Whether `day` of the pair under `key` was asked in this run.
  func contains(_ key: String, _ day: Day) -> Bool {
    spans.withLock { $0[key]?.contains { $0.contains(day) } ?? false }
  }
}
