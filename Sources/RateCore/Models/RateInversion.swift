/// Pricing a rate the other way round (EUR per BTC from BTC per EUR): the one home of
/// inverting a rate, and of its one rule for a rate that has no inverse.
public enum RateInversion {
  /// `1 / rate`; nil when `rate` is zero or not finite, which have no inverse: the inverted
  /// series has a gap on that day, the inverted sparkline or hourly series no point, the
  /// inverted quote no price. Exact: a caller that shows it as a computed figure rounds it
  /// (``Figure/ratio(_:)``), as a series and a quote do.
  public static func inverse(of rate: Double) -> Double? {
    guard rate != 0, rate.isFinite else { return nil }
    return 1 / rate
  }
}
