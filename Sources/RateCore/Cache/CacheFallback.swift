import Foundation

/// The one rule for answering from the cache or the network, used by every
/// fetch in `RateCore` (prices, history, markets, searches, coin lookups):
///
/// 1. offline: the cache answers, whatever its age;
/// 2. normal mode and the cache is fresh: the cache answers;
/// 3. otherwise fetch; when the fetch fails for a reason cached data can
///    cover (``ProviderError/allowsStaleFallback``) and something is cached,
///    the cache answers, marked stale with the failure as the reason;
/// 4. nothing cached, and offline or the provider unreachable
///    (``ProviderError/isUnavailable``): the last resort answers when there is
///    one (the ECB snapshot built into `rates`, for fiat rates) and it has the
///    data; otherwise the failure (offline: "nothing cached") stands.
///
/// Callers say how to answer from the cache (`fromCache`, given the failure
/// or `nil`), from the last resort (`nil` when it has nothing) and how to
/// fetch; what "fresh" and "cached" mean stays theirs.
enum CacheFallback {
  static func answer<Value>(
    mode: CacheMode, hasCache: Bool, isFresh: Bool,
    fromCache: (_ failure: ProviderError?) throws -> Value,
    lastResort: ((_ failure: ProviderError?) -> Value?)? = nil,
    fetch: () async throws -> Value
  ) async throws -> Value {
    if mode == .offline || (mode == .normal && isFresh && hasCache) {
      if mode == .offline, !hasCache, let value = lastResort?(nil) { return value }
      return try fromCache(nil)
    }
    do {
      return try await fetch()
    } catch let error as ProviderError where error.allowsStaleFallback && hasCache {
      return try fromCache(error)
    } catch let error as ProviderError where error.isUnavailable {
      guard let value = lastResort?(error) else { throw error }
      return value
    }
  }
}
