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
