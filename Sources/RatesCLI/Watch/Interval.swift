import RateCore

/// The time between `rates watch` updates, and the floor the provider's rate
/// limit puts under it.
enum WatchInterval {
  /// The interval when `--every` is not given.
  static let defaultSeconds = 60

  /// The longest interval accepted: a day.
  static let maximumSeconds = 86_400

  /// Parses `30s`, `2m`, `1h` or a bare number of seconds (`90`).
  ///
  /// - Returns: whole seconds, at least 1; `nil` when `text` is not such a duration.
  static func parse(_ text: String) -> Int? {
    let trimmed = text.trimming(.whitespaces).lowercased()
    var digits = Substring(trimmed)
    var scale = 1
    if let last = trimmed.last, last.isLetter {
      switch last {
      case "s": scale = 1
      case "m": scale = 60
      case "h": scale = 3600
      default: return nil
      }
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let value = Int(digits), value >= 1
    else { return nil }
    let seconds = value * scale
    return seconds <= maximumSeconds ? seconds : nil
  }

  /// The shortest interval the provider's rate limit allows, and why.
  struct Floor: Sendable, Equatable {
    /// Whole seconds, at least 1.
    var seconds: Int
    /// What the floor comes from, for the note on stderr.
    var reason: String

    /// The most requests to one provider in any 60 seconds: `60 / seconds`.
    var requestsPerMinute: Int { max(1, 60 / max(seconds, 1)) }
  }

  /// The floor: `RATES_WATCH_FLOOR` when set (whole seconds, at least 1, for
  /// tests and mirrors), else CoinGecko's: 1 s with `COINGECKO_PRO_API_KEY`,
  /// 3 s with `COINGECKO_API_KEY`, 15 s without a key.
  ///
  /// - Throws: ``UsageError`` when `RATES_WATCH_FLOOR` is not a whole number of seconds ≥ 1.
  static func floor(environment: [String: String]) throws(UsageError) -> Floor {
    let floor = EnvironmentVariable.watchFloor
    if let text = floor.value(in: environment) {
      guard let seconds = Int(text), (1...maximumSeconds).contains(seconds) else {
        throw UsageError.invalid(
          "\(floor.name) '\(TerminalText.sanitize(text))' must be whole seconds, at least 1")
      }
      return Floor(seconds: seconds, reason: floor.name)
    }
    if EnvironmentVariable.coinGeckoProKey.value(in: environment) != nil {
      return Floor(seconds: 1, reason: "the CoinGecko pro plan's rate limit")
    }
    if EnvironmentVariable.coinGeckoKey.value(in: environment) != nil {
      return Floor(seconds: 3, reason: "the CoinGecko demo plan's rate limit")
    }
    return Floor(
      seconds: 15,
      reason: "CoinGecko's keyless rate limit (a free COINGECKO_API_KEY lowers it to 3 s)")
  }

  /// `30 s`, `2 min`, `1 h 30 min`.
  static func describe(_ seconds: Int) -> String {
    if seconds < 60 || seconds % 60 != 0 && seconds < 600 { return "\(seconds) s" }
    if seconds < 3600 { return "\(seconds / 60) min" }
    let minutes = seconds % 3600 / 60
    return "\(seconds / 3600) h" + (minutes > 0 ? " \(minutes) min" : "")
  }
}
