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
  /// How many days a coin's missing day is asked for again: a hole a
  /// provider has not filled after 30 days stays a gap for good (stored as
  /// a day without a value), so a long range does not fetch it on every run.
  public static let holeDays = 30
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
  /// The failure that made the service fall back to the cache; `nil` when
  /// the cache was asked for on purpose (offline).
  public var reason: ProviderError?
  /// Set when the data comes from the ECB snapshot built into `rates`
  /// (``ECBSnapshot``) rather than the cache: the snapshot's last day.
  public var snapshotThrough: Day?

  /// Creates a value.
  public init(fetchedAt: Date, reason: ProviderError?, snapshotThrough: Day? = nil) {
    self.fetchedAt = fetchedAt
    self.reason = reason
    self.snapshotThrough = snapshotThrough
  }
}

