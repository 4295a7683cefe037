/// Range checks for the numbers providers send, applied before a number
/// becomes a `Date` or a ``Day``: a hostile or broken server must
/// not be able to crash `rates` (`1e300` or `9223372036854775807` seconds
/// trap in a plain `Int(_:)` conversion) or put impossible times on screen.
///
/// Accepted instants run from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z:
/// no provider timestamp is older than the Unix epoch, and ISO 8601 writes
/// four-digit years. What a provider does with a rejected value is decided
/// per field and documented there: a series' point refuses the answer
/// (``AnswerGate``), an update time is dropped (the price kept).
enum ProviderNumbers {
  /// The earliest accepted instant, in Unix seconds: 1970-01-01T00:00:00Z.
  static let earliestSeconds: Double = 0
  /// The latest accepted instant, in Unix seconds: 9999-12-31T23:59:59Z.
  static let latestSeconds: Double = 253_402_300_799

  /// The instant `value` Unix seconds stand for, or `nil` when it is not a
  /// finite number within the accepted range.
  static func date(unixSeconds value: Double) -> Date? {
    guard value.isFinite, value >= earliestSeconds, value <= latestSeconds else { return nil }
    return Date(timeIntervalSince1970: value)
  }

  /// The instant `value` Unix milliseconds stand for, or `nil` (see
  /// ``date(unixSeconds:)``).
  static func date(unixMilliseconds value: Double) -> Date? {
    guard value.isFinite else { return nil }
    return date(unixSeconds: value / 1000)
  }
}
