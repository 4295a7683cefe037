import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct SeriesAnalysisTests {
  /// 100, 110, 99, 105, 90, 120 on 2024-06-01 … 2024-06-06.
  static let points: [RatePoint] = zip(0..., [100.0, 110, 99, 105, 90, 120]).map { offset, rate in
    RatePoint(date: Day("2024-06-01")!.adding(days: offset), rate: rate)
  }

  @Test func coefficientOfVariationIsSampleStddevOverMean() throws {
    // Values 2, 4, 4, 4, 5, 5, 7, 9: mean 5; squared deviations 9,1,1,1,0,0,4,16 = 32;
    // sample variance 32 / 7 = 4.571428…; stddev 2.138090; CV 0.427618.
    let cv = try require(SeriesAnalysis.coefficientOfVariation([2, 4, 4, 4, 5, 5, 7, 9]))
    expect(abs(cv - 0.4276179) < 1e-6)
    expectEqual(SeriesAnalysis.coefficientOfVariation([5]), nil)
    expectEqual(SeriesAnalysis.coefficientOfVariation([1, -1]), nil)  // mean 0
  }

  @Test func largestRiseAndFallAreRankedByPercent() throws {
    // Moves: +10 (+10%), -11 (-10%), +6 (+6.0606%), -15 (-14.2857%), +30 (+33.33%).
    let rise = try require(SeriesAnalysis.largestRise(Self.points))
    expect(rise.date == Day("2024-06-06") && rise.from == Day("2024-06-05"))
    expectEqual(rise.change, 30)
    expect(abs(rise.changePercent - 33.333333) < 1e-5)
    let fall = try require(SeriesAnalysis.largestFall(Self.points))
    expectEqual(fall.date, Day("2024-06-05"))
    expectEqual(fall.change, -15)
    expect(abs(fall.changePercent - (-14.285714)) < 1e-5)
  }

  @Test func maxDrawdownIsTheDeepestFallFromAnEarlierPeak() throws {
    // Peak 110 (06-02), trough 90 (06-05): -20, -18.1818%; the later 120 is a new peak
    // with nothing after it.
    let drawdown = try require(SeriesAnalysis.maxDrawdown(Self.points))
    expect(drawdown.peak == 110 && drawdown.peakDate == Day("2024-06-02"))
    expect(drawdown.trough == 90 && drawdown.troughDate == Day("2024-06-05"))
    expectEqual(drawdown.change, -20)
    expect(abs(drawdown.changePercent - (-18.181818)) < 1e-5)
  }

  @Test func monotonicSeriesHaveNoFallOrDrawdown() {
    let rising = [1.0, 2, 3].enumerated().map {
      RatePoint(date: Day("2024-01-01")!.adding(days: $0.offset), rate: $0.element)
    }
    expectEqual(SeriesAnalysis.largestFall(rising), nil)
    expectEqual(SeriesAnalysis.maxDrawdown(rising), nil)
    expectEqual(SeriesAnalysis.largestRise(rising)?.change, 1)
    expectEqual(SeriesAnalysis.largestRise([]), nil)
    expectEqual(SeriesAnalysis.maxDrawdown(Array(rising.prefix(1))), nil)
  }

  @Test func unorderedInputIsSortedByDate() {
    let shuffled = Self.points.reversed()
    expectEqual(SeriesAnalysis.maxDrawdown(Array(shuffled)), SeriesAnalysis.maxDrawdown(Self.points))
  }
}
