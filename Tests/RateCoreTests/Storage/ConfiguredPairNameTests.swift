import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// A pair read back from its name, as lists and rows write it.
@Suite struct ConfiguredPairNameTests {
  @Test(arguments: [("GBP-USD", "GBP", "USD"), ("gbp/usd", "gbp", "usd"), ("BTC-EUR", "BTC", "EUR")])
  func aNameGivesItsTwoSides(name: String, base: String, quote: String) throws {
    let pair = try require(ConfiguredPair(name: name, addedAt: fixedNow))
    expect(pair.base == base && pair.quote == quote)
    expect(pair.isNamed(name))
  }

  @Test(arguments: ["GBP", "GBP-", "-USD", "GBP-USD-EUR", ""])
  func anythingElseIsNoPair(name: String) {
    expectEqual(ConfiguredPair(name: name, addedAt: fixedNow), nil)
  }
}
