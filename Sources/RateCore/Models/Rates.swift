import Foundation

/// One day's value of a rate.
public struct RatePoint: Hashable, Sendable, Codable {
  /// The UTC day the value belongs to.
  public var date: Day
  /// How many units of the quote currency one unit of the base buys.
  public var rate: Double
  /// True when the day had no value of its own and repeats an earlier day's
  /// (weekends and holidays for ECB rates, gaps in a provider's data).
  public var carried: Bool

  public init(date: Day, rate: Double, carried: Bool = false) {
    self.date = date
    self.rate = rate
    self.carried = carried
  }
}

/// A daily series of rates for one pair, ordered oldest first.
public struct RateSeries: Hashable, Sendable, Codable {
  /// The asset being priced, upper case (`BTC`, `GBP`).
  public var base: String
  /// The currency the price is in, upper case (`EUR`).
  public var quote: String
  /// The provider that supplied the data (`coingecko`, `coindesk`).
  public var source: String
  /// When the newest data in the series was fetched from the provider.
  public var fetchedAt: Date
  /// The points, oldest first, one per day.
  public var points: [RatePoint]

  public init(base: String, quote: String, source: String, fetchedAt: Date, points: [RatePoint]) {
    self.base = base
    self.quote = quote
    self.source = source
    self.fetchedAt = fetchedAt
    self.points = points
  }
}

extension RateSeries {
  /// The points with a value of their own: carried days (ECB weekends and
  /// holidays) left out, so they do not weigh on statistics. All points when
  /// every one is carried.
  public var ownPoints: [RatePoint] {
    let own = points.filter { !$0.carried }
    return own.isEmpty ? points : own
  }
}

/// A current price of one asset in one currency.
public struct Quote: Hashable, Sendable, Codable {
  /// The asset being priced, upper case.
  public var base: String
  /// The currency of the price, upper case.
  public var quote: String
  /// The price.
  public var rate: Double
  /// The change over the last 24 hours in percent, when the provider knows it.
  public var change24hPercent: Double?
  /// The provider that supplied the price.
  public var source: String
  /// When `rates` fetched the price.
  public var fetchedAt: Date
  /// When the provider last updated the price, when it says.
  public var updatedAt: Date?

  public init(
    base: String, quote: String, rate: Double, change24hPercent: Double?, source: String,
    fetchedAt: Date, updatedAt: Date?
  ) {
    self.base = base
    self.quote = quote
    self.rate = rate
    self.change24hPercent = change24hPercent
    self.source = source
    self.fetchedAt = fetchedAt
    self.updatedAt = updatedAt
  }
}
