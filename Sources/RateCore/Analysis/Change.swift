/// Percent changes, computed one way everywhere.
public enum Change {
  /// The change from `old` to `new` in percent, a computed figure at
  /// ``Figure/ratio(_:)``'s precision; nil when `old` is zero or either value is not finite.
  public static func percent(from old: Double, to new: Double) -> Double? {
    exactPercent(from: old, to: new).map { Figure.ratio($0) as Double }
  }

  /// The change from `old` to `new` in percent, unrounded (what statistics and tables
  /// compute before they format); nil when `old` is zero or either value is not finite.
  public static func exactPercent(from old: Double, to new: Double) -> Double? {
    guard new.isFinite else { return nil }
    return exactPercent(of: new - old, from: old)
  }

  /// A change of `change` from `old`, in percent, unrounded, for a caller that holds the
  /// change itself (a portfolio's day change): `new − old` is not `change` in floating point,
  /// so it is not recomputed. Nil when `old` is zero or not finite, or `change` is NaN.
  public static func exactPercent(of change: Double, from old: Double) -> Double? {
    guard old != 0, old.isFinite, !change.isNaN else { return nil }
    return change / old * 100
  }

  /// The change between the last two values, in percent (the change since
  /// the previous working day for a series of ECB rates); nil with fewer
  /// than two values.
  public static func lastStep(_ values: [Double]) -> Double? {
    guard values.count >= 2 else { return nil }
    return percent(from: values[values.count - 2], to: values[values.count - 1])
  }

  /// The change of the inverse rate when the rate changed by `percent`:
  /// `1 / (1 + c) - 1` at ``Figure/ratio(_:)``'s precision; nil when the rate fell to zero.
  public static func inverted(_ percent: Double) -> Double? {
    guard let inverse = RateInversion.inverse(of: 1 + percent / 100) else { return nil }
    return Figure.ratio((inverse - 1) * 100) as Double
  }
}

/// How a sparkline is drawn from a week of hourly prices, one way everywhere.
public enum SparklineSampling {
  /// Hours between the points kept: a week of hourly prices becomes 28 points.
  public static let hoursPerPoint = 6

  /// Every ``hoursPerPoint``-th value of `hourly`, starting with the first.
  public static func weekOfHourly(_ hourly: [Double]) -> [Double] {
    stride(from: 0, to: hourly.count, by: hoursPerPoint).map { hourly[$0] }
  }
}
