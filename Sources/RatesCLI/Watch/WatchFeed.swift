import RateCore

/// One provider's share of a watch: its pairs, how to read them from the
/// cache, how to seed their history and how to fetch them (one request).
struct WatchFeed: Sendable {
  /// Quotes (in ``pairs`` order) and, when the answer carries it, history.
  struct Snapshot: Sendable {
    /// One quote per pair, `nil` where none is known.
    var quotes: [Quote?]
    /// Recent values per pair, oldest first, when known.
    var history: [[Double]]?
    /// When the data was fetched (the oldest quote's time for the cache).
    var fetchedAt: Date?
    /// The pairs of a fetch that did not arrive while the others did, with why.
    var missing: [MissingFigure] = []
  }

  /// The source the feed asks (a provider, or the ledger), for the request budget and output.
  var provider: RateSource
  /// The pairs asked of the provider.
  var pairs: [AssetQuote]
  /// Seconds a successful fetch stands: 0 to fetch on every update (coins),
  /// 3600 for ECB rates, which change once a working day.
  var refreshEvery: TimeInterval
  /// The cached data, without a request, for the first frame.
  var cached: @Sendable () -> Snapshot
  /// Recent history per pair, making at most `allowance` requests; `nil`
  /// when the feed has none to offer.
  var seedHistory: @Sendable (_ allowance: Int) async -> [[Double]]? = { _ in nil }
  /// Fresh data: one request. Throws the provider's error.
  var fetch: @Sendable () async throws -> Snapshot
}
