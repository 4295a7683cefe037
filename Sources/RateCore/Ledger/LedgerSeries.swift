/// Why the ledger has no rate to give.
public enum LedgerQueryError: Error, Equatable, Sendable {
  /// No exchanges of `base` against `quote` in the last `days` days.
  case noExchanges(base: CurrencyCode, quote: CurrencyCode, days: Int)
  /// No exchange of `base` against `quote` at all, up to the day asked: no street rate.
  case neverExchanged(base: CurrencyCode, quote: CurrencyCode)
}

/// The ledger's rates as a series or a single rate, for `stats --ledger`,
/// `convert --ledger` and `ledger rate`.
public enum LedgerSeries {
  /// Daily amount-weighted average rates of the exchanges of `base` against
  /// `quote` over the `days` days ending on `now`'s day, computed figures at
  /// ``Figure/ratio(_:)``'s precision.
  ///
  /// - Throws: ``LedgerQueryError/noExchanges(base:quote:days:)``.
  public static func daily(
    base: CurrencyCode, quote: CurrencyCode, days: Int, entries: [LedgerEntry], now: Date
  ) throws -> RateSeries {
    let today = Day(containing: now)
    let window = LedgerMath.window(days: days, endingOn: today)
    let (recordedBase, recordedQuote, inverted) = orientation(
      entries, base: base, quote: quote, window: window)
    let averages = LedgerMath.dailyAverages(
      entries: entries, base: recordedBase, quote: recordedQuote, window: window)
    var series = RateSeries(
      base: recordedBase.text, quote: recordedQuote, source: .ledger, fetchedAt: now, points: averages.all)
    // The averages are exact: inverted (each rounded once, by `inverted()`) or rounded here.
    if inverted {
      series = series.inverted()
    } else {
      series.points = series.points.map { RatePoint(date: $0.date, rate: Figure.ratio($0.rate)) }
    }
    guard !series.points.isEmpty else {
      throw LedgerQueryError.noExchanges(base: base, quote: quote, days: days)
    }
    return series
  }

  /// The ledger's rate of `base` in `quote`: the midpoint of the amount-weighted
  /// buy and sell rates over the `days` days ending on `today` (as `rates ledger rate`).
  ///
  /// - Throws: ``LedgerQueryError/noExchanges(base:quote:days:)``.
  public static func rate(
    base: CurrencyCode, quote: CurrencyCode, days: Int, entries: [LedgerEntry], today: Day
  ) throws -> LedgerRate {
    let window = LedgerMath.window(days: days, endingOn: today)
    let (recordedBase, recordedQuote, inverted) = orientation(
      entries, base: base, quote: quote, window: window)
    guard
      let recorded = LedgerMath.rate(
        entries: entries, base: recordedBase, quote: recordedQuote, window: window),
      let found = inverted ? recorded.inverted() : recorded
    else {
      throw LedgerQueryError.noExchanges(base: base, quote: quote, days: days)
    }
    return found
  }

  /// The orientation most of the window's exchanges were recorded in, so
  /// that averages are taken there and inverted after: converting 1 USD to
  /// LBP and back gives 1 USD again, which averaging inverted rates would not.
  public static func orientation(
    _ entries: [LedgerEntry], base: CurrencyCode, quote: CurrencyCode, window: ClosedRange<Day>
  ) -> (base: CurrencyCode, quote: CurrencyCode, inverted: Bool) {
    var asked = 0
    var reversed = 0
    for entry in entries where window.contains(entry.date) && entry.transfer == nil {
      if entry.currency == base && entry.counterCurrency == quote { asked += 1 }
      if entry.currency == quote && entry.counterCurrency == base { reversed += 1 }
    }
    return reversed > asked ? (quote, base, true) : (base, quote, false)
  }
}

extension LedgerRate {
  /// The same rates for the inverse pair. Buying USD with LBP is selling LBP,
  /// so the sides swap; each rate is its ``RateInversion/inverse(of:)`` (the midpoint the
  /// inverse of this midpoint). Nil when the midpoint has none (zero).
  public func inverted() -> LedgerRate? {
    guard let midpoint = RateInversion.inverse(of: midpoint) else { return nil }
    return LedgerRate(
      buy: sell.flatMap(RateInversion.inverse(of:)), buyCount: sellCount,
      sell: buy.flatMap(RateInversion.inverse(of:)), sellCount: buyCount, midpoint: midpoint)
  }
}
