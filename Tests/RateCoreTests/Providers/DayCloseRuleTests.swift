import RatesExpectations
import Testing

@testable import RateCore

/// Issue 33: a day's close is one rule whatever the granularity of the answer
/// (``DailyResampler``), and a request asks past both ends (``AnswerGate/requested(_:through:)``).
@Suite struct DayCloseRuleTests {
  static let day = Day(year: 2026, month: 11, day: 26)!
  static func at(_ offset: TimeInterval) -> Date { day.end.addingTimeInterval(offset) }

  /// Samples as seconds from the day's end (valued 1, 2, … in order), and the close expected.
  static let cases: [([Double], Double)] = [
    ([-3600.0, 0], 2.0),  // a daily point at the next midnight beats 23:00
    ([-3600.0, 84], 2.0),  // the jittered midnight reading at 00:01:24
    ([-3600.0, 1700], 2.0),  // still the day's end within half an hour
    ([-3600.0, 1900], 1.0),  // past half an hour: the next day's, so 23:00 closes the day
    ([-120.0, 120], 1.0),  // as near before as after: the one before midnight
    ([-86_400 + 600.0, -7200], 2.0),  // 00:10 of the day closes the day before it
  ]

  @Test(arguments: cases)
  func theCloseIsTheSampleNearestTheDaysEnd(_ offsets: [Double], _ expected: Double) {
    let samples = offsets.enumerated().map { (Self.at($0.element), Double($0.offset + 1)) }
    let closes = DailyResampler.closes(of: samples, in: Self.day...Self.day)
    expectEqual(closes, [RatePoint(date: Self.day, rate: expected)])
  }

  @Test func hourlyDailyAndCandleAnswersGiveTheSameClose() {
    let price = { (instant: Date) in instant.timeIntervalSince1970 / 1000 }
    let days = Self.day.adding(days: -2)...Self.day
    // Daily points at 00:00, hourly ones on the hour, daily candles stamped at their start.
    let daily = (-2...1).map { Self.day.adding(days: $0).start }.map { ($0, price($0)) }
    let hourly = stride(from: -72.0, through: 24, by: 1).map { Self.at($0 * 3600) }.map { ($0, price($0)) }
    let candles = (-2...0).map { Self.day.adding(days: $0).start }.map { ($0, price($0.addingTimeInterval(86_400))) }
    let expected = (0...2).map { days.lowerBound.adding(days: $0) }.map { RatePoint(date: $0, rate: price($0.end)) }
    expectEqual(DailyResampler.closes(of: daily, in: days), expected)
    expectEqual(DailyResampler.closes(of: hourly, in: days), expected)
    expectEqual(DailyResampler.closes(ofCandles: candles, width: 86_400, in: days), expected)
  }

  @Test func aRequestAsksADayPastBothEndsNeverPastItsLastDay() {
    let days = Self.day.adding(days: -5)...Self.day.adding(days: -2)
    expectEqual(AnswerGate.requested(days, through: Self.day), Self.day.adding(days: -6)...Self.day.adding(days: -1))
    expectEqual(
      AnswerGate.requested(days, through: Self.day.adding(days: -2)),
      Self.day.adding(
        days: -6)...Self.day.adding(days: -2))
  }
}
