/// How often each provider updates its prices, and when a quote is much
/// older than that: the one home of the "old quote" rule.
///
/// - CoinGecko and CoinDesk update prices about every minute: a price last
///   updated more than ``coinQuoteOldAfter`` ago is old (a delisted or frozen
///   coin, a replayed feed).
/// - The ECB publishes its reference rates once per working day, around
///   16:00 CET: a rate is old only when a newer working day's rate should
///   have been published (``newestECBDay(at:)``). Friday's rate on a Sunday
///   is not old; Friday's rate on Tuesday evening is.
/// - A street rate (``StreetRate``, the ledger's) is dated by its last exchange day: it is old
///   when that day is outside the ``StreetRate/days`` days ending today (no exchange in them).
public enum UpdateRhythm {
  /// How long after its last update a coin price counts as old: an hour,
  /// sixty times the providers' one-minute rhythm.
  public static let coinQuoteOldAfter: TimeInterval = 3600
  /// When a working day's ECB rate is due, from the start of its UTC day:
  /// 16:00 UTC, an hour after the 16:00 CET publication (two in summer).
  public static let ecbDueAfter: TimeInterval = 16 * 3600

  /// The newest working day whose ECB rate should be published at `instant`.
  public static func newestECBDay(at instant: Date) -> Day {
    var day = Day(containing: instant)
    if instant < day.start.addingTimeInterval(ecbDueAfter) { day = day.adding(days: -1) }
    // Closures last at most a few days; the bound only guards the loop.
    for _ in 0..<14 where MarketClosure.isECBClosed(day) { day = day.adding(days: -1) }
    return day
  }

  /// Whether `quote` is much older than its provider's rhythm at `instant`.
  /// A quote that does not say when it was updated is not called old.
  public static func isOld(_ quote: Quote, at instant: Date) -> Bool {
    isOld(updatedAt: quote.updatedAt, source: quote.source, at: instant)
  }

  /// Whether a price `source` last updated at `updatedAt` is old at `instant`.
  public static func isOld(updatedAt: Date?, source: RateSource, at instant: Date) -> Bool {
    guard let updated = updatedAt else { return false }
    if source.isECB {
      return Day(containing: updated) < newestECBDay(at: instant)
    }
    if source == .ledger {
      return Day(containing: updated)
        < LedgerMath.window(days: StreetRate.days, endingOn: Day(containing: instant)).lowerBound
    }
    return instant.timeIntervalSince(updated) > coinQuoteOldAfter
  }
}
