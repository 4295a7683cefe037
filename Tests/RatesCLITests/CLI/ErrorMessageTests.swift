import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The words `RatesCLI` gives the domain's errors (ErrorMessages.swift).
@Suite struct ErrorMessageTests {
  @Test func unknownCoinSuggestsACloseOneAndSearch() {
    let message = ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: "bitcon").localizedDescription
    expectEqual(message, "unknown coin 'bitcon' at CoinGecko: did you mean 'bitcoin'? try 'rates search bitcon'")
    let far = ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: "zzzzzzzz").localizedDescription
    expectEqual(far, "unknown coin 'zzzzzzzz' at CoinGecko: try 'rates search zzzzzzzz'")
  }

  @Test(arguments: ["ETH", "eth", "bitcoin", "BTC", "Ethereum-Classic"])
  func aSuggestionNeverRepeatsWhatWasTypedOrTheSameCoin(_ typed: String) {
    let message = ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: typed).localizedDescription
    expect(!message.contains("did you mean"), "\(message)")
    expectContains(message, "'\(typed)'")
  }

  /// `config set currency SATS` is accepted, and a provider refusing it must not answer
  /// "did you mean 'SATS'?" (review of issue 15: a hint that leads nowhere).
  /// Nor with a neighbour of a code rates knows ("KWD: did you mean 'TWD'?").
  @Test(arguments: ["SATS", "sats", "EUR", "XDR", "KWD", "JPY"])
  func aKnownCurrencyGetsNoSuggestion(_ typed: String) {
    let message = ProviderError.invalidCurrency(provider: .provider(.coinGecko), currency: typed).localizedDescription
    expect(!message.contains("did you mean"), "\(message)")
  }

  @Test func anUnreadableResponseIsNotCalledPassing() {
    let message = ProviderError.malformedResponse(
      provider: .provider(.frankfurter), endpoint: "/latest", detail: "an HTML page where JSON was expected"
    ).localizedDescription
    expect(!message.contains("try again"))
    expectContains(message, "RATES_FRANKFURTER_URL")
  }

  @Test func unknownCurrencySuggestsACode() {
    let message = ProviderError.invalidCurrency(provider: .provider(.coinGecko), currency: "EUX").localizedDescription
    expectContains(message, "did you mean 'EUR'?")
    expectContains(message, "rates currencies")
  }

  @Test func messagesNameFrankfurter() {
    let error = ProviderError.invalidCurrency(provider: .provider(.frankfurter), currency: "GBP,XYZ")
    expectEqual(error.errorDescription?.hasPrefix("Frankfurter (ECB) does not price in one of"), true)
  }

  @Test func aRejectedKeyIsNamedWithItsHint() {
    let error = ProviderError.apiKeyRejected(
      provider: .provider(.coinGecko), detail: "a Demo key is for api.coingecko.com: set COINGECKO_API_KEY")
    expect(error.localizedDescription.hasPrefix("CoinGecko rejected the API key: "))
    expectContains(error.localizedDescription, "COINGECKO_")
  }
}
