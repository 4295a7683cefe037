import Foundation

/// How a command may use the cache and the network.
public enum CacheMode: Sendable, Equatable {
  /// Fresh cache answers; otherwise fetch, falling back to stale cache on failure.
  case normal
  /// Never touch the network: cached data of any age, or an error.
  case offline
  /// Fetch even when the cache is fresh; cached data is used only if the
  /// fetch fails (marked stale).
  case refresh
}

/// How long cached data counts as fresh.
public enum CacheFreshness {
  /// Current prices: CoinGecko updates `/simple/price` every 20–60 s.
  public static let currentPrice: TimeInterval = 60
  /// ECB reference rates change once a working day; an hour keeps the
  /// afternoon publication from being missed for long.
  public static let referenceRate: TimeInterval = 3600
  /// A day's close is final once the provider has published the completed
  /// day; CoinGecko does so by about 00:35 UTC, so keep an hour's margin.
  public static let closeSettling: TimeInterval = 3600
}

extension CacheFreshness {
  /// Whether data fetched at `fetchedAt` is still fresh at `now`. Data
  /// stamped in the future (a clock changed, a file edited) is not.
  public static func isFresh(_ fetchedAt: Date, at now: Date, for freshness: TimeInterval) -> Bool {
    let age = now.timeIntervalSince(fetchedAt)
    return age >= 0 && age < freshness
  }
}

/// Data from the cache that stands in for a fresh answer, and why.
public struct Staleness: Sendable, Equatable {
  /// When the data was fetched.
  public var fetchedAt: Date
  /// The failure that made `rates` fall back to the cache; `nil` in `--offline` mode.
  public var reason: String?
}

extension Staleness {
  /// The stderr note, e.g. `warning: …; showing cached data from 2 h ago`.
  public func note(now: Date) -> String {
    let age = AgeText.describe(now.timeIntervalSince(fetchedAt))
    if let reason {
      // The reason may quote a provider's response: never raw to a terminal.
      return "warning: \(TerminalText.sanitize(reason)); showing cached data from \(age) ago (stale)"
    }
    return "note: offline; showing cached data from \(age) ago"
  }
}

/// Human durations for notes: `45 s`, `12 min`, `3 h`, `2 days`.
public enum AgeText {
  /// A short rendering of `seconds`.
  public static func describe(_ seconds: TimeInterval) -> String {
    let value = max(0, Int(seconds))
    switch value {
    case ..<90: return "\(value) s"
    case ..<(90 * 60): return "\(value / 60) min"
    case ..<(36 * 3600): return "\(value / 3600) h"
    default: return "\(value / 86_400) days"
    }
  }
}
