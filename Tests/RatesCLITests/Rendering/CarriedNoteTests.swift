import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// The note under a history table counts carried days in good English (review of issue 15:
/// "1 day without data repeat the previous day's value").
@Suite struct CarriedNoteTests {
  @Test func oneCarriedDayIsSingular() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run([
      "history", "EUR", "USD", "--from", "2024-06-06", "--to", "2024-06-08", "--table", "--no-color",
    ])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectContains(result.stdout, "1 day without data repeats the previous day's value")
  }
}
