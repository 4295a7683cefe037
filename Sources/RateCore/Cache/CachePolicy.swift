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
  /// How many answers must leave a settled day out before it is stored as
  /// having none: one or two answers that skip a working day (or the head of
  /// a coin's range) never make a gap; three, asked at least 1 h and then 2 h
  /// apart (``askAgain(leftOut:askedAt:)``), settle it (a real closure the
  /// calendar does not know, a coin not trading yet). `--refresh` re-asks.
  public static let leftOutSettles = 3
  /// A day left out of an answer is asked again 1 h after, then after twice
  /// as long each time, at most a day.
  public static let askAgainFirst: TimeInterval = 3600
  public static let askAgainMost: TimeInterval = 86_400
}

extension CacheFreshness {
  /// When a day left out of `count` answers, the last asked at `askedAt`,
  /// may be asked again (see ``askAgainFirst``).
  public static func askAgain(leftOut count: Int, askedAt: Date) -> Date {
    let factor = Double(1 << min(max(count - 1, 0), 16))
    return askedAt.addingTimeInterval(min(askAgainFirst * factor, askAgainMost))
  }

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
  /// The failure that made the service fall back to the cache; `nil` when
  /// the cache was asked for on purpose (offline).
  public var reason: ProviderError?
  /// Set when the data comes from the ECB snapshot built into `rates`
  /// (``ECBSnapshot``) rather than the cache: the snapshot's last day.
  public var snapshotThrough: Day?
}
