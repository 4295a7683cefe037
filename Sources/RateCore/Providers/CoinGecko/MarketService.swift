/// CoinGecko's coin directory and market data, cached: `/search` for 15
/// minutes (CoinGecko's own update interval), `/coins/markets` for a minute.
public struct MarketService: Sendable {
  /// How long a search answer is reused.
  public static let searchFreshness: TimeInterval = 15 * 60
  /// How long market rows are reused.
  public static let marketFreshness: TimeInterval = 60

  let client: CoinGeckoClient
  let fetcher: CachedFetch

  /// Creates a service over `client` and `cache`.
  public init(
    client: CoinGeckoClient, cache: JSONFileCache, mode: CacheMode,
    now: @escaping @Sendable () -> Date, notify: @escaping @Sendable (Notice) -> Void
  ) {
    self.client = client
    self.fetcher = CachedFetch(cache: cache, mode: mode, now: now, notify: notify)
  }

  /// Values with when they were fetched and whether they are stale.
  public typealias Answer<Value: Sendable> = CachedAnswer<Value>

  /// Coins matching `query`, best match first: an exact symbol, id or name
  /// match before partial ones, then by market-cap rank (unranked last).
  public func search(_ query: String) async throws -> Answer<[CoinGeckoClient.SearchResult]> {
    let normalized = query.trimming(.whitespaces).lowercased()
    let answer = try await fetcher.value(
      key: "coingecko/search/\(Self.keyPart(normalized))", source: .provider(.coinGecko),
      freshness: Self.searchFreshness, what: "a search for '\(normalized)'"
    ) { [client] in try await client.search(normalized) }
    let ranked = answer.value.enumerated().sorted { lhs, rhs in
      let l = Self.matchScore(lhs.element, normalized)
      let r = Self.matchScore(rhs.element, normalized)
      if l != r { return l < r }
      let lr = lhs.element.marketCapRank ?? Int.max
      let rr = rhs.element.marketCapRank ?? Int.max
      return lr != rr ? lr < rr : lhs.offset < rhs.offset
    }.map(\.element)
    return Answer(value: ranked, fetchedAt: answer.fetchedAt, staleness: answer.staleness)
  }

  /// The most rows one `/coins/markets` page holds.
  public static let pageSize = 250

  /// Market rows in `currency`: the top `limit` coins, best first. Over
  /// ``pageSize`` coins take as many pages as needed, no more, each as small
  /// as an even split allows, at most ``concurrentPages`` at a time. When a
  /// page fails and others arrive, the answer has those, is not cached, and
  /// names the missing ranks in ``CachedAnswer/missing``. With `sparkline`, each row also
  /// has 7 days of hourly prices (cached apart from the rows without).
  public func markets(currency: CurrencyCode, top limit: Int, sparkline: Bool = false) async throws
    -> Answer<[CoinMarket]>
  {
    let code = currency.text.lowercased()
    let plan = Self.pages(for: limit)
    return try await partially {
      try await fetcher.value(
        key: "coingecko/markets/\(code)-top\(limit)\(sparkline ? "-7d" : "")",
        source: .provider(.coinGecko),
        freshness: Self.marketFreshness, what: "the top \(limit) coins in \(currency)"
      ) { [client, now = fetcher.now] in
        let pages = try await Self.paged(Array(1...plan.count)) { page in
          try await client.markets(
            currency: code, perPage: plan.perPage, page: page, sparkline: sparkline
          ).map { $0.withPlausibleUpdateTime(now: now()) }
        } missing: { page in
          let first = (page - 1) * plan.perPage + 1
          return "ranks \(first)-\(min(page * plan.perPage, limit)) in \(currency)"
        }
        // An empty answer is an outage, not a market: never cache it.
        guard pages.contains(where: { !$0.isEmpty }) else {
          throw ProviderError.noData(provider: .provider(.coinGecko), detail: "an empty list of coins")
        }
        return Array(pages.joined().prefix(limit))
      }
    }
  }

  /// Market rows in `currency` for `coins`, one request per ``pageSize``
  /// coins (at most ``concurrentPages`` at a time); with `sparkline`, each
  /// row also has 7 days of hourly prices. Coins the answer leaves out have
  /// no row and are named in ``CachedAnswer/missing`` (`SYMBOL/CURRENCY`);
  /// an answer with none of them is an error that names them by symbol
  /// (``ProviderError/nothing(for:provider:)``). A failed request whose
  /// siblings arrived leaves its coins out, uncached.
  public func markets(currency: CurrencyCode, coins: [Asset], sparkline: Bool = false) async throws
    -> Answer<[CoinMarket]>
  {
    let code = currency.text.lowercased()
    let byID = Dictionary(coins.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let sorted = byID.keys.sorted()
    let unique = sorted.compactMap { byID[$0] }
    let names = NameList.capped(unique.map(\.symbol))
    let chunks = stride(from: 0, to: sorted.count, by: Self.pageSize).map {
      Array(sorted[$0..<min($0 + Self.pageSize, sorted.count)])
    }
    var answer = try await partially {
      try await fetcher.value(
        key: "coingecko/markets/\(code)-ids\(sparkline ? "-7d" : "")-\(Self.keyPart(sorted.joined(separator: ",")))",
        source: .provider(.coinGecko), freshness: Self.marketFreshness,
        what: "\(names) in \(currency)"
      ) { [client, now = fetcher.now] in
        let rows = try await Self.paged(Array(chunks.indices)) { index in
          try await client.markets(
            currency: code, ids: chunks[index], perPage: Self.pageSize, sparkline: sparkline
          ).map { $0.withPlausibleUpdateTime(now: now()) }
        } missing: { _ in
          ""
        }.joined()
        guard !rows.isEmpty else {
          throw ProviderError.nothing(for: unique, provider: .provider(.coinGecko))
        }
        return Array(rows)
      }
    }
    let arrived = Set(answer.value.map(\.id))
    answer.missing = coins.filter { !arrived.contains($0.id) }.map {
      "\($0.symbol)/\(currency)"
    }
    return answer
  }

  /// How to fetch the top `limit` coins in the fewest pages: how many, and
  /// rows per page (an even split, so the last page wastes least).
  static func pages(for limit: Int) -> (count: Int, perPage: Int) {
    let wanted = max(limit, 1)
    let count = (wanted + pageSize - 1) / pageSize
    return (count, (wanted + count - 1) / count)
  }

  /// How many pages are fetched at once: two, so that a long list does not
  /// invite a rate limit on the free plan.
  public static let concurrentPages = 2

  /// Some pages of an answer, without the ones that failed (named in `missing`).
  struct PartialPages: Error {
    var rows: [CoinMarket]
    var missing: [String]
  }

  /// `fetch` for each of `pages`, at most ``concurrentPages`` at a time, the
  /// results in the order of `pages`. When every page fails, the first
  /// failure is thrown; when a page fails for a reason cached data could
  /// cover (a rate limit, an outage) and others arrive, ``PartialPages``
  /// with those and each failed page named by `missing`.
  static func paged(
    _ pages: [Int], _ fetch: @escaping @Sendable (Int) async throws -> [CoinMarket],
    missing: (Int) -> String
  ) async throws -> [[CoinMarket]] {
    var results: [Int: Result<[CoinMarket], any Error>] = [:]
    for batch in stride(from: 0, to: pages.count, by: concurrentPages) {
      let slice = pages[batch..<min(batch + concurrentPages, pages.count)]
      // The group hands its results back rather than writing to `results`
      // from inside its body.
      let batchResults = await withTaskGroup(of: (Int, Result<[CoinMarket], any Error>).self) {
        group in
        for page in slice {
          group.addTask { [page] in
            // The result is built before the tuple: a release build (Swift 6.3.1)
            // returned page 0 from `(page, .success(try await fetch(page)))`.
            let result: Result<[CoinMarket], any Error>
            do { result = .success(try await fetch(page)) } catch { result = .failure(error) }
            return (page, result)
          }
        }
        var collected: [(Int, Result<[CoinMarket], any Error>)] = []
        for await item in group { collected.append(item) }
        return collected
      }
      for (page, result) in batchResults { results[page] = result }
    }
    var arrived: [[CoinMarket]] = []
    var failed: [(page: Int, error: any Error)] = []
    for page in pages {
      switch results[page] {
      case .success(let rows)?: arrived.append(rows)
      case .failure(let error)?: failed.append((page, error))
      case nil: break
      }
    }
    if let first = failed.first {
      let transient = (first.error as? ProviderError)?.allowsStaleFallback ?? false
      guard transient, !arrived.isEmpty else { throw first.error }
      throw PartialPages(
        rows: Array(arrived.joined()), missing: failed.map { missing($0.page) }.filter { !$0.isEmpty })
    }
    return arrived
  }

  /// The answer of `fetch`, or the pages that arrived when some did not
  /// (``PartialPages``): not cached, so the next run asks again.
  func partially(_ fetch: () async throws -> Answer<[CoinMarket]>) async throws -> Answer<[CoinMarket]> {
    do {
      return try await fetch()
    } catch let partial as PartialPages {
      return Answer(value: partial.rows, fetchedAt: fetcher.now(), staleness: nil, missing: partial.missing)
    }
  }

  /// 0 for an exact symbol, id or name match, 1 for a prefix, 2 otherwise.
  static func matchScore(_ result: CoinGeckoClient.SearchResult, _ query: String) -> Int {
    let fields = [result.symbol.lowercased(), result.id, result.name.lowercased()]
    if fields.contains(query) { return 0 }
    if fields.contains(where: { $0.hasPrefix(query) }) { return 1 }
    return 2
  }

  /// A file-name-safe cache key part: short ones as they are (a `/` would
  /// make a folder), long ones hashed.
  static func keyPart(_ text: String) -> String {
    guard text.count > 80 else { return text.replacing("/", with: "_") }
    return String(text.prefix(40)) + "-" + String(StableHash.fnv1a64(text), radix: 16)
  }
}
