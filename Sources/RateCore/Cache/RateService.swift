import Foundation

/// Answers `history` and `current` from the cache and a ``PriceSource``,
/// making as few requests as possible.
///
/// - Past days' closes never change once published, so they are cached
///   indefinitely and fetched only when a day is missing.
/// - Today's value and current prices are fresh for
///   ``CacheFreshness/currentPrice``.
/// - When a fetch fails for a reason cached data can cover (rate limit,
///   server or network trouble, an unreadable response), the cached data is
///   returned marked stale. A response that failed to decode never reaches
///   the cache.
public struct RateService: Sendable {
  let source: PriceSource
  let cache: JSONFileCache
  let mode: CacheMode
  let now: @Sendable () -> Date
  let warn: @Sendable (String) -> Void

  /// Creates a service.
  ///
  /// - Parameter warn: receives cache warnings (a corrupt file, an
  ///   unwritable directory) for stderr.
  public init(
    source: PriceSource, cache: JSONFileCache, mode: CacheMode,
    now: @escaping @Sendable () -> Date, warn: @escaping @Sendable (String) -> Void
  ) {
    self.source = source
    self.cache = cache
    self.mode = mode
    self.now = now
    self.warn = warn
  }

  /// Why the service has nothing to show.
  public enum ServiceError: Error, Equatable, Sendable, LocalizedError {
    /// `--offline` and nothing cached for this request.
    case nothingCached(String)

    public var errorDescription: String? {
      switch self {
      case .nothingCached(let what):
        return "no cached data for \(what): run without --offline to fetch it"
      }
    }
  }

  // MARK: - History

  /// A daily series and whether it came from stale cache.
  public struct HistoryResult: Sendable {
    /// The series, oldest first, ending today (or the newest cached day).
    public var series: RateSeries
    /// Set when cached data stands in for a fresh answer.
    public var staleness: Staleness?
  }

  struct HistoryCacheValue: Codable, Sendable {
    /// Settled closes, oldest first.
    var closes: [RatePoint]
    /// The latest price with the time it was fetched.
    var latest: RatePoint?
    var latestFetchedAt: Date?
  }

  /// The last `days` days of `input` in `currency`, today's latest price
  /// being the last point.
  public func history(of input: String, in currency: String, days: Int) async throws
    -> HistoryResult
  {
    let quote = currency.uppercased()
    try source.validateQuote(quote)
    let asset = try await source.resolve(input)
    if asset.id.lowercased() == quote.lowercased() || asset.symbol.uppercased() == quote {
      throw ProviderError.unsupported(
        provider: source.name, detail: "\(asset.symbol) in \(quote) is always 1: pick two different currencies")
    }
    let currentTime = now()
    let today = Day(containing: currentTime)
    let window = today.adding(days: -(days - 1))...today
    let key = "\(source.name)/history/\(asset.id)-\(quote)"
    let priceKey = "\(source.name)/price/\(asset.id)-\(quote)"
    // Read even with --refresh: the cache is not the answer then, but it is
    // still the fallback when the fetch fails.
    let lookup = cache.load(HistoryCacheValue.self, key: key)
    if case .unusable(let reason) = lookup { warn("warning: \(reason)") }
    let cached = lookup.entry?.value
    let cachedCloses = Dictionary(
      (cached?.closes ?? []).map { ($0.date, $0) }, uniquingKeysWith: { $1 })
    let pastDays = days > 1 ? Array(stride(from: 0, to: days - 1, by: 1)).map {
      window.lowerBound.adding(days: $0)
    } : []
    let pastComplete = pastDays.allSatisfy { cachedCloses[$0] != nil }

    // Today's value from cache: the history entry's own latest point, else a
    // cached current price.
    var latest: (point: RatePoint, fetchedAt: Date)?
    if let point = cached?.latest, let at = cached?.latestFetchedAt, point.date == today {
      latest = (point, at)
    }
    if let price = cache.load(Quote.self, key: priceKey).entry, Self.day(of: price.value, today: today) == today,
      price.fetchedAt > (latest?.fetchedAt ?? .distantPast)
    {
      latest = (RatePoint(date: today, rate: price.value.rate), price.fetchedAt)
    }
    let latestFresh = latest.map { currentTime.timeIntervalSince($0.fetchedAt) < CacheFreshness.currentPrice } ?? false

    func series(closes: [Day: RatePoint], latest: (point: RatePoint, fetchedAt: Date)?, fetchedAt: Date)
      -> RateSeries
    {
      var byDay = closes
      if let latest { byDay[latest.point.date] = latest.point }
      var points = Self.fill(byDay, in: window)
      // A mirror serving recorded data may have nothing this recent: show
      // its newest `days` days, honestly dated, rather than nothing.
      if points.isEmpty, let newest = byDay.keys.filter({ $0 <= today }).max() {
        points = Self.fill(byDay, in: newest.adding(days: -(days - 1))...newest)
        warn(
          "note: \(Providers.displayName(source.name)) has no \(asset.symbol)/\(quote) data after \(newest); showing the \(days) days up to it")
      }
      return RateSeries(
        base: asset.symbol, quote: quote, source: source.name, fetchedAt: fetchedAt, points: points)
    }
    func fromCache(reason: String?) throws -> HistoryResult {
      guard cached != nil || latest != nil else {
        throw ServiceError.nothingCached("\(asset.symbol)/\(quote)")
      }
      let fetchedAt = latest?.fetchedAt ?? lookup.entry?.fetchedAt ?? currentTime
      // After a failed fetch the answer is always marked stale; offline, only
      // when it is older than the freshness window.
      let fresh = reason == nil && latestFresh && pastComplete
      return HistoryResult(
        series: series(closes: cachedCloses, latest: latest, fetchedAt: fetchedAt),
        staleness: fresh ? nil : Staleness(fetchedAt: fetchedAt, reason: reason))
    }

    if mode == .offline { return try fromCache(reason: nil) }
    if mode == .normal, pastComplete, latestFresh, let latest {
      return HistoryResult(
        series: series(closes: cachedCloses, latest: latest, fetchedAt: latest.fetchedAt),
        staleness: nil)
    }

    do {
      var closes = cachedCloses
      var newLatest = latestFresh && mode == .normal ? latest : nil
      if !pastComplete || mode == .refresh {
        let fetched = try await source.dailyCloses(asset, quote, window)
        for point in fetched.closes { closes[point.date] = point }
        if let quoteNow = fetched.latest {
          newLatest = (RatePoint(date: today, rate: quoteNow.rate), quoteNow.fetchedAt)
        }
      }
      if newLatest == nil {
        let quotes = try await source.prices([asset], [quote])
        if let first = quotes.first {
          newLatest = (RatePoint(date: Self.day(of: first, today: today), rate: first.rate), first.fetchedAt)
          save(first, key: priceKey)
        }
      }
      // Keep only settled closes in the cache, and at most 400 days.
      let settled = closes.values.filter {
        currentTime.timeIntervalSince($0.date.end) >= CacheFreshness.closeSettling
      }
      let kept = settled.sorted { $0.date < $1.date }.suffix(400)
      save(
        HistoryCacheValue(
          closes: Array(kept), latest: newLatest?.point, latestFetchedAt: newLatest?.fetchedAt),
        key: key)
      return HistoryResult(
        series: series(closes: closes, latest: newLatest, fetchedAt: newLatest?.fetchedAt ?? currentTime),
        staleness: nil)
    } catch let error as ProviderError where error.allowsStaleFallback {
      guard cached != nil || latest != nil else { throw error }
      return try fromCache(reason: error.localizedDescription)
    }
  }

  /// The day a price belongs to: the day the provider last updated it (a
  /// frozen or replayed feed is not today's), never later than today.
  static func day(of quote: Quote, today: Day) -> Day {
    quote.updatedAt.map { min(Day(containing: $0), today) } ?? today
  }

  /// One point per day of `window` up to its newest value, carrying the
  /// previous day's value over gaps (marked `carried`), also from a value
  /// just before the window. Days after the newest value, and leading days
  /// with nothing to carry, are left out rather than invented.
  static func fill(_ byDay: [Day: RatePoint], in window: ClosedRange<Day>) -> [RatePoint] {
    guard let lastKnown = byDay.keys.filter({ window.contains($0) }).max() else { return [] }
    var points: [RatePoint] = []
    // A value from before the window (Friday's ECB rate for a window that
    // starts on a Saturday) carries into its first days.
    var previous = byDay.keys.filter { $0 < window.lowerBound }.max().flatMap { byDay[$0] }
    var day = window.lowerBound
    while day <= lastKnown {
      if let point = byDay[day] {
        points.append(point)
        previous = point
      } else if let previous {
        points.append(RatePoint(date: day, rate: previous.rate, carried: true))
      }
      day = day.adding(days: 1)
    }
    return points
  }

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
      let fresh = reason == nil && currentTime.timeIntervalSince(oldest) < CacheFreshness.currentPrice
      return QuotesResult(
        quotes: ordered(table), staleness: fresh ? nil : Staleness(fetchedAt: oldest, reason: reason))
    }

    if mode == .offline { return try fromCache(reason: nil) }
    let allFresh = assets.allSatisfy { asset in
      quotes.allSatisfy { quote in
        cached[priceKey(asset, quote)].map {
          currentTime.timeIntervalSince($0.fetchedAt) < CacheFreshness.currentPrice
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

  func priceKey(_ asset: Asset, _ quote: String) -> String {
    "\(source.name)/price/\(asset.id)-\(quote)"
  }

  func save<Value: Codable & Sendable>(_ value: Value, key: String) {
    do {
      try cache.save(value, key: key, source: source.name, fetchedAt: now())
    } catch {
      warn("warning: could not update the cache: \(error.localizedDescription)")
    }
  }
}
