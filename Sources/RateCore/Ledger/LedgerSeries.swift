import Foundation

/// The ledger's daily average rates as a series, for `stats --ledger` and
/// `convert --ledger`.
enum LedgerSeries {
  /// Daily amount-weighted average rates of the user's exchanges of `base`
  /// against `quote` over the last `days` days.
  static func daily(base: String, quote: String, days: Int, invocation: Invocation) throws
    -> RateService.HistoryResult
  {
    let now = invocation.context.now()
    let today = Day(containing: now)
    let entries = try invocation.userData().ledger.read().entries
    let window = LedgerMath.window(days: days, endingOn: today)
    let (recordedBase, recordedQuote, inverted) = orientation(
      entries, base: base.uppercased(), quote: quote.uppercased(), window: window)
    var averages = LedgerMath.dailyAverages(
      entries: entries, base: recordedBase, quote: recordedQuote, window: window)
    if inverted {
      averages.all = averages.all.map { RatePoint(date: $0.date, rate: 1 / $0.rate) }
    }
    guard !averages.all.isEmpty else {
      throw ProviderError.noData(
        provider: Providers.ledger,
        detail: "no \(base.uppercased())-\(quote.uppercased()) exchanges in the last \(days) days: add some with 'rates ledger add'")
    }
    return RateService.HistoryResult(
      series: RateSeries(
        base: base.uppercased(), quote: quote.uppercased(), source: Providers.ledger, fetchedAt: now,
        points: averages.all),
      staleness: nil)
  }
}

extension LedgerSeries {
  /// The ledger's rate of `base` in `quote`: the midpoint of the amount-weighted
  /// buy and sell rates over the last `days` days (as `rates ledger rate`).
  static func rate(base: String, quote: String, days: Int, invocation: Invocation) throws
    -> (rate: LedgerRate, day: Day)
  {
    let today = Day(containing: invocation.context.now())
    let entries = try invocation.userData().ledger.read().entries
    let window = LedgerMath.window(days: days, endingOn: today)
    let (recordedBase, recordedQuote, inverted) = orientation(
      entries, base: base.uppercased(), quote: quote.uppercased(), window: window)
    guard
      let found = LedgerMath.rate(
        entries: entries, base: recordedBase, quote: recordedQuote, window: window)
    else {
      throw ProviderError.noData(
        provider: Providers.ledger,
        detail: "no \(base.uppercased())-\(quote.uppercased()) exchanges in the last \(days) days: record some with 'rates ledger add'")
    }
    return (inverted ? found.inverted() : found, today)
  }

  /// The orientation most of the window's exchanges were recorded in, so
  /// that averages are taken there and inverted after: converting 1 USD to
  /// LBP and back gives 1 USD again, which averaging inverted rates would not.
  static func orientation(
    _ entries: [LedgerEntry], base: String, quote: String, window: ClosedRange<Day>
  ) -> (base: String, quote: String, inverted: Bool) {
    var asked = 0
    var reversed = 0
    for entry in entries where window.contains(entry.date) {
      if entry.currency == base && entry.counterCurrency == quote { asked += 1 }
      if entry.currency == quote && entry.counterCurrency == base { reversed += 1 }
    }
    return reversed > asked ? (quote, base, true) : (base, quote, false)
  }
}

extension LedgerRate {
  /// The same rates for the inverse pair. Buying USD with LBP is selling LBP,
  /// so the sides swap; the midpoint is the inverse of this midpoint.
  public func inverted() -> LedgerRate {
    LedgerRate(
      buy: sell.map { 1 / $0 }, buyCount: sellCount, sell: buy.map { 1 / $0 }, sellCount: buyCount,
      midpoint: 1 / midpoint)
  }
}
