import Foundation
import Testing
@testable import RateCore
@testable import RatesCLI
import RatesTestSupport

@Suite struct SuggestionTests {
  @Test func unknownCoinSuggestsACloseOneAndSearch() {
    let message = ProviderError.coinNotFound(provider: "coingecko", coin: "bitcon").localizedDescription
    #expect(message == "unknown coin 'bitcon' at CoinGecko: did you mean 'bitcoin'? try 'rates search bitcon'")
    let far = ProviderError.coinNotFound(provider: "coingecko", coin: "zzzzzzzz").localizedDescription
    #expect(far == "unknown coin 'zzzzzzzz' at CoinGecko: try 'rates search zzzzzzzz'")
  }

  @Test func unknownCurrencySuggestsACode() {
    let message = ProviderError.invalidCurrency(provider: "coingecko", currency: "EUX").localizedDescription
    #expect(message.contains("did you mean 'EUR'?"))
    #expect(message.contains("rates currencies"))
  }
}
