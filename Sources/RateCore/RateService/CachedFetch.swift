/// The cache rules of ``RateService`` for any single fetched value: a fresh
/// entry answers; otherwise fetch and store; when the fetch fails for a
/// reason cached data can cover, the cached value answers, marked stale.
struct CachedFetch: Sendable {
  let cache: JSONFileCache
  let mode: CacheMode
  let now: @Sendable () -> Date
  let notify: @Sendable (Notice) -> Void

  /// A value with its provenance.
  typealias Answer<Value: Sendable> = CachedAnswer<Value>

  /// The value under `key`, fetched by `fetch` unless a cached one is
  /// younger than `freshness`.
  func value<Value: CacheValue>(
    key: String, source: RateSource, freshness: TimeInterval, what: String,
    fetch: @Sendable () async throws -> Value
  ) async throws -> Answer<Value> {
    try await sourcedValue(key: key, freshness: freshness, what: what) { (try await fetch(), source) }
  }

  /// ``value(key:source:freshness:what:fetch:)`` where the fetch names the source that
  /// answered (a chain's): stored with the entry, and the answer's ``CachedAnswer/source``.
  func sourcedValue<Value: CacheValue>(
    key: String, freshness: TimeInterval, what: String,
    fetch: @Sendable () async throws -> (Value, RateSource)
  ) async throws -> Answer<Value> {
    let lookup = cache.load(Value.self, key: key)
    if case .unusable(let reason) = lookup { notify(.cacheUnusable(reason)) }
    let currentTime = now()
    let entry = lookup.entry
    let fresh = entry.map { CacheFreshness.isFresh($0.fetchedAt, at: currentTime, for: freshness) } ?? false
    return try await CacheFallback.answer(
      mode: mode, hasCache: entry != nil, isFresh: fresh,
      fromCache: { failure in
        guard let entry else { throw RateService.ServiceError.nothingCached(what) }
        let stale = failure != nil || !fresh
        return Answer(
          value: entry.value, fetchedAt: entry.fetchedAt,
          staleness: stale ? Staleness(fetchedAt: entry.fetchedAt, reason: failure) : nil,
          source: RateSource(name: entry.source))
      },
      fetch: {
        let (value, source) = try await fetch()
        let fetchedAt = now()
        do {
          try cache.save(value, key: key, source: source.name, fetchedAt: fetchedAt)
        } catch {
          notify(.cacheNotUpdated(reason: error.readableDescription))
        }
        return Answer(value: value, fetchedAt: fetchedAt, staleness: nil, source: source)
      })
  }
}

/// A value with its provenance: when it was fetched, and whether cached data
/// stands in for a fresh answer.
public struct CachedAnswer<Value: Sendable>: Sendable {
  /// The value.
  public var value: Value
  /// When it was fetched from the provider.
  public var fetchedAt: Date
  /// Set when cached data stands in for a fresh answer.
  public var staleness: Staleness?
  /// What the answer lacks (a page that failed, coins the provider left
  /// out), each named as the user sees it: `C3/USD`, `ranks 501-750 in USD`.
  public var missing: [String] = []
  /// The source that answered (stored with a cached value), when known.
  public var source: RateSource? = nil
}
