import Foundation

extension RateService {
  /// A daily series and whether it came from stale cache.
  public struct HistoryResult: Sendable {
    /// The series, oldest first, ending today (or the newest day with data).
    public var series: RateSeries
    /// Set when cached data stands in for a fresh answer.
    public var staleness: Staleness?

    /// Creates a result.
    public init(series: RateSeries, staleness: Staleness?) {
      self.series = series
      self.staleness = staleness
    }
  }

  /// A span of days, both ends included.
  struct DaySpan: Codable, Sendable, Equatable {
    var from: Day
    var through: Day

    func contains(_ other: ClosedRange<Day>) -> Bool {
      from <= other.lowerBound && other.upperBound <= through
    }

    /// The union when the spans touch or overlap, else `other` alone.
    func merged(with other: DaySpan) -> DaySpan {
      guard other.from <= through.adding(days: 1), from <= other.through.adding(days: 1) else {
        return other
      }
      return DaySpan(from: min(from, other.from), through: max(through, other.through))
    }
  }

  /// What the history cache holds for one pair.
  struct HistoryCacheValue: Codable, Sendable {
    /// Settled closes, oldest first.
    var closes: [RatePoint]
    /// The settled days the closes were fetched for. A day inside it with no
    /// close had none at the provider (an ECB weekend or holiday): it is not
    /// fetched again.
    var coverage: DaySpan?
    /// The latest price and when it was fetched.
    var latest: RatePoint?
    var latestFetchedAt: Date?
  }

  /// The last `days` days of `input` in `currency`; the last point is the
  /// latest price.
  ///
  /// Settled past days come from the cache when it covers them; today's
  /// value is fresh for the source's ``PriceSource/freshness``. A failed
  /// fetch falls back to whatever is cached, marked stale.
  public func history(of input: String, in currency: String, days: Int) async throws
    -> HistoryResult
  {
    try source.validateQuote(currency.uppercased())
    return try await history(of: try await source.resolve(input), in: currency, days: days)
  }

  /// The last `days` days of an already resolved `asset` in `currency`.
  public func history(of asset: Asset, in currency: String, days: Int) async throws
    -> HistoryResult
  {
    let quote = currency.uppercased()
    try source.validateQuote(quote)
    if asset.id.lowercased() == quote.lowercased() || asset.symbol.uppercased() == quote {
      throw ProviderError.unsupported(
        provider: source.name,
        detail: "\(asset.symbol) in \(quote) is always 1: pick two different currencies")
    }
    let currentTime = now()
    let today = Day(containing: currentTime)
    let window = today.adding(days: -(days - 1))...today
    let past = days > 1 ? window.lowerBound...today.adding(days: -1) : nil
    let key = "\(source.name)/history/\(asset.id)-\(quote)"
    let priceKey = self.priceKey(asset, quote)

    // Read even with --refresh: the cache is not the answer then, but it is
    // still the fallback when the fetch fails.
    let lookup = cache.load(HistoryCacheValue.self, key: key)
    if case .unusable(let reason) = lookup { notify(.cacheUnusable(reason: reason)) }
    let cached = lookup.entry?.value
    var closes = Dictionary((cached?.closes ?? []).map { ($0.date, $0) }, uniquingKeysWith: { $1 })
    // Rates that stand over closed days (ECB) have days without a value of
    // their own: those are covered once fetched. Elsewhere a missing day is a
    // hole, fetched again until it is filled.
    let pastCovered = past.map { days in
      source.carriesForward
        ? cached?.coverage?.contains(days) ?? false
        : stride(from: 0, through: days.lowerBound.distance(to: days.upperBound), by: 1)
          .allSatisfy { closes[days.lowerBound.adding(days: $0)] != nil }
    } ?? true
    let latest = cachedLatest(cached, priceKey: priceKey, today: today)
    let latestFresh = latest.map {
      CacheFreshness.isFresh($0.fetchedAt, at: currentTime, for: source.freshness)
    } ?? false

    func answer(fetchedAt: Date, staleness: Staleness?, latest: LatestPoint?) -> HistoryResult {
      var byDay = closes
      if let latest { byDay[latest.point.date] = latest.point }
      // ECB rates stand over weekends and holidays: carry a recent one to today.
      let newest = byDay.keys.filter { $0 <= today }.max()
      let carryThrough = source.carriesForward && (newest.map { $0.distance(to: today) <= 4 } ?? false)
        ? today : nil
      var points = Self.fill(byDay, in: window, carryThrough: carryThrough)
      // A mirror serving recorded data may have nothing this recent: show
      // its newest `days` days, honestly dated, rather than nothing.
      if points.isEmpty, let newest = byDay.keys.filter({ $0 <= today }).max() {
        points = Self.fill(byDay, in: newest.adding(days: -(days - 1))...newest)
        notify(
          .dataEndsEarly(
            provider: source.name, pair: "\(asset.symbol)/\(quote)", newest: newest, days: days))
      }
      return HistoryResult(
        series: RateSeries(
          base: asset.symbol, quote: quote, source: source.name, fetchedAt: fetchedAt,
          points: points),
        staleness: staleness)
    }
    func fallback(reason: ProviderError?) throws -> HistoryResult {
      guard cached != nil || latest != nil else {
        throw ServiceError.nothingCached("\(asset.symbol)/\(quote)")
      }
      let fetchedAt = latest?.fetchedAt ?? lookup.entry?.fetchedAt ?? currentTime
      // After a failed fetch the answer is always marked stale; offline,
      // only when it is older than the source's freshness.
      let fresh = reason == nil && latestFresh && pastCovered
      return answer(
        fetchedAt: fetchedAt, staleness: fresh ? nil : Staleness(fetchedAt: fetchedAt, reason: reason),
        latest: latest)
    }

    return try await CacheFallback.answer(
      mode: mode, hasCache: cached != nil || latest != nil, isFresh: pastCovered && latestFresh,
      fromCache: fallback
    ) {
      var coverage = cached?.coverage
      var newLatest = mode == .normal && latestFresh ? latest : nil
      if !pastCovered || mode == .refresh {
        let fetched = try await source.dailyCloses(asset, quote, window)
        for point in fetched.closes { closes[point.date] = point }
        // Covered: the settled days up to the newest value that came back.
        // For rates that stand over closed days, a current feed also covers
        // the settled days after its newest value (a weekend, a holiday).
        if let settled = settledThrough(currentTime), let past,
          let newest = fetched.closes.map(\.date).max()
        {
          let through = source.carriesForward && newest.distance(to: settled) <= 4
            ? settled : min(settled, newest)
          if min(through, past.upperBound) >= past.lowerBound {
            let span = DaySpan(from: past.lowerBound, through: min(through, past.upperBound))
            coverage = coverage.map { $0.merged(with: span) } ?? span
          }
        }
        // Keep what came back even if the price request below fails.
        saveHistory(closes, coverage: coverage, latest: cached.flatMap { value in
          value.latest.flatMap { point in value.latestFetchedAt.map { LatestPoint(point: point, fetchedAt: $0) } }
        }, key: key, at: currentTime)
        if let quoteNow = fetched.latest {
          newLatest = LatestPoint(
            point: RatePoint(date: Self.day(of: quoteNow, today: today), rate: quoteNow.rate),
            fetchedAt: quoteNow.fetchedAt)
        }
      }
      if newLatest == nil, let price = try await source.prices([AssetQuote(asset: asset, quote: quote)]).first {
        newLatest = LatestPoint(
          point: RatePoint(date: Self.day(of: price, today: today), rate: price.rate),
          fetchedAt: price.fetchedAt)
        save(price, key: priceKey)
      }
      saveHistory(closes, coverage: coverage, latest: newLatest, key: key, at: currentTime)
      return answer(
        fetchedAt: newLatest?.fetchedAt ?? currentTime, staleness: nil, latest: newLatest)
    }
  }

  /// Stores the settled closes (at most 400 days), the coverage and the latest price.
  func saveHistory(
    _ closes: [Day: RatePoint], coverage: DaySpan?, latest: LatestPoint?, key: String, at instant: Date
  ) {
    let settledLimit = settledThrough(instant)
    let kept = closes.values.filter { point in settledLimit.map { point.date <= $0 } ?? false }
      .sorted { $0.date < $1.date }.suffix(400)
    save(
      HistoryCacheValue(
        closes: Array(kept), coverage: coverage, latest: latest?.point,
        latestFetchedAt: latest?.fetchedAt),
      key: key)
  }

  /// A latest price as a point, with when it was fetched.
  struct LatestPoint: Sendable {
    var point: RatePoint
    var fetchedAt: Date
  }

  /// The newest cached latest price: the history entry's own, or a cached
  /// current price, whichever was fetched last.
  func cachedLatest(_ cached: HistoryCacheValue?, priceKey: String, today: Day) -> LatestPoint? {
    var latest: LatestPoint?
    if let point = cached?.latest, let at = cached?.latestFetchedAt {
      latest = LatestPoint(point: point, fetchedAt: at)
    }
    if let price = cache.load(Quote.self, key: priceKey).entry,
      price.fetchedAt > (latest?.fetchedAt ?? .distantPast)
    {
      latest = LatestPoint(
        point: RatePoint(date: Self.day(of: price.value, today: today), rate: price.value.rate),
        fetchedAt: price.fetchedAt)
    }
    return latest
  }

  /// The last day whose close is final at `instant`: providers publish a
  /// completed day shortly after midnight UTC, so allow
  /// ``CacheFreshness/closeSettling``.
  func settledThrough(_ instant: Date) -> Day? {
    Day(containing: instant.addingTimeInterval(-CacheFreshness.closeSettling)).adding(days: -1)
  }
}
