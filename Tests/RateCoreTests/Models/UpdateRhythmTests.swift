import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// When a quote is much older than its provider's update rhythm.
@Suite struct UpdateRhythmTests {
  static func at(_ text: String) -> Date {
    ISO8601DateFormatter().date(from: text) ?? .distantPast
  }

  static func quote(source: RateSource, updatedAt: Date?) -> Quote {
    Quote(
      base: "X", quote: "Y", rate: 1, change24hPercent: nil, source: source, fetchedAt: fixedNow,
      updatedAt: updatedAt)
  }

  @Test func aCoinPriceIsOldAfterAnHourWithoutAnUpdate() {
    let clock = TestClock(now: fixedNow)
    let recent = Self.quote(source: .provider(.coinGecko), updatedAt: clock.now.addingTimeInterval(-90))
    let frozen = Self.quote(source: .provider(.coinDesk), updatedAt: clock.now.addingTimeInterval(-7200))
    expect(!UpdateRhythm.isOld(recent, at: clock.now))
    expect(UpdateRhythm.isOld(frozen, at: clock.now))
    expect(!UpdateRhythm.isOld(Self.quote(source: .provider(.coinGecko), updatedAt: nil), at: clock.now))
  }

  @Test(arguments: [
    ("2024-06-07", "2024-06-09T12:00:00Z", false),  // Friday's rate on Sunday
    ("2024-06-07", "2024-06-10T10:00:00Z", false),  // Monday's is not out yet
    ("2024-06-07", "2024-06-10T17:00:00Z", true),  // Monday's should be out
    ("2024-03-28", "2024-04-02T10:00:00Z", false),  // Thursday's over Easter
    ("2024-03-28", "2024-04-02T16:30:00Z", true),
    ("2024-06-05", "2024-06-07T09:00:00Z", true),  // Thursday's is missing
  ])
  func anECBRateIsOldOnlyWhenANewerWorkingDayIsDue(day: String, now: String, old: Bool) throws {
    let published = try require(Day(day)).start
    let quote = Self.quote(source: .provider(.frankfurter), updatedAt: published)
    expectEqual(UpdateRhythm.isOld(quote, at: Self.at(now)), old)
  }
}

/// Item 11 of the review: the built-in ECB snapshot's rates follow the ECB's rhythm.
@Suite struct SnapshotRhythmTests {
  /// Before: judged by the one-hour coin rule, Friday's rate was old on Sunday.
  @Test func aSnapshotRateIsJudgedAsAnECBRate() throws {
    let friday = try require(Day("2024-06-07")).start
    let sunday = UpdateRhythmTests.at("2024-06-09T12:00:00Z")
    let source = RateSource.ecbSnapshot(through: Day("2024-06-07"))
    expect(!UpdateRhythm.isOld(updatedAt: friday, source: source, at: sunday))
    expect(UpdateRhythm.isOld(updatedAt: friday, source: source, at: UpdateRhythmTests.at("2024-06-11T17:00:00Z")))
  }
}
