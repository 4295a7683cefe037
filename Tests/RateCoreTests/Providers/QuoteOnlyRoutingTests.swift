import RatesExpectations
import Testing

@testable import RateCore

/// Codes CoinGecko prices coins in but that are neither a coin nor an ECB currency
/// (XDR, XAU, XAG, BITS, SATS) are never asked for as a coin (review of issue 15:
/// `config set currency XDR` was accepted, then `current EUR` said "unknown coin 'XDR'").
@Suite struct QuoteOnlyRoutingTests {
  @Test(arguments: ["XDR", "XAU", "XAG", "BITS", "SATS"])
  func aFiatPairWithAQuoteOnlyCodeHasNoProvider(_ code: String) {
    #expect(throws: ProviderError.noProvider(base: "EUR", quote: code)) {
      try PairRouter.route(base: "EUR", quote: code, forced: nil)
    }
    #expect(throws: ProviderError.noProvider(base: code, quote: "USD")) {
      try PairRouter.route(base: code, quote: "USD", forced: nil)
    }
  }

  @Test func aCoinPricedInAQuoteOnlyCodeIsCoinGeckosEitherWay() throws {
    let direct = try PairRouter.route(base: "BTC", quote: "XDR", forced: nil)
    expectEqual(direct, PairRoute(provider: .coinGecko, base: "BTC", quote: "XDR", inverted: false))
    let inverse = try PairRouter.route(base: "XDR", quote: "BTC", forced: nil)
    expectEqual(inverse, PairRoute(provider: .coinGecko, base: "BTC", quote: "XDR", inverted: true))
  }
}
