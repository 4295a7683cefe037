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
  /// The days this run has asked for (shared by the services of one run).
  let asked: AskedDays

  /// Creates a service.
  ///
  /// - Parameters:
  ///   - notify: receives notices (a corrupt cache file, an unwritable directory, data that
  ///     ends early).
  ///   - asked: the days the run has asked for, shared by its services; its own by default.
  public init(
    source: PriceSource, cache: JSONFileCache, mode: CacheMode,
    now: @escaping @Sendable () -> Date, notify: @escaping @Sendable (Notice) -> Void,
    asked: AskedDays = AskedDays()
  ) {
    self.source = source
    self.cache = cache
    self.mode = mode
    self.now = now
    self.notify = notify
    self.asked = asked
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

  /// The days of `window` that have no point in `points`.
  static func gaps(in window: ClosedRange<Day>, points: [RatePoint]) -> [Day] {
    // Points are oldest first: walk both in step (no set of every day).
    let listed = points.map(\.date)
    let dates = listed.isSorted(by: <) ? listed : listed.sorted()
    var gaps: [Day] = []
    var next = dates.startIndex
    for day in window {
      while next < dates.endIndex && dates[next] < day { next += 1 }
      if next == dates.endIndex || dates[next] != day { gaps.append(day) }
    }
    return gaps
  }

  func priceKey(_ asset: Asset, _ quote: CurrencyCode) -> String {
    "\(source.name)/price/\(asset.id)-\(quote)"
  }

  /// The permanent store of settled days, beside the cache's entries.
  var dayStore: DayStore { DayStore(directory: cache.directory) }

  func save<Value: Codable & Sendable>(_ value: Value, key: String) {
    do {
      try cache.save(value, key: key, source: source.name.rawValue, fetchedAt: now())
    } catch {
      notify(.cacheNotUpdated(reason: error.readableDescription))
    }
  }
}
