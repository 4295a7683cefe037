import Foundation

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
    let normalized = query.trimmingCharacters(in: .whitespaces).lowercased()
    let answer = try await fetcher.value(
      key: "coingecko/search/\(Self.keyPart(normalized))", source: Providers.coinGecko,
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
  /// ``pageSize`` coins take as many pages as needed, no more, fetched
  /// concurrently, each as small as an even split allows.
  public func markets(currency: String, top limit: Int) async throws -> Answer<[CoinMarket]> {
    let code = currency.lowercased()
    let plan = Self.pages(for: limit)
    let answer = try await fetcher.value(
      key: "coingecko/markets/\(code)-top\(limit)", source: Providers.coinGecko,
      freshness: Self.marketFreshness, what: "the top \(limit) coins in \(currency.uppercased())"
    ) { [client] in
      let pages = try await Self.concurrently(1...plan.count) { page in
        try await client.markets(currency: code, perPage: plan.perPage, page: page)
      }
      let rows = Array(pages.joined().prefix(limit))
      // An empty answer is an outage, not a market: never cache it.
      guard !rows.isEmpty else {
        throw ProviderError.noData(provider: Providers.coinGecko, detail: "an empty list of coins")
      }
      return rows
    }
    return answer
  }

  /// Market rows in `currency` for `coins`, one request per ``pageSize``
  /// coins (concurrently); with `sparkline`, each row also has 7 days of
  /// hourly prices. Coins the answer leaves out have no row; an answer with
  /// none of them is an error that names them by symbol
  /// (``ProviderError/nothing(for:provider:)``).
  public func markets(currency: String, coins: [Asset], sparkline: Bool = false) async throws
    -> Answer<[CoinMarket]>
  {
    let code = currency.lowercased()
    let byID = Dictionary(coins.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let sorted = byID.keys.sorted()
    let unique = sorted.compactMap { byID[$0] }
    let names = unique.map(\.symbol).joined(separator: ", ")
    let chunks = stride(from: 0, to: sorted.count, by: Self.pageSize).map {
      Array(sorted[$0..<min($0 + Self.pageSize, sorted.count)])
    }
    let answer = try await fetcher.value(
      key: "coingecko/markets/\(code)-ids\(sparkline ? "-7d" : "")-\(Self.keyPart(sorted.joined(separator: ",")))",
      source: Providers.coinGecko, freshness: Self.marketFreshness,
      what: "\(names) in \(currency.uppercased())"
    ) { [client] in
      let rows = try await Self.concurrently(chunks.indices) { index in
        try await client.markets(
          currency: code, ids: chunks[index], perPage: Self.pageSize, sparkline: sparkline)
      }.joined()
      guard !rows.isEmpty else {
        throw ProviderError.nothing(for: unique, provider: Providers.coinGecko)
      }
      return Array(rows)
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

  /// `fetch` for each of `indices` at once, the results in the order of `indices`.
  static func concurrently<Indices: Collection & Sendable, Value: Sendable>(
    _ indices: Indices, _ fetch: @escaping @Sendable (Indices.Element) async throws -> Value
  ) async throws -> [Value] where Indices.Element: Sendable {
    try await withThrowingTaskGroup(of: (Int, Value).self) { group in
      for (offset, index) in indices.enumerated() {
        group.addTask { (offset, try await fetch(index)) }
      }
      var results: [(Int, Value)] = []
      for try await result in group { results.append(result) }
      return results.sorted { $0.0 < $1.0 }.map(\.1)
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
    guard text.count > 80 else { return text.replacingOccurrences(of: "/", with: "_") }
    return String(text.prefix(40)) + "-" + String(StableHash.fnv1a64(text), radix: 16)
  }
}
