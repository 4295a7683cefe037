import Foundation

/// The one rule for answering from the cache or the network, used by every
/// fetch in `RateCore` (prices, history, markets, searches, coin lookups):
///
/// 1. offline: the cache answers, whatever its age;
/// 2. normal mode and the cache is fresh: the cache answers;
/// 3. otherwise fetch; when the fetch fails for a reason cached data can
///    cover (``ProviderError/allowsStaleFallback``) and something is cached,
///    the cache answers, marked stale with the failure as the reason.
///
/// Callers say how to answer from the cache (`fromCache`, given the failure
/// or `nil`) and how to fetch; what "fresh" and "cached" mean stays theirs.
enum CacheFallback {
  static func answer<Value>(
    mode: CacheMode, hasCache: Bool, isFresh: Bool,
    fromCache: (_ failure: ProviderError?) throws -> Value,
    fetch: () async throws -> Value
  ) async throws -> Value {
    if mode == .offline || (mode == .normal && isFresh && hasCache) {
      return try fromCache(nil)
    }
    do {
      return try await fetch()
    } catch let error as ProviderError where error.allowsStaleFallback && hasCache {
      return try fromCache(error)
    }
  }
}
