import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The words for data served from the cache.
@Suite struct StalenessNoteTests {
  @Test func aFallbackSaysWhyAndHowOld() {
    let staleness = Staleness(
      fetchedAt: fixedNow, reason: .rateLimited(provider: .provider(.coinGecko), retryAfter: 30))
    expect(staleness.note(now: fixedNow.addingTimeInterval(7200)).contains("2 h ago"))
  }
}
