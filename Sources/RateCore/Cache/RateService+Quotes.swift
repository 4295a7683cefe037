import Foundation

extension RateService {
  // MARK: - Current prices

  /// Current prices and which of them came from stale cache.
  public struct QuotesResult: Sendable {
    /// One quote per asset and currency, in the order asked.
    public var quotes: [Quote]
    /// Set when cached data stands in for a fresh answer.
    public var staleness: Staleness?
  }

  /// Current prices of every input in every currency, from one request at
  /// most.
  public func quotes(of inputs: [String], in currencies: [String]) async throws -> QuotesResult {
    let quotes = currencies.map { $0.uppercased() }
    for quote in quotes { try source.validateQuote(quote) }
    var assets: [Asset] = []
    for input in inputs { assets.append(try await source.resolve(input)) }
    let currentTime = now()
    var cached: [String: JSONFileCache.Entry<Quote>] = [:]
    for asset in assets {
      for quote in quotes {
        let key = priceKey(asset, quote)
        if let entry = cache.load(Quote.self, key: key).entry { cached[key] = entry }
      }
    }
    func ordered(_ table: [String: Quote]) -> [Quote] {
      assets.flatMap { asset in quotes.compactMap { table[priceKey(asset, $0)] } }
    }
    func relabel(_ quote: Quote, _ asset: Asset) -> Quote {
      var quote = quote
      quote.base = asset.symbol
      return quote
    }
    func fromCache(reason: String?) throws -> QuotesResult {
      var table: [String: Quote] = [:]
      for asset in assets {
        for quote in quotes {
          let key = priceKey(asset, quote)
          guard let entry = cached[key] else {
            throw ServiceError.nothingCached("\(asset.symbol)/\(quote)")
          }
          table[key] = relabel(entry.value, asset)
        }
      }
      let oldest = cached.values.map(\.fetchedAt).min() ?? currentTime
      let fresh = reason == nil && currentTime.timeIntervalSince(oldest) < source.freshness
      return QuotesResult(
        quotes: ordered(table), staleness: fresh ? nil : Staleness(fetchedAt: oldest, reason: reason))
    }

    if mode == .offline { return try fromCache(reason: nil) }
    let allFresh = assets.allSatisfy { asset in
      quotes.allSatisfy { quote in
        cached[priceKey(asset, quote)].map {
          currentTime.timeIntervalSince($0.fetchedAt) < source.freshness
        } ?? false
      }
    }
    if mode == .normal, allFresh { return try fromCache(reason: nil) }
    do {
      let fetched = try await source.prices(assets, quotes)
      var table: [String: Quote] = [:]
      for (index, quote) in fetched.enumerated() {
        let asset = assets[index / quotes.count]
        let key = priceKey(asset, quote.quote)
        table[key] = quote
        save(quote, key: key)
      }
      return QuotesResult(quotes: ordered(table), staleness: nil)
    } catch let error as ProviderError where error.allowsStaleFallback {
      return try {
        do { return try fromCache(reason: error.localizedDescription) } catch is ServiceError {
          throw error
        }
      }()
    }
  }

}
