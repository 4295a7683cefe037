import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct StatisticsTests {
  // MARK: - Statistics over [Double]

  @Test func emptyAndShortInputsGiveNil() {
    expectEqual(Statistics.mean([]), nil)
    expectEqual(Statistics.median([]), nil)
    expectEqual(Statistics.sampleStandardDeviation([]), nil)
    expectEqual(Statistics.sampleStandardDeviation([5]), nil)
  }

  @Test func meanAndMedian() {
    // (1 + 2 + 3 + 10) / 4 = 16 / 4 = 4
    expectEqual(Statistics.mean([1, 2, 3, 10]), 4)
    // sorted 1 2 3 10: even count, (2 + 3) / 2 = 2.5
    expectEqual(Statistics.median([10, 3, 1, 2]), 2.5)
    // sorted 1 3 7: odd count, the middle one
    expectEqual(Statistics.median([7, 1, 3]), 3)
    expectEqual(Statistics.median([4]), 4)
  }

  /// The median by selection equals the middle of a full sort, for random lengths, many
  /// equal values (carried rates, a pegged currency) and all values equal.
  @Test func theMedianBySelectionEqualsTheSortedMiddle() {
    var generator = SeededGenerator(state: 0x5EED_0003)  // seeded: a failure repeats
    for length in [1, 2, 3, 4, 5, 10, 11, 100, 1_001, 10_000] {
      for distinct in [1, 2, 7, 1_000_000] {
        let values = (0..<length).map { _ in Double(Int.random(in: 0..<distinct, using: &generator)) / 7 }
        let sorted = values.sorted()
        let middle = length / 2
        let expected = length.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
        expectEqual(Statistics.median(values), expected, "\(length) values, \(distinct) distinct")
      }
    }
  }

  @Test func sampleStandardDeviation() throws {
    // 2 4 4 4 5 5 7 9: mean 40 / 8 = 5; squared deviations 9 1 1 1 0 0 4 16 = 32.
    // sample:     sqrt(32 / 7) = sqrt(4.571428...) = 2.138089935...
    let values: [Double] = [2, 4, 4, 4, 5, 5, 7, 9]
    let sample = try require(Statistics.sampleStandardDeviation(values))
    expect(abs(sample - 2.138_089_935_299_395) < 1e-12)
    // Two values 1 and 3: mean 2, squares 1 + 1 = 2, sample sqrt(2 / 1) = 1.41421356...
    let two = try require(Statistics.sampleStandardDeviation([1, 3]))
    expect(abs(two - 2.0.squareRoot()) < 1e-15)
  }
}

@Suite struct SeriesStatisticsTests {
  static let start = Day(daysSinceEpoch: 19_783)  // 2024-03-01

  static func series(_ rates: [Double]) -> [RatePoint] {
    rates.enumerated().map { RatePoint(date: start.adding(days: $0.offset), rate: $0.element) }
  }

  @Test func emptySeriesIsNil() {
    expectEqual(SeriesStatistics<Day>(points: []), nil)
    expectEqual(SeriesStatistics(points: [RatePoint(date: Self.start, rate: .nan)]), nil)
  }

  @Test func handComputedSeries() throws {
    // Rates 10, 12, 8, 14, 11 on 2024-03-01 ... 2024-03-05.
    // min 8 on 03-03, max 14 on 03-04.
    // mean = (10 + 12 + 8 + 14 + 11) / 5 = 55 / 5 = 11
    // median: sorted 8 10 11 12 14 -> 11
    // deviations -1 1 -3 3 0 -> squares 1 1 9 9 0 = 20; sample sqrt(20 / 4) = sqrt(5)
    // change 11 - 10 = 1; percent 1 / 10 * 100 = 10
    let stats = try require(SeriesStatistics(points: Self.series([10, 12, 8, 14, 11])))
    expectEqual(stats.min, 8)
    expectEqual(stats.minDate, Day("2024-03-03"))
    expectEqual(stats.max, 14)
    expectEqual(stats.maxDate, Day("2024-03-04"))
    expectEqual(stats.mean, 11)
    expectEqual(stats.median, 11)
    let stddev = try require(stats.stddev)
    expect(abs(stddev - 5.0.squareRoot()) < 1e-12)
    expectEqual(stats.first, 10)
    expectEqual(stats.last, 11)
    expectEqual(stats.change, 1)
    expectEqual(stats.changePercent, 10)
    expectEqual(stats.count, 5)
  }

  @Test func fallingSeriesHasNegativeChange() throws {
    // first 200, last 150: change -50, percent -50 / 200 * 100 = -25
    let stats = try require(SeriesStatistics(points: Self.series([200, 180, 150])))
    expectEqual(stats.change, -50)
    expectEqual(stats.changePercent, -25)
    // median of 150 180 200 = 180; mean 530 / 3
    expectEqual(stats.median, 180)
    expect(abs(stats.mean - 530.0 / 3) < 1e-12)
  }

  @Test func tiesPickTheEarliestDate() throws {
    // 5 on days 0 and 2 (minimum), 9 on days 1 and 3 (maximum)
    let stats = try require(SeriesStatistics(points: Self.series([5, 9, 5, 9])))
    expectEqual(stats.minDate, Self.start)
    expectEqual(stats.maxDate, Self.start.adding(days: 1))
  }

  @Test func tiesPickTheEarliestDateEvenWhenInputIsUnordered() throws {
    let later = RatePoint(date: Self.start.adding(days: 3), rate: 1)
    let earlier = RatePoint(date: Self.start, rate: 1)
    let middle = RatePoint(date: Self.start.adding(days: 1), rate: 4)
    let stats = try require(SeriesStatistics(points: [later, middle, earlier]))
    expectEqual(stats.minDate, Self.start)
    expectEqual(stats.first, 1)
    expectEqual(stats.last, 1)
  }

  @Test func singlePointHasNoStandardDeviation() throws {
    let stats = try require(SeriesStatistics(points: Self.series([42])))
    expectEqual(stats.stddev, nil)
    expect(stats.min == 42 && stats.max == 42 && stats.mean == 42 && stats.median == 42)
    expectEqual(stats.change, 0)
    expectEqual(stats.changePercent, 0)
    expectEqual(stats.count, 1)
  }

  @Test func zeroFirstValueHasNoPercent() throws {
    let stats = try require(SeriesStatistics(points: Self.series([0, 2])))
    expectEqual(stats.change, 2)
    expectEqual(stats.changePercent, nil)
  }

  @Test func firstAndLastKeepTheirOwnDates() throws {
    // Out of order and with a carried day left out by the caller: each figure
    // is paired with the day it belongs to.
    let points = [
      RatePoint(date: Day("2024-06-10")!, rate: 3),
      RatePoint(date: Day("2024-06-07")!, rate: 1),
    ]
    let stats = try require(SeriesStatistics(points: points))
    expect((stats.first, stats.firstDate) == (1, Day("2024-06-07")!))
    expect((stats.last, stats.lastDate) == (3, Day("2024-06-10")!))
  }

  // MARK: - JSON

  @Test func encodesNullsAndExactKeys() throws {
    let stats = try require(SeriesStatistics(points: Self.series([0])))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = try require(String(data: try encoder.encode(stats), encoding: .utf8))
    expectEqual(
      json,
      """
      {"change":0,"changePercent":null,"count":1,"first":0,"firstDate":"2024-03-01",\
      "last":0,"lastDate":"2024-03-01","max":0,"maxDate":"2024-03-01","mean":0,"median":0,"min":0,"minDate":"2024-03-01",\
      "stddev":null}
      """)
  }
}
