import RateCore
import RatesExpectations
import RatesTestSupport
import Testing

/// One inversion, one rule: a rate that is zero or not finite has no inverse, and every
/// inverted value (series, hourly series, quote, ledger rate, sparkline, change) follows it.
@Suite struct RateInversionTests {
  static let day = Day(daysSinceEpoch: 20_000)

  @Test func aRateHasAnInverseOnlyWhenItIsANonZeroFiniteNumber() {
    expectEqual(RateInversion.inverse(of: 4), 0.25)
    expectEqual(RateInversion.inverse(of: -2), -0.5)
    for none in [0, -0.0, .infinity, -.infinity, .nan] as [Double] {
      expectEqual(RateInversion.inverse(of: none), nil, "\(none)")
    }
  }

  /// Before: a zero day became a gap, but an infinite one a point of 0 (`1 / inf`).
  @Test func aSeriesDayWithoutAnInverseIsAGap() {
    let days = (0..<4).map { Self.day.adding(days: $0) }
    let series = RateSeries(
      base: "BTC", quote: "EUR", source: .provider(.coinGecko), fetchedAt: fixedNow,
      points: [
        RatePoint(date: days[0], rate: 3), RatePoint(date: days[1], rate: 0),
        RatePoint(date: days[2], rate: .infinity), RatePoint(date: days[3], rate: 8),
      ])
    let inverted = series.inverted()
    expect(inverted.base == "EUR" && inverted.quote == "BTC")
    expectEqual(inverted.points.map(\.rate), [0.3333333333, 0.125])
    expectEqual(inverted.gaps, [days[1], days[2]])
  }

  /// One rule for days and hours: an hour whose rate has no inverse is a gap, as a day's is.
  @Test func anHourlyPointWithoutAnInverseIsAGap() {
    let times = (0..<3).map { fixedNow.addingTimeInterval(Double($0) * 3600) }
    let series = Series(
      base: "BTC", quote: "EUR", source: .provider(.coinGecko), fetchedAt: fixedNow,
      points: zip(times, [0, 2, .nan]).map { SeriesPoint(date: $0, rate: $1) })
    let inverted = series.inverted()
    expectEqual(inverted.points.map(\.rate), [0.5])
    expectEqual(inverted.gaps, [times[0], times[2]])
  }

  /// Before: a quote of 0 inverted to a price of 0.
  @Test func aQuoteWithoutAnInverseIsNoPrice() throws {
    let quote = Quote(
      base: "BTC", quote: "EUR", rate: 4, change24hPercent: 100, source: .provider(.coinGecko),
      fetchedAt: fixedNow, updatedAt: nil)
    let inverted = try require(quote.inverted())
    expect(inverted.rate == 0.25 && inverted.base == "EUR" && inverted.change24hPercent == -50)
    var zero = quote
    zero.rate = 0
    expectEqual(zero.inverted(), nil)
    expectEqual(Change.inverted(-100), nil)
  }

  /// Before: a ledger midpoint of 0 inverted to infinity.
  @Test func aLedgerRateSwapsItsSidesAndHasNoInverseAtZero() throws {
    let rate = LedgerRate(buy: 4, buyCount: 1, sell: nil, sellCount: 0, midpoint: 4)
    let inverted = try require(rate.inverted())
    expect(inverted.buy == nil && inverted.sell == 0.25 && inverted.sellCount == 1)
    expectEqual(inverted.midpoint, 0.25)
    expectEqual(LedgerRate(buy: 0, buyCount: 1, sell: nil, sellCount: 0, midpoint: 0).inverted(), nil)
  }
}
