/// One timestamped value of a rate (an hourly point).
public struct TimedRate: Hashable, Sendable, Codable {
  /// When the provider sampled the value.
  public var time: Date
  /// How many units of the quote currency one unit of the base buys.
  public var rate: Double

  /// Creates a point.
  public init(time: Date, rate: Double) {
    self.time = time
    self.rate = rate
  }
}

/// An hourly series of one coin pair, oldest first: CoinGecko's automatic
/// granularity for 2 to 90 days. Kept apart from ``RateSeries``, whose
/// points are one per UTC day.
public struct HourlySeries: Hashable, Sendable, Codable {
  /// The asset being priced, upper case.
  public var base: String
  /// The currency of the price.
  public var quote: CurrencyCode
  /// Where the data came from.
  public var source: RateSource
  /// When the data was fetched from the provider.
  public var fetchedAt: Date
  /// The points, oldest first (the last may be "now", off the hour).
  public var points: [TimedRate]

  /// Creates a series.
  public init(base: String, quote: CurrencyCode, source: RateSource, fetchedAt: Date, points: [TimedRate]) {
    self.base = base
    self.quote = quote
    self.source = source
    self.fetchedAt = fetchedAt
    self.points = points
  }

  /// The same series priced the other way round (``RateInversion/inverse(of:)``, at
  /// ``Figure/ratio(_:)``'s precision); a point whose rate has none (zero) dropped.
  public func inverted() -> HourlySeries {
    var copy = self
    copy.base = quote.text
    copy.quote = CurrencyCode(base)
    copy.points = points.compactMap { point in
      RateInversion.inverse(of: point.rate).map { TimedRate(time: point.time, rate: Figure.ratio($0)) }
    }
    return copy
  }
}

/// The rules of hourly history: coin pairs only (ECB rates are daily), and
/// only within the last ``maximumDays`` days, where CoinGecko's
/// `/coins/{id}/market_chart?days=N` (without `interval=daily`) is hourly.
public enum HourlyHistory {
  /// How far back hourly points reach, in days counting today.
  public static let maximumDays = 90

  /// How long a fetched hourly series answers again without a request.
  public static let freshness: TimeInterval = 300

  /// Why an hourly request is refused before any fetch.
  public enum Refusal: Error, Equatable, Sendable {
    /// The pair routes to a daily provider (the ECB, CoinDesk's closes).
    case dailyOnly(Provider)
    /// The window starts before the oldest day hourly points reach (`earliest`).
    case tooOld(first: Day, earliest: Day)
  }

  /// The oldest day hourly points reach on `today`.
  public static func earliestDay(today: Day) -> Day { today.adding(days: -(maximumDays - 1)) }

  /// Checks that `route` and `window` can be answered hourly.
  public static func check(_ route: PairRoute, window: ClosedRange<Day>, today: Day) throws(Refusal) {
    guard route.provider == .coinGecko else {
      throw .dailyOnly(route.provider)
    }
    let earliest = earliestDay(today: today)
    if window.lowerBound < earliest { throw .tooOld(first: window.lowerBound, earliest: earliest) }
  }
}
