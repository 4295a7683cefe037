/// The rates a ledger implies for one pair over a window of days.
public struct LedgerRate: Codable, Equatable, Sendable {
  /// The amount-weighted rate of the user's purchases of the base currency, or nil without any.
  public var buy: Double?
  /// How many purchases `buy` averages.
  public var buyCount: Int
  /// The amount-weighted rate of the user's sales of the base currency, or nil without any.
  public var sell: Double?
  /// How many sales `sell` averages.
  public var sellCount: Int
  /// The mean of `buy` and `sell`; the one that exists when only one side does.
  public var midpoint: Double

  /// Creates a rate.
  public init(buy: Double?, buyCount: Int, sell: Double?, sellCount: Int, midpoint: Double) {
    self.buy = buy
    self.buyCount = buyCount
    self.sell = sell
    self.sellCount = sellCount
    self.midpoint = midpoint
  }

  /// The number of exchanges on both sides.
  public var count: Int { buyCount + sellCount }
}

/// Pure arithmetic over ledger entries: the rate of a pair and its daily averages.
///
/// **Orientation.** Every entry between the two currencies counts, whichever way it was
/// recorded, seen from the pair `base`-`quote` (``LedgerEntry/oriented(base:quote:)``): its
/// side becomes the side the user took on `base`, so a sale of LBP for USD is a purchase of
/// USD. Rates are units of `quote` per unit of `base`.
///
/// **Weighting.** A rate over several exchanges is weighted by amount: the sum of the `quote`
/// amounts over the sum of the `base` amounts. A large exchange moves it more than a small
/// one, and the result is exactly the rate of all those exchanges made as one.
///
/// Entries between other currencies and entries without positive finite amounts are ignored.
public enum LedgerMath {
  /// The buy, sell and midpoint rates of `base`-`quote` over the days in `window`.
  ///
  /// - Parameters:
  ///   - entries: Any entries, in any order.
  ///   - base: The currency priced, upper case (`USD`).
  ///   - quote: The currency of the price, upper case (`LBP`).
  ///   - window: The days to include, both ends included.
  /// - Returns: The rates, or nil when no entry of the pair falls in `window`.
  public static func rate(
    entries: [LedgerEntry], base: CurrencyCode, quote: CurrencyCode, window: ClosedRange<Day>
  ) -> LedgerRate? {
    var buy = Totals()
    var sell = Totals()
    for entry in entries where window.contains(entry.date) {
      guard let oriented = usable(entry, base: base, quote: quote) else { continue }
      switch oriented.side {
      case .buy: buy.add(oriented.baseAmount, oriented.quoteAmount)
      case .sell: sell.add(oriented.baseAmount, oriented.quoteAmount)
      }
    }
    let buyRate = buy.rate
    let sellRate = sell.rate
    let midpoint: Double
    switch (buyRate, sellRate) {
    case (let buyRate?, let sellRate?): midpoint = (buyRate + sellRate) / 2
    case (let buyRate?, nil): midpoint = buyRate
    case (nil, let sellRate?): midpoint = sellRate
    case (nil, nil): return nil
    }
    return LedgerRate(
      buy: buyRate, buyCount: buy.count, sell: sellRate, sellCount: sell.count,
      midpoint: midpoint)
  }

  /// The amount-weighted rate of `base`-`quote` for each day of `window` that has exchanges.
  ///
  /// Days without exchanges (on that side) are absent rather than carried or zero, so a
  /// series may be shorter than the window, or empty.
  /// - Parameters:
  ///   - entries: Any entries, in any order.
  ///   - base: The currency priced, upper case.
  ///   - quote: The currency of the price, upper case.
  ///   - window: The days to include, both ends included.
  /// - Returns: Three series, oldest first: the user's purchases of `base`, the sales, and
  ///   all exchanges of the day weighted together.
  public static func dailyAverages(
    entries: [LedgerEntry], base: CurrencyCode, quote: CurrencyCode, window: ClosedRange<Day>
  ) -> (buy: [RatePoint], sell: [RatePoint], all: [RatePoint]) {
    var buys: [Day: Totals] = [:]
    var sells: [Day: Totals] = [:]
    var alls: [Day: Totals] = [:]
    for entry in entries where window.contains(entry.date) {
      guard let oriented = usable(entry, base: base, quote: quote) else { continue }
      switch oriented.side {
      case .buy: buys[entry.date, default: Totals()].add(oriented.baseAmount, oriented.quoteAmount)
      case .sell:
        sells[entry.date, default: Totals()].add(oriented.baseAmount, oriented.quoteAmount)
      }
      alls[entry.date, default: Totals()].add(oriented.baseAmount, oriented.quoteAmount)
    }
    func series(_ totals: [Day: Totals]) -> [RatePoint] {
      totals.compactMap { day, totals in totals.rate.map { RatePoint(date: day, rate: $0) } }
        .sorted { $0.date < $1.date }
    }
    return (series(buys), series(sells), series(alls))
  }

  /// The days from `days - 1` days before `today` to `today`: the window "the last N days".
  ///
  /// - Parameters:
  ///   - days: How many days; values below 1 count as 1.
  ///   - today: The last day of the window.
  public static func window(days: Int, endingOn today: Day) -> ClosedRange<Day> {
    today.adding(days: -(Swift.max(days, 1) - 1))...today
  }

  // MARK: - Implementation

  /// Running sums of one side's amounts.
  struct Totals {
    var base = 0.0
    var quote = 0.0
    var count = 0

    mutating func add(_ baseAmount: Double, _ quoteAmount: Double) {
      base += baseAmount
      quote += quoteAmount
      count += 1
    }

    /// Sum of quote over sum of base; nil when nothing was added or it is not finite.
    var rate: Double? {
      guard count > 0, base > 0 else { return nil }
      let rate = quote / base
      return rate.isFinite ? rate : nil
    }
  }

  /// The entry oriented to the pair, when it belongs to it and has usable amounts.
  static func usable(_ entry: LedgerEntry, base: CurrencyCode, quote: CurrencyCode) -> (
    side: LedgerEntry.Side, baseAmount: Double, quoteAmount: Double
  )? {
    guard let oriented = entry.oriented(base: base, quote: quote),
      oriented.baseAmount.isFinite, oriented.quoteAmount.isFinite,
      oriented.baseAmount > 0, oriented.quoteAmount > 0
    else { return nil }
    return oriented
  }
}
