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
    let value = raw.trimming(.whitespaces)
    guard !value.isEmpty, value.count <= 64 else { return nil }
    let digits = value.hasPrefix("-") || value.hasPrefix("+") ? value.dropFirst() : value[...]
    if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
      if value.hasPrefix("-") { return 0 }
      // Too many digits for an Int is simply "very long".
      return min(Int(digits) ?? maximumSeconds, maximumSeconds)
    }
    guard let date = httpDate(value) else { return nil }
    let delta = date.timeIntervalSince(now).rounded(.up)
    guard delta.isFinite else { return nil }
    return Int(min(max(delta, 0), Double(maximumSeconds)))
  }

  /// An HTTP date, `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110's IMF-fixdate;
  /// the weekday is not checked); nil for anything else.
  static func httpDate(_ text: String) -> Date? {
    let parts = text.split(separator: " ")
    guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT" || parts[5] == "UTC",
      let month = months.firstIndex(of: String(parts[2])),
      parts[1].count <= 2, let dayOfMonth = Int(parts[1]),
      parts[3].count == 4, let year = Int(parts[3]),
      let day = Day(year: year, month: month + 1, day: dayOfMonth)
    else { return nil }
    let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
    guard clock.count == 3, parts[4].count == 8, let hour = clock[0], let minute = clock[1],
      let second = clock[2], hour < 24, minute < 60, second < 61
    else { return nil }
    let seconds = day.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]
}
