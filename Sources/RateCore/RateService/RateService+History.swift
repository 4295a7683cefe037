extension RateService {
  /// A daily series and whether it came from stale cache.
  public struct HistoryResult: Sendable {
    /// The series, oldest first, ending today (or the newest day with data).
    public var series: RateSeries
    /// Set when cached data stands in for a fresh answer.
    public var staleness: Staleness?
    /// Set when the past days arrived (or were cached) but today's price did
    /// not, and no cached price stands in: today is a gap, for this reason.
    public var latestMissing: ProviderError?
    /// The coin or currency the series prices, as the provider resolved what was typed
    /// (`kaspa` for `kaspa`): what names it in a journal (see ``CommodityName/of(_:source:resolved:)``).
    public var asset: Asset?
    /// The days of the window (and the ECB closures before it) an answer left
    /// out, each with when it is asked again: not answered yet, not "no data".
    public var leftOut: [Day: Date] = [:]

    /// Creates a result.
    public init(
      series: RateSeries, staleness: Staleness?, latestMissing: ProviderError? = nil,
      asset: Asset? = nil
    ) {
      self.series = series
      self.staleness = staleness
      self.latestMissing = latestMissing
      self.asset = asset
    }
  }

  /// A span of days, both ends included.
  struct DaySpan: Codable, Sendable, Equatable {
    var from: Day
    var through: Day
  }

  /// What the history cache holds for one pair.
  struct HistoryCacheValue: Codable, Sendable {
    /// Settled closes, oldest first.
    var closes: [RatePoint]
    /// The settled days the closes were fetched for. A day inside it with no
    /// close had none at the provider (an ECB weekend or holiday): it is not
    /// fetched again.
    var coverage: DaySpan?
    /// The latest price, when it was fetched and when the provider updated it.
    var latest: RatePoint?
    var latestFetchedAt: Date?
    var latestUpdatedAt: Date?
    /// The provider the latest price came from (absent in entries written before it was kept).
    var latestSource: String? = nil
    /// The last answer's closes of days not settled yet (absent in entries written before).
    var unsettled: UnsettledCloses? = nil
  }

  /// Closes of past days that were not settled when fetched (the hour after midnight UTC,
  /// ``CacheFreshness/closeSettling``): shown but never stored, and kept with the latest
  /// price so that, like it, they are asked again only once stale (the source's
  /// ``PriceSource/freshness``), not on every run of that hour; stale, they stand in as it
  /// does (offline, after a failed fetch), marked stale, until their days settle.
  struct UnsettledCloses: Codable, Sendable, Equatable {
    /// The days the answer was asked for, with or without a close.
    var days: DaySpan
    var closes: [RatePoint]
    var fetchedAt: Date
    /// The provider that answered (absent when not known).
    var source: String?

    /// The closes `fetched` brings for the days of `span` after `settled` and before
    /// `today` (and before a part of the answer that failed), as fetched at `instant`; nil
    /// when `span` has no such day.
    init?(_ fetched: DailyCloses, in span: ClosedRange<Day>, settled: Day?, today: Day, at instant: Date) {
      let brought = fetched.cutShort.map { $0.from.adding(days: -1) } ?? span.upperBound
      let first = max(span.lowerBound, settled.map { $0.adding(days: 1) } ?? span.lowerBound)
      let last = min(span.upperBound, brought, today.adding(days: -1))
      guard first <= last else { return nil }
      days = DaySpan(from: first, through: last)
      closes = fetched.closes.filter { first <= $0.date && $0.date <= last }
      fetchedAt = instant
      source = fetched.source?.name
    }

    /// Its days after `settled` (those not settled yet); nil when none is left.
    func after(_ settled: Day?) -> UnsettledCloses? {
      var left = self
      if let settled { left.days.from = max(days.from, settled.adding(days: 1)) }
      guard left.days.from <= left.days.through else { return nil }
      left.closes = closes.filter { left.covers($0.date) }
      return left
    }

    /// Whether the answer was asked for `day`.
    func covers(_ day: Day) -> Bool { days.from <= day && day <= days.through }

    /// The close of `day`, if the answer had one.
    func close(on day: Day) -> RatePoint? { closes.first { $0.date == day } }

    /// Whether its days end before the day it was fetched on (an unsettled day is a past one)
    /// and its closes are plausible prices inside them.
    var isPlausible: Bool {
      days.from <= days.through && days.through < Day(containing: fetchedAt) && closes.isPlausible
        && closes.allSatisfy { covers($0.date) }
    }
  }

  /// The last `days` days of `input` in `currency`; the last point is the
  /// latest price.
  ///
  /// Settled past days come from the cache when it covers them; today's
  /// value is fresh for the source's ``PriceSource/freshness``. A failed
  /// fetch falls back to whatever is cached, marked stale.
  public func history(of input: String, in currency: CurrencyCode, days: Int) async throws
    -> HistoryResult
  {
    try await history(of: input, in: currency, window: lastDays(days), followsData: true)
  }

  /// The last `days` days of an already resolved `asset` in `currency`.
  public func history(of asset: Asset, in currency: CurrencyCode, days: Int) async throws
    -> HistoryResult
  {
    try await history(of: asset, in: currency, window: lastDays(days), followsData: true)
  }

  /// The `days` days up to today.
  private func lastDays(_ days: Int) -> ClosedRange<Day> {
    let today = Day(containing: now())
    return today.adding(days: -(days - 1))...today
  }

  /// The days of `window` (cut at today) of `input` in `currency`: settled
  /// days from the cache where it has them, only the missing part fetched.
  ///
  /// - Parameter followsData: `window` is "the last N days", not a range the
  ///   user named: data that ends before it (a recorded mirror, the ECB
  ///   snapshot) is then shown as its own last N days. A named range is
  ///   never moved.
  public func history(
    of input: String, in currency: CurrencyCode, window: ClosedRange<Day>, followsData: Bool = false
  ) async throws -> HistoryResult {
    try source.validateQuote(currency)
    return try await history(
      of: try await source.resolve(input), in: currency, window: window, followsData: followsData)
  }

  /// The days of `window` (cut at today) of an already resolved `asset`
  /// (`followsData` as for ``history(of:in:window:followsData:)``).
  public func history(
    of asset: Asset, in quote: CurrencyCode, window: ClosedRange<Day>, followsData: Bool = false
  ) async throws -> HistoryResult {
    try source.validateQuote(quote)
    if CurrencyCode(asset.id) == quote || CurrencyCode(asset.symbol) == quote {
      throw ProviderError.unsupported(
        provider: .provider(source.name),
        detail: "\(asset.symbol) in \(quote) is always 1: pick two different currencies")
    }
    let request = HistoryRequest(
      service: self, asset: asset, quote: quote, window: window, followsData: followsData)
    var result = try await CacheFallback.answer(
      mode: mode, hasCache: request.hasCache, isFresh: request.isFresh,
      // Nothing cached near the window: the snapshot answers before an empty store.
      lastResortIsNewer: request.newestCachedDay.map(snapshotIsNewer(than:)) ?? true,
      fromCache: request.fromCache, lastResort: request.fromSnapshot, fetch: request.fetch)
    result.asset = asset
    return result
  }

  /// The day store's key for a history key: `<provider>/<asset>-<quote>`.
  /// Every `/history/` becomes `/` (``Swift/String/replacingUTF8(_:with:)``: no run-time
  /// conformance lookup on the warm path).
  static func dayKey(historyKey: String) -> String {
    historyKey.replacingUTF8("/history/", with: "/")
  }

  /// Stores `answered`'s settled days in the permanent day store (a stored
  /// value is replaced only when `replacing`: `--refresh`), and the latest
  /// price in the cache entry. An entry of the older format (closes inside)
  /// is rewritten without them (`rewriteEntry`), once they are in the store.
  func saveHistory(
    _ answered: DayStore.Days, replacing: Bool = false, latest: LatestPoint?,
    unsettled: UnsettledCloses? = nil, key: String, at instant: Date, rewriteEntry: Bool = false
  ) {
    var days = answered
    if let settled = settledThrough(instant) {
      if let span = days.span, span.upperBound > settled {
        for day in settled.adding(days: 1)...span.upperBound { days.clear(day) }
      }
    } else {
      days = DayStore.Days()
    }
    do {
      try dayStore.save(
        days, key: Self.dayKey(historyKey: key), replacing: replacing, firstDay: source.firstDay)
    } catch {
      notify(.cacheNotUpdated(reason: error.readableDescription))
      return
    }
    guard latest != nil || unsettled != nil || rewriteEntry else { return }
    save(
      HistoryCacheValue(
        closes: [], coverage: nil, latest: latest?.point,
        latestFetchedAt: latest?.fetchedAt, latestUpdatedAt: latest?.updatedAt,
        latestSource: latest?.source?.name, unsettled: unsettled),
      key: key)
  }

  /// A latest price as a point, with when it was fetched and when the
  /// provider last updated it.
  struct LatestPoint: Sendable {
    var point: RatePoint
    var fetchedAt: Date
    var updatedAt: Date?
    /// The provider it came from; nil when not known (an entry written before it was kept).
    var source: RateSource? = nil

    /// The moment the price belongs to: the provider's update, else the fetch.
    var stamp: Date { updatedAt ?? fetchedAt }
  }

  /// The newest cached latest price: the history entry's own, or a cached
  /// current price, whichever the provider updated last (then fetched last).
  /// A price stamped earlier never displaces a later one, even when fetched
  /// after it.
  func cachedLatest(_ cached: HistoryCacheValue?, priceKey: String, today: Day) -> LatestPoint? {
    var latest: LatestPoint?
    if let point = cached?.latest, let at = cached?.latestFetchedAt {
      latest = LatestPoint(
        point: point, fetchedAt: at, updatedAt: cached?.latestUpdatedAt,
        source: cached?.latestSource.flatMap(RateSource.init(name:)))
    }
    if let price = cache.load(Quote.self, key: priceKey).entry {
      latest = HistoryRequest.newer(
        LatestPoint(
          point: RatePoint(date: Self.day(of: price.value, today: today), rate: price.value.rate),
          fetchedAt: price.fetchedAt, updatedAt: price.value.updatedAt, source: price.value.source),
        latest)
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
