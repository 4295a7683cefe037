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
  public let source: PriceSource
  let cache: JSONFileCache
  let mode: CacheMode
  let now: @Sendable () -> Date
  let notify: @Sendable (Notice) -> Void

  /// Creates a service.
  ///
  /// - Parameter notify: receives notices (a corrupt cache file, an
  ///   unwritable directory, data that ends early).
  public init(
    source: PriceSource, cache: JSONFileCache, mode: CacheMode,
    now: @escaping @Sendable () -> Date, notify: @escaping @Sendable (Notice) -> Void
  ) {
    self.source = source
    self.cache = cache
    self.mode = mode
    self.now = now
    self.notify = notify
  }

  /// Why the service has nothing to show.
  public enum ServiceError: Error, Equatable, Sendable {
    /// Offline, and nothing cached for this request (named in the payload).
    case nothingCached(String)
    /// Offline, and this coin name was never looked up (so its id is unknown).
    case notLookedUp(String)
  }

  /// The day a price belongs to: the day the provider last updated it (a
  /// frozen or replayed feed is not today's), never later than today.
  public static func day(of quote: Quote, today: Day) -> Day {
    quote.updatedAt.map { min(Day(containing: $0), today) } ?? today
  }

  /// The points of `window`: each day's own value, or the value of an
  /// earlier day of the window when `carries(from, to)` allows it (marked
  /// `carried`). Values from before the window are never carried into it, and
  /// days with neither are left out (they are the series' gaps).
  static func fill(
    _ byDay: [Day: RatePoint], in window: ClosedRange<Day>,
    carries: (_ from: Day, _ to: Day) -> Bool = { _, _ in false }
  ) -> [RatePoint] {
    fill(lookup: { byDay[$0] }, in: window, carries: carries)
  }

  /// ``fill(_:in:carries:)`` reading each day's point through `lookup`, so a
  /// caller that adds a point (today's price) need not copy a long dictionary.
  static func fill(
    lookup: (Day) -> RatePoint?, in window: ClosedRange<Day>,
    carries: (_ from: Day, _ to: Day) -> Bool = { _, _ in false }
  ) -> [RatePoint] {
    var previous: RatePoint?
    var points: [RatePoint] = []
    points.reserveCapacity(window.lowerBound.distance(to: window.upperBound) + 1)
    var day = window.lowerBound
    while day <= window.upperBound {
      if let point = lookup(day) {
        points.append(point)
        if !point.carried { previous = point }
      } else if let previous, carries(previous.date, day) {
        points.append(RatePoint(date: day, rate: previous.rate, carried: true))
      }
      day = day.adding(days: 1)
    }
    return points
  }

  /// ECB rates over `window`: each working day's rate, carried over market
  /// closures inside the window (``MarketClosure``), and today's point the
  /// newest rate while it still stands, even when published before the window.
  static func standingRates(_ byDay: [Day: RatePoint], in window: ClosedRange<Day>, today: Day)
    -> [RatePoint]
  {
    standingRates(lookup: { byDay[$0] }, in: window, today: today)
  }

  /// ``standingRates(_:in:today:)`` reading each day's point through `lookup`.
  static func standingRates(
    lookup: (Day) -> RatePoint?, in window: ClosedRange<Day>, today: Day
  ) -> [RatePoint] {
    var todayPoint: RatePoint?
    // The newest earlier rate: one that can still stand is at most
    // `maximumCarriedDays + 1` days old, so look no further back.
    let recent = (1...(MarketClosure.maximumCarriedDays + 1)).lazy.map { today.adding(days: -$0) }
    if window.contains(today), lookup(today) == nil,
      let newest = recent.first(where: { lookup($0) != nil }), let rate = lookup(newest)?.rate,
      MarketClosure.rateStands(from: newest, on: today, today: today)
    {
      todayPoint = RatePoint(date: today, rate: rate, carried: true)
    }
    return fill(lookup: { $0 == today ? todayPoint ?? lookup($0) : lookup($0) }, in: window) {
      MarketClosure.rateStands(from: $0, on: $1, today: today)
    }
  }

  /// The days of `window` that have no point in `points`.
  static func gaps(in window: ClosedRange<Day>, points: [RatePoint]) -> [Day] {
    // Points are oldest first: walk both in step (no set of every day).
    let listed = points.map(\.date)
    let dates = listed.isSorted(by: <) ? listed : listed.sorted()
    var gaps: [Day] = []
    var next = dates.startIndex
    for offset in 0...window.lowerBound.distance(to: window.upperBound) {
      let day = window.lowerBound.adding(days: offset)
      while next < dates.endIndex && dates[next] < day { next += 1 }
      if next == dates.endIndex || dates[next] != day { gaps.append(day) }
    }
    return gaps
  }

  func priceKey(_ asset: Asset, _ quote: String) -> String {
    "\(source.name)/price/\(asset.id)-\(quote)"
  }

  /// The permanent store of settled days, beside the cache's entries.
  var dayStore: DayStore { DayStore(directory: cache.directory) }

  func save<Value: Codable & Sendable>(_ value: Value, key: String) {
    do {
      try cache.save(value, key: key, source: source.name, fetchedAt: now())
    } catch {
      notify(.cacheNotUpdated(reason: error.readableDescription))
    }
  }
}
