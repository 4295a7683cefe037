import Foundation

/// One `RateService.history` call: what the cache holds for the pair, what
/// is due, and the steps that answer from the cache or fetch what is missing.
struct HistoryRequest: Sendable {
  typealias LatestPoint = RateService.LatestPoint

  let service: RateService
  let asset: Asset
  let quote: String
  let days: Int
  let currentTime: Date
  let today: Day
  /// The days shown: `days` days ending today.
  let window: ClosedRange<Day>
  /// The settled days of the window (all but today), if any.
  let past: ClosedRange<Day>?
  let key: String
  let priceKey: String
  let cached: RateService.HistoryCacheValue?
  let cachedFetchedAt: Date?
  /// The cached closes by day.
  let closes: [Day: RatePoint]
  /// Whether the cache answers for every settled day of the window.
  let pastCovered: Bool
  /// The newest cached latest price.
  let latest: LatestPoint?

  init(service: RateService, asset: Asset, quote: String, days: Int) {
    self.service = service
    self.asset = asset
    self.quote = quote
    self.days = days
    currentTime = service.now()
    today = Day(containing: currentTime)
    window = today.adding(days: -(days - 1))...today
    past = days > 1 ? window.lowerBound...today.adding(days: -1) : nil
    key = "\(service.source.name)/history/\(asset.id)-\(quote)"
    priceKey = service.priceKey(asset, quote)
    // Read even when refreshing: the cache is not the answer then, but it
    // is still the fallback when the fetch fails.
    let lookup = service.cache.load(RateService.HistoryCacheValue.self, key: key)
    if case .unusable(let reason) = lookup { service.notify(.cacheUnusable(reason)) }
    cached = lookup.entry?.value
    cachedFetchedAt = lookup.entry?.fetchedAt
    closes = Dictionary((cached?.closes ?? []).map { ($0.date, $0) }, uniquingKeysWith: { $1 })
    pastCovered = Self.covers(past, closes: closes, cached: cached, source: service.source)
    latest = service.cachedLatest(cached, priceKey: priceKey, today: today)
  }

  /// Rates that stand over closed days (ECB) have days without a value of
  /// their own: those are covered once fetched. Elsewhere a missing day is a
  /// hole, fetched again until it is filled.
  static func covers(
    _ past: ClosedRange<Day>?, closes: [Day: RatePoint], cached: RateService.HistoryCacheValue?,
    source: PriceSource
  ) -> Bool {
    guard let past else { return true }
    if source.carriesForward { return cached?.coverage?.contains(past) ?? false }
    return stride(from: 0, through: past.lowerBound.distance(to: past.upperBound), by: 1)
      .allSatisfy { closes[past.lowerBound.adding(days: $0)] != nil }
  }

  var hasCache: Bool { cached != nil || latest != nil }

  var latestFresh: Bool {
    latest.map {
      CacheFreshness.isFresh($0.fetchedAt, at: currentTime, for: service.source.freshness)
    } ?? false
  }

  var isFresh: Bool { pastCovered && latestFresh }

  // MARK: - Answers

  /// The answer from the cache: stale after a failed fetch (`reason`), and
  /// offline when older than the source's freshness.
  func fromCache(_ reason: ProviderError?) throws -> RateService.HistoryResult {
    guard hasCache else {
      throw RateService.ServiceError.nothingCached("\(asset.symbol)/\(quote)")
    }
    let fetchedAt = latest?.fetchedAt ?? cachedFetchedAt ?? currentTime
    let fresh = reason == nil && isFresh
    return answer(
      closes: closes, latest: latest, fetchedAt: fetchedAt,
      staleness: fresh ? nil : Staleness(fetchedAt: fetchedAt, reason: reason))
  }

  /// The series for `closes` and `latest`, one point per day of the window.
  func answer(
    closes: [Day: RatePoint], latest: LatestPoint?, fetchedAt: Date, staleness: Staleness?
  ) -> RateService.HistoryResult {
    var byDay = closes
    if let latest { byDay[latest.point.date] = latest.point }
    // ECB rates stand over weekends and holidays: carry a recent one to today.
    let newest = byDay.keys.filter { $0 <= today }.max()
    let carries = service.source.carriesForward && (newest.map { $0.distance(to: today) <= 4 } ?? false)
    var points = RateService.fill(byDay, in: window, carryThrough: carries ? today : nil)
    // A mirror serving recorded data may have nothing this recent: show
    // its newest `days` days, honestly dated, rather than nothing.
    if points.isEmpty, let newest {
      points = RateService.fill(byDay, in: newest.adding(days: -(days - 1))...newest)
      service.notify(
        .dataEndsEarly(
          provider: service.source.name, pair: "\(asset.symbol)/\(quote)", newest: newest,
          days: days))
    }
    return RateService.HistoryResult(
      series: RateSeries(
        base: asset.symbol, quote: quote, source: service.source.name, fetchedAt: fetchedAt,
        points: points),
      staleness: staleness)
  }

  // MARK: - Fetching

  /// Fetches the missing closes (all of them when refreshing) and the latest
  /// price, writes the cache once, and answers. When the closes arrive but
  /// the price fails, the closes are kept before the failure propagates.
  func fetch() async throws -> RateService.HistoryResult {
    var closes = self.closes
    var coverage = cached?.coverage
    var newLatest = service.mode == .normal && latestFresh ? latest : nil
    var fetchedCloses = false
    if !pastCovered || service.mode == .refresh {
      let fetched = try await service.source.dailyCloses(asset, quote, window)
      for point in fetched.closes { closes[point.date] = point }
      coverage = covered(coverage, by: fetched)
      fetchedCloses = true
      if let now = fetched.latest { newLatest = point(of: now) }
    }
    if newLatest == nil {
      do {
        if let price = try await service.source.prices([AssetQuote(asset: asset, quote: quote)]).first {
          newLatest = point(of: price)
          service.save(price, key: priceKey)
        }
      } catch {
        if fetchedCloses { save(closes, coverage: coverage, latest: cachedLatestPoint) }
        throw error
      }
    }
    save(closes, coverage: coverage, latest: newLatest)
    return answer(
      closes: closes, latest: newLatest, fetchedAt: newLatest?.fetchedAt ?? currentTime,
      staleness: nil)
  }

  /// The coverage after `fetched`: the settled days up to the newest value
  /// that came back. For rates that stand over closed days, a current feed
  /// also covers the settled days after its newest value (a weekend, a holiday).
  func covered(_ coverage: RateService.DaySpan?, by fetched: DailyCloses) -> RateService.DaySpan? {
    guard let settled = service.settledThrough(currentTime), let past,
      let newest = fetched.closes.map(\.date).max()
    else { return coverage }
    let through = service.source.carriesForward && newest.distance(to: settled) <= 4
      ? settled : min(settled, newest)
    guard min(through, past.upperBound) >= past.lowerBound else { return coverage }
    let span = RateService.DaySpan(from: past.lowerBound, through: min(through, past.upperBound))
    return coverage.map { $0.merged(with: span) } ?? span
  }

  /// A quote as the latest point, dated by the provider's update.
  func point(of quote: Quote) -> LatestPoint {
    LatestPoint(
      point: RatePoint(date: RateService.day(of: quote, today: today), rate: quote.rate),
      fetchedAt: quote.fetchedAt)
  }

  /// The history entry's own latest price, as cached.
  var cachedLatestPoint: LatestPoint? {
    guard let point = cached?.latest, let at = cached?.latestFetchedAt else { return nil }
    return LatestPoint(point: point, fetchedAt: at)
  }

  func save(_ closes: [Day: RatePoint], coverage: RateService.DaySpan?, latest: LatestPoint?) {
    service.saveHistory(closes, coverage: coverage, latest: latest, key: key, at: currentTime)
  }
}
