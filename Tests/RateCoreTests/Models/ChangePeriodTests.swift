import RateCore
import RatesExpectations
import Testing

/// The one rule for the period a quote's change covers.
@Suite struct ChangePeriodTests {
  /// Before: no such rule (watch decided per feed, `current --json` gave no period at all).
  @Test func aQuotesChangePeriodFollowsItsSource() {
    expectEqual(ChangePeriod.of(source: .provider(.coinGecko)), .hours24)
    expectEqual(ChangePeriod.of(source: .provider(.frankfurter)), .workingDay)
    expectEqual(ChangePeriod.of(source: .provider(.coinDesk)), .workingDay)
    expectEqual(ChangePeriod.of(source: .ecbSnapshot(through: nil)), .workingDay)
    expectEqual(ChangePeriod.workingDay.rawValue, "1d")
  }
}
