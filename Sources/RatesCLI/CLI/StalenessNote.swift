import RateCore

extension Staleness {
  /// The stderr note, e.g. `warning: …; showing cached data from 2 h ago`.
  /// From the ECB snapshot: `warning: …; using the ECB reference rates built
  /// into rates, which end on 2026-10-30 (stale)`.
  ///
  /// - Parameter keySetup: the user's CoinGecko key setup, so that key
  ///   advice in the reason fits it; `nil` when unknown.
  func note(now: Date, keySetup: KeySetup? = nil) -> String {
    // Data is shown: the offline next steps of the reason have nothing left to offer.
    let reasonText = reason.map {
      HTTPError.droppingOfflineHint(TerminalText.sanitize($0.message(keySetup: keySetup)))
    }
    if let snapshotThrough {
      let why = reasonText.map { "warning: \($0); " } ?? "note: offline; "
      return why + "using the ECB reference rates built into rates"
        + " (source: European Central Bank), which end on \(snapshotThrough) (stale)"
    }
    let age = AgeText.describe(now.timeIntervalSince(fetchedAt))
    if let reasonText {
      // The reason may quote a provider's response: sanitized above, never raw to a terminal.
      return "warning: \(reasonText); showing cached data from \(age) ago (stale)"
    }
    return "note: offline; showing cached data from \(age) ago"
  }
}

extension Staleness {
  /// The short mark beside stale output: `stale: cached 2 h ago`, or for the
  /// ECB snapshot `stale: built-in ECB rates to 2026-10-30`.
  func mark(now: Date) -> String {
    if let snapshotThrough { return "stale: built-in ECB rates to \(snapshotThrough)" }
    return "stale: cached \(AgeText.describe(now.timeIntervalSince(fetchedAt))) ago"
  }
}

/// Human durations for notes: `45 s`, `12 min`, `3 h`, `2 days`.
enum AgeText {
  /// A short rendering of `seconds`.
  static func describe(_ seconds: TimeInterval) -> String {
    // Clamped first: a clock or file far off must not trap the conversion.
    let value = seconds.isFinite ? Int(min(max(seconds, 0), 1e12)) : 0
    switch value {
    case ..<90: return "\(value) s"
    case ..<(90 * 60): return "\(value / 60) min"
    case ..<(36 * 3600): return "\(value / 3600) h"
    default: return "\(value / 86_400) days"
    }
  }
}
