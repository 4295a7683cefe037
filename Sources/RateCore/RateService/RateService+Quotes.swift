extension RateService {
  // MARK: - Current prices

  /// Current prices and which of them came from stale cache.
  public struct QuotesResult: Sendable {
    /// One quote per asset and currency, in the order asked.
    public var quotes: [Quote]
    /// Set when cached data stands in for a fresh answer.
    public var staleness: Staleness?
    /// The pairs the provider's answer lacked, in the order asked; they
    /// have no quote in ``quotes``.
    public var missing: [AssetQuote] = []
    /// Why some of ``missing`` are missing, when the source knows (a chain's failures).
    public var reasons: [AssetQuote: ProviderError] = [:]

    /// One entry per pair of `pairs` (the pairs this result answers, in
    /// order): its quote, or `nil` for a missing one.
    public func aligned(with pairs: [AssetQuote]) -> [Quote?] {
      var next = quotes.makeIterator()
      return pairs.map { missing.contains($0) ? nil : next.next() }
    }
  }

  /// Current prices of every input in every currency, from one request at
  /// most.
  public func quotes(of inputs: [String], in codes: [CurrencyCode]) async throws -> QuotesResult {
    for code in codes { try source.validateQuote(code) }
    var assets: [Asset] = []
    for input in inputs { assets.append(try await source.resolve(input)) }
    return try await quotes(for: assets.flatMap { asset in codes.map { AssetQuote(asset: asset, quote: $0) } })
  }

  /// Current prices for `pairs`, in their order: cached ones while fresh,
  /// the rest from one call to the source.
  public func quotes(for pairs: [AssetQuote]) async throws -> QuotesResult {
    let currentTime = now()
    let cached = cachedEntries(for: pairs)
    let allFresh = cached.allSatisfy { entry in
      entry.map { CacheFreshness.isFresh($0.fetchedAt, at: currentTime, for: source.freshness) } ?? false
    }
    let today = Day(containing: currentTime)
    return try await CacheFallback.answer(
      mode: mode, hasCache: cached.allSatisfy { $0 != nil }, isFresh: allFresh,
      lastResortIsNewer: cached.contains { entry in
        entry.map { snapshotIsNewer(than: Self.day(of: $0.value, today: today)) } ?? false
      },
      fromCache: { try quotes(pairs, from: cached, at: currentTime, reason: $0) },
      lastResort: { snapshotQuotes(pairs, failure: $0) }
    ) { try await fetchQuotes(pairs) }
  }

  /// The cached entry of each pair, in the order of `pairs` (nil where none stands), named by
  /// the pair's symbol. An array, not a dictionary keyed by pair: `[AssetQuote: …]` costs a
  /// run-time lookup of `AssetQuote: Hashable` (a scan of every conformance).
  func cachedEntries(for pairs: [AssetQuote]) -> [JSONFileCache.Entry<Quote>?] {
    pairs.map { pair in
      let lookup = cache.load(Quote.self, key: priceKey(pair.asset, pair.quote))
      if case .unusable(let problem) = lookup { notify(.cacheUnusable(problem)) }
      // Another source's cached answer (a fallback's, before a provider was pinned) is not
      // this source's figure.
      guard var entry = lookup.entry, let cachedFrom = entry.value.source.provider,
        source.answeringSources.contains(cachedFrom)
      else {
        return nil
      }
      entry.value.base = pair.asset.symbol
      return entry
    }
  }

  /// The answer from `cached` (``cachedEntries(for:)``), which must hold every pair: after a
  /// failed fetch (`reason`) always marked stale; offline, only when older than the source's
  /// freshness.
  func quotes(
    _ pairs: [AssetQuote], from cached: [JSONFileCache.Entry<Quote>?], at currentTime: Date,
    reason: ProviderError?
  ) throws -> QuotesResult {
    var quotes: [Quote] = []
    for (pair, entry) in zip(pairs, cached) {
      guard let entry else {
        throw ServiceError.nothingCached("\(pair.asset.symbol)/\(pair.quote)")
      }
      quotes.append(entry.value)
    }
    let oldest = cached.compactMap { $0?.fetchedAt }.min() ?? currentTime
    let fresh = reason == nil && CacheFreshness.isFresh(oldest, at: currentTime, for: source.freshness)
    return QuotesResult(
      quotes: quotes, staleness: fresh ? nil : Staleness(fetchedAt: oldest, reason: reason))
  }

  /// Fetches every pair once (in the order first asked), caches each price,
  /// and names the pairs the answer lacks (``Notice/missingFromAnswer(provider:pairs:)``).
  func fetchQuotes(_ pairs: [AssetQuote]) async throws -> QuotesResult {
    var unique: [AssetQuote] = []
    for pair in pairs where !unique.contains(pair) { unique.append(pair) }
    let fetched = try await source.prices(unique)
    var table: [AssetQuote: Quote] = [:]
    for (index, pair) in unique.enumerated() {
      // A complete answer is in order; a partial one is matched by symbol and currency.
      let quote =
        fetched.count == unique.count
        ? fetched[index]
        : fetched.first { $0.base == pair.asset.symbol && $0.quote == pair.quote }
      guard let quote else { continue }
      table[pair] = quote
      save(quote, key: priceKey(pair.asset, pair.quote))
    }
    let lacking = unique.filter { table[$0] == nil }
    var reasons: [AssetQuote: ProviderError] = [:]
    for pair in lacking { reasons[pair] = source.whyLacking(pair) }
    let leftOut = lacking.filter { reasons[$0] == nil }
    if !leftOut.isEmpty {
      notify(
        .missingFromAnswer(
          provider: .provider(source.name), pairs: leftOut.map { "\($0.asset.symbol)/\($0.quote)" }))
    }
    return QuotesResult(
      quotes: pairs.compactMap { table[$0] }, staleness: nil,
      missing: pairs.filter { table[$0] == nil }, reasons: reasons)
  }
}

extension RateService {
  /// The cached price of each pair, whatever its age, each dated by when it
  /// was fetched; `nil` where nothing is cached.
  public func cachedQuotes(for pairs: [AssetQuote]) -> [Quote?] {
    pairs.map { pair in
      guard var entry = cache.load(Quote.self, key: priceKey(pair.asset, pair.quote)).entry else {
        return nil
      }
      entry.value.base = pair.asset.symbol
      entry.value.fetchedAt = entry.fetchedAt
      return entry.value
    }
  }
}

/// One asset priced in one currency.
public struct AssetQuote: Hashable, Sendable {
  /// The asset.
  public var asset: Asset
  /// The currency.
  public var quote: CurrencyCode

  /// Creates a pair.
  public init(asset: Asset, quote: CurrencyCode) {
    self.asset = asset
    self.quote = quote
  }
}
