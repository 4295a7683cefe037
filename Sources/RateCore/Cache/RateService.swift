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

  /// One point per day of `window` up to its newest value, carrying the
  /// previous day's value over gaps (marked `carried`), also from a value
  /// just before the window. Days after the newest value, and leading days
  /// with nothing to carry, are left out rather than invented.
  ///
  /// - Parameter carryThrough: for rates that stand until replaced (ECB), the
  ///   day up to which the newest value carries (normally today).
  static func fill(
    _ byDay: [Day: RatePoint], in window: ClosedRange<Day>, carryThrough: Day? = nil
  ) -> [RatePoint] {
    // A value from before the window (Friday's ECB rate for a window that
    // starts on a Saturday) carries into its first days.
    var previous = byDay.keys.filter { $0 < window.lowerBound }.max().flatMap { byDay[$0] }
    let newest = byDay.keys.filter { window.contains($0) }.max()
      ?? (carryThrough != nil && previous != nil ? window.lowerBound : nil)
    guard let newest else { return [] }
    let lastKnown = max(newest, min(carryThrough ?? newest, window.upperBound))
    var points: [RatePoint] = []
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

  func priceKey(_ asset: Asset, _ quote: String) -> String {
    "\(source.name)/price/\(asset.id)-\(quote)"
  }

  func save<Value: Codable & Sendable>(_ value: Value, key: String) {
    do {
      try cache.save(value, key: key, source: source.name, fetchedAt: now())
    } catch {
      notify(.cacheNotUpdated(reason: error.localizedDescription))
    }
  }
}
