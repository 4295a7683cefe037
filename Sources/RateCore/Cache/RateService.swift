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
  public static func fill(
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

  public func priceKey(_ asset: Asset, _ quote: String) -> String {
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
