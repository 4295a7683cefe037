/// The portfolio's total value per day: the quantities held at the end of each day (the
/// walk of ``PortfolioReport``, once over the ledger) times that day's prices. A day on which
/// a held code has no price is a gap, never filled in.
public enum PortfolioHistory {
  /// The quantities held (above zero) at the end of each day of `window`, oldest first.
  public static func holdings(_ entries: [LedgerEntry], window: ClosedRange<Day>) throws
    -> [(day: Day, quantities: [CurrencyCode: Double])]
  {
    let ordered = entries.oldestFirst()
    var walk = PortfolioWalk(
      method: .fifo, currency: "", entries: ordered, rank: { _ in 0 },
      price: { _, day in PortfolioPrice(rate: 1, source: nil, date: day) })
    var next = ordered.startIndex
    var result: [(day: Day, quantities: [CurrencyCode: Double])] = []
    for day in window {
      while next < ordered.endIndex, ordered[next].date <= day {
        try walk.apply(ordered[next])
        next += 1
      }
      result.append((day, walk.positions.compactMapValues { $0.quantity > 1e-12 ? $0.quantity : nil }))
    }
    return result
  }

  /// The codes and days whose prices ``series(_:currency:prices:fetchedAt:)`` needs.
  public static func pricesNeeded(_ holdings: [(day: Day, quantities: [CurrencyCode: Double])])
    -> [CurrencyCode: Set<Day>]
  {
    var needed: [CurrencyCode: Set<Day>] = [:]
    for (day, quantities) in holdings {
      for code in quantities.keys { needed[code, default: []].insert(day) }
    }
    return needed
  }

  /// The total value in `currency` per day, as a series whose base is `PORTFOLIO`; a day with
  /// a held code unpriced is in `gaps`.
  public static func series(
    _ holdings: [(day: Day, quantities: [CurrencyCode: Double])], currency: CurrencyCode,
    prices: PortfolioPricer.Prices, fetchedAt: Date
  ) -> RateSeries {
    var points: [RatePoint] = []
    var gaps: [Day] = []
    for (day, quantities) in holdings {
      var total = 0.0
      var complete = true
      // In code order: a dictionary's order changes from run to run, and so would the sum's last digit.
      for (code, quantity) in quantities.sorted(by: { $0.key < $1.key }) {
        guard let price = try? prices.price(code, day) else {
          complete = false
          break
        }
        total += quantity * price.rate
      }
      if complete { points.append(RatePoint(date: day, rate: total)) } else { gaps.append(day) }
    }
    return RateSeries(
      base: "PORTFOLIO", quote: currency, source: .portfolio, fetchedAt: fetchedAt, points: points,
      gaps: gaps)
  }
}
