/// Summary statistics of an hourly series: like ``SeriesStatistics``, each
/// dated figure with its own timestamp. Non-finite rates are ignored.
public struct HourlyStatistics: Equatable, Sendable, Codable {
  /// The oldest value.
  public var first: Double
  /// The time of `first`.
  public var firstTime: Date
  /// The newest value.
  public var last: Double
  /// The time of `last`.
  public var lastTime: Date
  /// `last - first`.
  public var change: Double
  /// `change` in percent of `first`; `nil` when `first` is 0.
  public var changePercent: Double?
  /// The lowest value.
  public var min: Double
  /// The earliest time of the lowest value.
  public var minTime: Date
  /// The highest value.
  public var max: Double
  /// The earliest time of the highest value.
  public var maxTime: Date
  /// The arithmetic mean.
  public var mean: Double
  /// The median.
  public var median: Double
  /// The sample standard deviation (`n - 1`); `nil` with fewer than two points.
  public var stddev: Double?
  /// How many points.
  public var count: Int

  /// Statistics of `points`; `nil` when none has a finite rate.
  public init?(points: [TimedRate]) {
    let sorted = points.filter(\.rate.isFinite).sorted { $0.time < $1.time }
    guard let oldest = sorted.first, let newest = sorted.last,
      let low = sorted.min(by: { $0.rate < $1.rate }), let high = sorted.max(by: { $0.rate < $1.rate }),
      let mean = Statistics.mean(sorted.map(\.rate)), let median = Statistics.median(sorted.map(\.rate))
    else { return nil }
    (first, firstTime, last, lastTime) = (oldest.rate, oldest.time, newest.rate, newest.time)
    change = newest.rate - oldest.rate
    changePercent = oldest.rate == 0 ? nil : change / oldest.rate * 100
    // `max(by:)` returns the last of equal maxima: take the earliest instead.
    (min, minTime) = (low.rate, low.time)
    let highest = sorted.first { $0.rate == high.rate } ?? high
    (max, maxTime) = (highest.rate, highest.time)
    self.mean = mean
    self.median = median
    stddev = Statistics.sampleStandardDeviation(sorted.map(\.rate))
    count = sorted.count
  }
}

extension HourlyStatistics {
  /// Encodes the rates and times as they came and the computed figures (change, mean,
  /// median, deviation) at ``Figure/ratio(_:)``'s precision; an absent one as `null`, as
  /// docs/json.md promises.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(first, forKey: .first)
    try container.encode(firstTime, forKey: .firstTime)
    try container.encode(last, forKey: .last)
    try container.encode(lastTime, forKey: .lastTime)
    try container.encode(Figure.ratio(change), forKey: .change)
    try container.encode(Figure.ratio(changePercent), forKey: .changePercent)
    try container.encode(min, forKey: .min)
    try container.encode(minTime, forKey: .minTime)
    try container.encode(max, forKey: .max)
    try container.encode(maxTime, forKey: .maxTime)
    try container.encode(Figure.ratio(mean), forKey: .mean)
    try container.encode(Figure.ratio(median), forKey: .median)
    try container.encode(Figure.ratio(stddev), forKey: .stddev)
    try container.encode(count, forKey: .count)
  }
}
