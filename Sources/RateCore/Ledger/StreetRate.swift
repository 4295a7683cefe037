import FoundationEssentials

/// The street rate: what a pair no provider serves (USD/LBP) is worth by the user's own
/// exchanges, the one rule the portfolio, `pairs`, `watch` and the home list price it by.
///
/// The street rate on a day is the ledger's rate (``LedgerSeries/rate(base:quote:days:entries:today:)``,
/// the midpoint of the amount-weighted buys and sells) over the ``days`` days ending on the
/// last day, on or before it, with an exchange of the pair; it is dated that day.
public enum StreetRate {
  /// The days a street rate averages.
  public static let days = 3

  /// The days of a street-rate pair's week (its sparkline).
  public static let weekDays = 7

  /// The street rate of `base` in `quote` on a day, and the day it is dated.
  public struct Value: Sendable, Equatable {
    /// The ledger's rate over the ``StreetRate/days`` days ending on ``day``.
    public var rate: LedgerRate
    /// The last day with an exchange of the pair on or before the day asked.
    public var day: Day
  }

  /// The days with an exchange of `base` against `quote` (either way round), oldest first.
  public static func exchangeDays(base: CurrencyCode, quote: CurrencyCode, entries: [LedgerEntry]) -> [Day] {
    Set(entries.lazy.filter { $0.rate(base: base, quote: quote) != nil }.map(\.date)).sorted()
  }

  /// The last of the sorted `exchangeDays` on or before `day`, if any.
  public static func lastExchangeDay(in exchangeDays: [Day], onOrBefore day: Day) -> Day? {
    let after = exchangeDays.partitioningIndex(where: { $0 > day })
    return after > 0 ? exchangeDays[after - 1] : nil
  }

  /// The street rate of `base` in `quote` over the ``days`` days ending on `last`, a day with
  /// an exchange of the pair.
  /// - Throws: ``LedgerQueryError/noExchanges(base:quote:days:)``.
  public static func rate(base: CurrencyCode, quote: CurrencyCode, endingOn last: Day, entries: [LedgerEntry])
    throws -> LedgerRate
  {
    try LedgerSeries.rate(base: base, quote: quote, days: days, entries: entries, today: last)
  }

  /// The street rate of `base` in `quote` on `day` (see ``StreetRate``).
  /// - Throws: ``LedgerQueryError/neverExchanged(base:quote:)`` when the ledger has no
  ///   exchange of the pair on or before `day`.
  public static func value(base: CurrencyCode, quote: CurrencyCode, on day: Day, entries: [LedgerEntry]) throws
    -> Value
  {
    let exchanges = exchangeDays(base: base, quote: quote, entries: entries)
    guard let last = lastExchangeDay(in: exchanges, onOrBefore: day) else {
      throw LedgerQueryError.neverExchanged(base: base, quote: quote)
    }
    return Value(rate: try rate(base: base, quote: quote, endingOn: last, entries: entries), day: last)
  }

  /// Whether the ledger has an exchange of `base` against `quote`.
  public static func isRecorded(base: CurrencyCode, quote: CurrencyCode, entries: [LedgerEntry]) -> Bool {
    entries.contains { $0.rate(base: base, quote: quote) != nil }
  }

  /// A street-rate pair for a board: the street rate at `now` (a computed figure at
  /// ``Figure/ratio(_:)``'s precision) dated by its last exchange day, its change since the
  /// street rate of the exchange day before (period ``ChangePeriod/workingDay``), and the
  /// daily averages of the days with exchanges in the last ``weekDays`` days (a day without
  /// one has no point), sourced ``RateSource/ledger``.
  /// - Throws: ``LedgerQueryError/neverExchanged(base:quote:)`` without any exchange of the
  ///   pair up to today.
  public static func snapshot(_ pair: ConfiguredPair, entries: [LedgerEntry], now: Date) throws
    -> PairSnapshot
  {
    let today = Day(containing: now)
    let (base, quote) = (CurrencyCode(pair.base), CurrencyCode(pair.quote))
    let current = try value(base: base, quote: quote, on: today, entries: entries)
    let exchanges = exchangeDays(base: base, quote: quote, entries: entries)
    let before = lastExchangeDay(in: exchanges, onOrBefore: current.day.adding(days: -1)).flatMap {
      try? rate(base: base, quote: quote, endingOn: $0, entries: entries)
    }
    let week = try? LedgerSeries.daily(
      base: base, quote: quote, days: weekDays, entries: entries, now: now)
    let street = Figure.ratio(current.rate.midpoint)
    return PairSnapshot(
      pair: pair, rate: street,
      changePercent: before.flatMap { Change.percent(from: Figure.ratio($0.midpoint), to: street) },
      changePeriod: .workingDay, points: week?.points.map(\.rate) ?? [], source: .ledger,
      fetchedAt: now, staleness: nil, updatedAt: current.day.start)
  }

  /// The daily averages of `base` in `quote` over the `days` days to `now`'s day
  /// (``LedgerSeries/daily(base:quote:days:entries:now:)``, as `ledger stats` charts them),
  /// every day of the window without an exchange a gap, sourced ``RateSource/ledger``.
  /// - Throws: ``LedgerQueryError/noExchanges(base:quote:days:)`` without any exchange in it.
  public static func series(
    base: CurrencyCode, quote: CurrencyCode, days: Int, entries: [LedgerEntry], now: Date
  ) throws -> RateSeries {
    var series = try LedgerSeries.daily(base: base, quote: quote, days: days, entries: entries, now: now)
    let window = LedgerMath.window(days: days, endingOn: Day(containing: now))
    let exchanged = Set(series.points.map(\.date))
    series.gaps = window.filter { !exchanged.contains($0) }
    return series
  }
}
