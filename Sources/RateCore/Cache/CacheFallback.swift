/// The one rule for answering from the cache or the network, used by every
/// fetch in `RateCore` (prices, history, markets, searches, coin lookups):
///
/// 1. offline: the cache answers, whatever its age;
/// 2. normal mode and the cache is fresh: the cache answers;
/// 3. otherwise fetch; when the fetch fails for a reason cached data can
///    cover (``ProviderError/allowsStaleFallback``) and something is cached,
///    the cache answers, marked stale with the failure as the reason;
/// 4. where there is a last resort (the ECB snapshot built into `rates`, for
///    fiat rates) and nothing is cached, or only data older than the last
///    resort's: offline, or when the provider is unreachable
///    (``ProviderError/isUnavailable``), the last resort answers if it has the
///    data; otherwise rules 1 and 3 apply (offline with nothing cached:
///    "nothing cached").
///
/// Callers say how to answer from the cache (`fromCache`, given the failure
/// or `nil`), from the last resort (`nil` when it has nothing) and how to
/// fetch; what "fresh", "cached" and "newer" mean stays theirs. Whether the
/// last resort is newer is only asked when rule 4 could apply, so a fresh
/// cache never makes the last resort (the snapshot) be read.
enum CacheFallback {
  static func answer<Value>(
    mode: CacheMode, hasCache: Bool, isFresh: Bool,
    lastResortIsNewer: @autoclosure () -> Bool = false,
    fromCache: (_ failure: ProviderError?) throws -> Value,
    lastResort: ((_ failure: ProviderError?) -> Value?)? = nil,
    fetch: () async throws -> Value
  ) async throws -> Value {
    func lastResortFirst() -> Bool { !hasCache || lastResortIsNewer() }
    if mode == .offline || (mode == .normal && isFresh && hasCache) {
      if mode == .offline, lastResortFirst(), let value = lastResort?(nil) { return value }
      return try fromCache(nil)
    }
    do {
      return try await fetch()
    } catch let error as ProviderError where error.isUnavailable && lastResortFirst() {
      if let value = lastResort?(error) { return value }
      guard hasCache else { throw error }
      return try fromCache(error)
    } catch let error as ProviderError where error.allowsStaleFallback && hasCache {
      return try fromCache(error)
    }
  }
}
