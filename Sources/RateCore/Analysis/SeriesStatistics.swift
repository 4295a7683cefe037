/// Pure summary statistics over plain numbers.
///
/// Every function returns `nil` instead of trapping or producing `NaN` when
/// the input is too short for the statistic to exist.
public enum Statistics {
  /// The arithmetic mean, or `nil` for an empty array.
  public static func mean(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    return values.reduce(0, +) / Double(values.count)
  }

  /// The median: the middle value, or the mean of the two middle values for
  /// an even count; `nil` for an empty array.
  ///
  /// Found by selection, not a full sort: `history --from 1999-01-04` takes the
  /// median of 10,000 rates on every run.
  public static func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    var buffer = values
    let middle = buffer.count / 2
    let upper = select(&buffer, rank: middle)
    guard buffer.count.isMultiple(of: 2) else { return upper }
    // Selection leaves every value before `middle` no greater than the one at it.
    let lower = buffer[..<middle].reduce(-Double.infinity) { Swift.max($0, $1) }
    return (lower + upper) / 2
  }

  /// The value that would stand at `rank` if `values` were sorted: quickselect with a
  /// three-way partition (runs of equal rates, a pegged currency, stay linear). `values`
  /// is reordered so that every value before `rank` is no greater than the one at it.
  static func select(_ values: inout [Double], rank: Int) -> Double {
    var (low, high) = (0, values.count - 1)
    while low < high {
      let pivot = medianOfThree(values[low], values[low + (high - low) / 2], values[high])
      // [low, less) < pivot, [less, index) == pivot, (greater, high] > pivot.
      var (less, index, greater) = (low, low, high)
      while index <= greater {
        if values[index] < pivot {
          values.swapAt(less, index)
          less += 1
          index += 1
        } else if pivot < values[index] {
          values.swapAt(index, greater)
          greater -= 1
        } else {
          index += 1
        }
      }
      if rank < less {
        high = less - 1
      } else if rank > greater {
        low = greater + 1
      } else {
        return values[rank]
      }
    }
    return values[rank]
  }

  private static func medianOfThree(_ a: Double, _ b: Double, _ c: Double) -> Double {
    Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
  }

  /// The *sample* standard deviation (divides by `n - 1`, Bessel's
  /// correction); `nil` for fewer than two values.
  ///
  /// Use this for a window of observed rates, which is a sample of the
  /// rate's behaviour rather than the whole population.
  public static func sampleStandardDeviation(_ values: [Double]) -> Double? {
    guard values.count >= 2, let mean = mean(values) else { return nil }
    let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
    return (squares / Double(values.count - 1)).squareRoot()
  }
}

/// Summary statistics of a series, daily or hourly.
///
/// Computed over every point given, carried points included; pass
/// `points.filter { !$0.carried }` to leave out weekend and holiday repeats.
/// Points whose rate is not finite are ignored. Points are ordered by key
/// first, so `first` and `last` are the oldest and newest values whatever the
/// input order. Encodes with every key present, `null` for absent values; the
/// dated figures are named after the point's key (`minDate`, `minTime`).
public struct SeriesStatistics<Key: SeriesKey>: Equatable, Sendable, Encodable {
  /// The lowest rate.
  public var min: Double
  /// The earliest day or time at which the lowest rate occurred.
  public var minDate: Key
  /// The highest rate.
  public var max: Double
  /// The earliest day or time at which the highest rate occurred.
  public var maxDate: Key
  /// The arithmetic mean of the rates.
  public var mean: Double
  /// The median of the rates.
  public var median: Double
  /// The sample standard deviation (`n - 1`); `nil` with fewer than two points.
  public var stddev: Double?
  /// The oldest rate.
  public var first: Double
  /// The day or time `first` belongs to.
  public var firstDate: Key
  /// The newest rate.
  public var last: Double
  /// The day or time `last` belongs to.
  public var lastDate: Key
  /// `last - first`.
  public var change: Double
  /// The change in percent of `first` (`1.5` means +1.5 %); `nil` when `first` is 0
  /// (``Change/exactPercent(from:to:)``).
  public var changePercent: Double?
  /// The number of points used.
  public var count: Int

  /// Computes the statistics of `points`; `nil` when there is no point with a finite rate.
  public init?(points: [SeriesPoint<Key>]) {
    // Sort by key, keeping input order for equal keys (index tiebreak).
    let ordered = points.enumerated()
      .filter { $0.element.rate.isFinite }
      .sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
      .map(\.element)
    guard let firstPoint = ordered.first, let lastPoint = ordered.last else { return nil }
    var low = firstPoint
    var high = firstPoint
    // Strict comparisons keep the earliest key on ties.
    for point in ordered.dropFirst() {
      if point.rate < low.rate { low = point }
      if point.rate > high.rate { high = point }
    }
    let rates = ordered.map(\.rate)
    self.min = low.rate
    self.minDate = low.date
    self.max = high.rate
    self.maxDate = high.date
    self.mean = Statistics.mean(rates) ?? firstPoint.rate
    self.median = Statistics.median(rates) ?? firstPoint.rate
    self.stddev = Statistics.sampleStandardDeviation(rates)
    self.first = firstPoint.rate
    self.firstDate = firstPoint.date
    self.last = lastPoint.rate
    self.lastDate = lastPoint.date
    self.change = lastPoint.rate - firstPoint.rate
    self.changePercent = Change.exactPercent(from: firstPoint.rate, to: lastPoint.rate)
    self.count = ordered.count
  }

  /// Encodes every key, writing `null` for `stddev` and `changePercent` when absent; the
  /// computed figures (mean, median, deviation, change) at ``Figure/ratio(_:)``'s precision,
  /// the rates and their keys as they came.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: MemberName.self)
    func put(_ value: some Encodable, _ name: String) throws {
      try container.encode(value, forKey: MemberName(name))
    }
    let dated = Key.pointKey.prefix(1).uppercased() + Key.pointKey.dropFirst()
    try put(min, "min")
    try put(minDate, "min" + dated)
    try put(max, "max")
    try put(maxDate, "max" + dated)
    try put(Figure.ratio(mean), "mean")
    try put(Figure.ratio(median), "median")
    try put(Figure.ratio(stddev), "stddev")
    try put(first, "first")
    try put(firstDate, "first" + dated)
    try put(last, "last")
    try put(lastDate, "last" + dated)
    try put(Figure.ratio(change), "change")
    try put(Figure.ratio(changePercent), "changePercent")
    try put(count, "count")
  }
}
