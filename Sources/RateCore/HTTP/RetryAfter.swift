import Foundation

/// Reads the `Retry-After` header, capped so that no value, however absurd,
/// can make `rates` wait long.
///
/// The cap, ``maximumSeconds`` (10 minutes), is what a rate limit counted per
/// minute can sensibly ask. A larger value (`99999999999`, a date in 2099) is
/// reported as the cap: "retry in 600 s" is still true advice, and anything
/// that waits on it (the retry wrapper, `rates watch`) waits at most that long.
/// Inside one command, ``RetryPolicy/maxRetryAfter`` decides what is waited at
/// all (10 s by default, never more than a minute).
enum RetryAfter {
  /// The largest delay ever reported: 600 s.
  static let maximumSeconds = 600

  /// The delay in whole seconds (0 to ``maximumSeconds``) from either the
  /// delta-seconds form or an HTTP date; `nil` when absent or unreadable.
  static func seconds(from response: HTTPResponse, now: Date = Date()) -> Int? {
    guard let raw = response.headers["Retry-After"] else { return nil }
    return seconds(fromValue: raw, now: now)
  }

  /// Parses one `Retry-After` value.
  static func seconds(fromValue raw: String, now: Date = Date()) -> Int? {
    let value = raw.trimmingCharacters(in: .whitespaces)
    guard !value.isEmpty, value.count <= 64 else { return nil }
    let digits = value.hasPrefix("-") || value.hasPrefix("+") ? value.dropFirst() : value[...]
    if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
      if value.hasPrefix("-") { return 0 }
      // Too many digits for an Int is simply "very long".
      return min(Int(digits) ?? maximumSeconds, maximumSeconds)
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: value) else { return nil }
    let delta = date.timeIntervalSince(now).rounded(.up)
    guard delta.isFinite else { return nil }
    return Int(min(max(delta, 0), Double(maximumSeconds)))
  }
}
