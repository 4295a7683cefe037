import RateCore
import Testing

/// The one rule for the period a quote's change covers.
@Suite struct ChangePeriodTests {
  /// Before: no such rule (watch decided per feed, `current --json` gave no period at all).
  @Test func aQuotesChangePeriodFollowsItsSource() {
    #expect(ChangePeriod.of(source: .provider(.coinGecko)) == .hours24)
    #expect(ChangePeriod.of(source: .provider(.frankfurter)) == .workingDay)
    #expect(ChangePeriod.of(source: .provider(.coinDesk)) == .workingDay)
    #expect(ChangePeriod.of(source: .ecbSnapshot(through: nil)) == .workingDay)
    #expect(ChangePeriod.workingDay.rawValue == "1d")
  }
}
