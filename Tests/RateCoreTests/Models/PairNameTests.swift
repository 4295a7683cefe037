import RatesExpectations
import Testing

@testable import RateCore

/// One reading of `BASE-QUOTE` and `BASE/QUOTE` for commands, the ledger, the pair lists and
/// the home screen.
@Suite struct PairNameTests {
  @Test(arguments: [
    ("GBP-USD", "GBP", "USD", false), ("gbp/usd", "gbp", "usd", true),
    ("usd-coin/EUR", "usd-coin", "EUR", true), ("USD-LBP", "USD", "LBP", false),
  ])
  func aNameGivesItsTwoSides(text: String, base: String, quote: String, slashed: Bool) throws {
    let name = try require(PairName(text))
    expect(name.base == base && name.quote == quote && name.slashed == slashed)
  }

  @Test(arguments: ["GBP", "GBP-", "-USD", "/USD", "GBP-USD-EUR", "A/B/C", ""])
  func anythingElseIsNoPair(text: String) {
    expectEqual(PairName(text), nil)
  }
}
