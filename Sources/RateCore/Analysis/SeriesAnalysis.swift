/// A change between two consecutive values of a series.
public struct DailyMove: Equatable, Sendable, Codable {
  /// The day of the earlier value.
  public var from: Day
  /// The day of the later value (the day the move is reported for).
  public var date: Day
  /// `later - earlier`.
  public var change: Double
  /// The change in percent of the earlier value.
  public var changePercent: Double

  /// In JSON the earlier day is `previousDate`: `from` names nothing in the
  /// vocabulary (date ranges are `firstDay`/`lastDay`).
  enum CodingKeys: String, CodingKey {
    case from = "previousDate"
    case date, change, changePercent
  }
}

/// The largest decline from a running peak to a later trough.
public struct Drawdown: Equatable, Sendable, Codable {
  public var peak: Double
  public var peakDate: Day
  public var trough: Double
  public var troughDate: Day
  /// `trough - peak` (negative).
  public var change: Double
  /// The change in percent of the peak (negative).
  public var changePercent: Double
}

/// Figures beyond ``SeriesStatistics`` that `rates stats` reports. Every
/// function is pure and works on the values in date order; days without a
/// value of their own (carried) should be left out by the caller.
public enum SeriesAnalysis {
  /// The sample standard deviation divided by the mean: a scale-free measure
  /// of volatility. `nil` for fewer than two values or a zero mean.
  public static func coefficientOfVariation(_ values: [Double]) -> Double? {
    guard let mean = Statistics.mean(values), mean != 0,
      let deviation = Statistics.sampleStandardDeviation(values)
    else { return nil }
    return deviation / abs(mean)
  }

  /// The largest rise between consecutive points, ranked by percent; `nil`
  /// when fewer than two points or no value rose.
  public static func largestRise(_ points: [RatePoint]) -> DailyMove? {
    moves(points).filter { $0.change > 0 }.max { $0.changePercent < $1.changePercent }
  }

  /// The largest fall between consecutive points, ranked by percent; `nil`
  /// when fewer than two points or no value fell.
  public static func largestFall(_ points: [RatePoint]) -> DailyMove? {
    moves(points).filter { $0.change < 0 }.min { $0.changePercent < $1.changePercent }
  }

  /// The maximum drawdown: over every peak and every later trough, the
  /// deepest fall in percent of the peak. `nil` when the series never falls
  /// below an earlier value.
  public static func maxDrawdown(_ points: [RatePoint]) -> Drawdown? {
    let sorted = points.sorted { $0.date < $1.date }.filter { $0.rate.isFinite }
    guard var peak = sorted.first else { return nil }
    var worst: Drawdown?
    for point in sorted.dropFirst() {
      if point.rate > peak.rate {
        peak = point
        continue
      }
      guard peak.rate > 0, point.rate < peak.rate,
        let percent = Change.exactPercent(from: peak.rate, to: point.rate)
      else { continue }
      if percent < (worst?.changePercent ?? 0) {
        worst = Drawdown(
          peak: peak.rate, peakDate: peak.date, trough: point.rate, troughDate: point.date,
          change: point.rate - peak.rate, changePercent: percent)
      }
    }
    return worst
  }

  /// Every move between consecutive points whose earlier value is not zero.
  static func moves(_ points: [RatePoint]) -> [DailyMove] {
    let sorted = points.sorted { $0.date < $1.date }.filter { $0.rate.isFinite }
    return zip(sorted, sorted.dropFirst()).compactMap { earlier, later in
      Change.exactPercent(from: earlier.rate, to: later.rate).map {
        DailyMove(from: earlier.date, date: later.date, change: later.rate - earlier.rate, changePercent: $0)
      }
    }
  }
}

extension DailyMove {
  /// Encodes the days as they are and the change at ``Figure/ratio(_:)``'s precision.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(from, forKey: .from)
    try container.encode(date, forKey: .date)
    try container.encode(Figure.ratio(change), forKey: .change)
    try container.encode(Figure.ratio(changePercent), forKey: .changePercent)
  }
}

extension Drawdown {
  /// Encodes the peak and trough as they came and the change at ``Figure/ratio(_:)``'s
  /// precision.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(peak, forKey: .peak)
    try container.encode(peakDate, forKey: .peakDate)
    try container.encode(trough, forKey: .trough)
    try container.encode(troughDate, forKey: .troughDate)
    try container.encode(Figure.ratio(change), forKey: .change)
    try container.encode(Figure.ratio(changePercent), forKey: .changePercent)
  }
}
