import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// Hostile numbers from providers: range-checked, never a trap.
@Suite struct ProviderNumbersTests {
  let base = URL(string: "https://gecko.test/api/v3")!

  func client(_ body: String) -> (CoinGeckoClient, StubTransport) {
    let stub = StubTransport(body: body)
    return (CoinGeckoClient(baseURL: base, key: nil, transport: stub.transport), stub)
  }

  /// Impossible Unix seconds, as JSON numbers.
  static let hostileSeconds = [
    "1e300", "-1e300", "9223372036854775807", "-9223372036854775808", "-1", "253402300800",
  ]
  /// Impossible Unix milliseconds, as JSON numbers.
  static let hostileMilliseconds = [
    "1e300", "-1e300", "9223372036854775807", "-9223372036854775808", "-1", "253402300800000",
  ]

  // MARK: - The checks

  @Test func unixTimesAreAcceptedFrom1970To9999Only() {
    expectEqual(ProviderNumbers.date(unixSeconds: 0), Date(timeIntervalSince1970: 0))
    expect(ProviderNumbers.date(unixSeconds: 1_718_000_000) != nil)
    expect(ProviderNumbers.date(unixSeconds: 253_402_300_799) != nil)
    for value in [-1, 253_402_300_800, 1e300, -1e300, .infinity, -.infinity, .nan] {
      expectEqual(ProviderNumbers.date(unixSeconds: value), nil, "\(value)")
    }
    expect(ProviderNumbers.date(unixMilliseconds: 1_717_977_600_000) != nil)
    expectEqual(ProviderNumbers.date(unixMilliseconds: Double(Int64.max)), nil)
    expectEqual(ProviderNumbers.date(unixMilliseconds: .nan), nil)
  }

  // MARK: - CoinGecko /simple/price

  @Test(arguments: hostileSeconds)
  func impossibleLastUpdatedAtKeepsThePriceWithoutATime(_ value: String) async throws {
    let (client, _) = client(
      #"{"bitcoin":{"eur":61234,"eur_24h_change":-1.5,"last_updated_at":\#(value)}}"#)
    let prices = try await client.simplePrices(ids: ["bitcoin"], currencies: ["eur"])
    let price = try require(prices["bitcoin"]?["EUR"])
    expectEqual(price.rate, 61234)
    expectEqual(price.change24hPercent, -1.5)
    expectEqual(price.updatedAt, nil)
  }

  @Test(arguments: [#""NaN""#, "NaN", "Infinity", #""1e300""#])
  func nonNumericLastUpdatedAtIsAMalformedResponse(_ value: String) async throws {
    let (client, _) = client(#"{"bitcoin":{"eur":61234,"last_updated_at":\#(value)}}"#)
    await #expect(throws: ProviderError.self) {
      _ = try await client.simplePrices(ids: ["bitcoin"], currencies: ["eur"])
    }
    do {
      _ = try await client.simplePrices(ids: ["bitcoin"], currencies: ["eur"])
    } catch ProviderError.malformedResponse(let provider, let endpoint, _) {
      expectEqual(provider, .provider(.coinGecko))
      expectEqual(endpoint, "/simple/price")
    }
  }

  // MARK: - CoinGecko market_chart

  /// Issue 22: a chart point with an impossible time refuses the answer (``AnswerGate``);
  /// it used to be dropped and the rest kept. No value is trapped on either way.
  @Test(arguments: hostileMilliseconds)
  func anImpossibleChartTimeRefusesTheAnswer(_ stamp: String) async throws {
    let (client, _) = client(
      #"{"prices":[[1717977600000,61022.87],[\#(stamp),1.5],[1718000000123,61234.0]]}"#)
    await #expect {
      _ = try await client.marketChart(id: "bitcoin", currency: "EUR", days: 1)
    } throws: { error in
      guard case .malformedResponse(_, _, let detail)? = error as? ProviderError else { return false }
      return detail.contains("prices[1][0]")
    }
  }

  @Test(arguments: [#"[["NaN",1.0]]"#, "[[NaN,1.0]]", #"[[1717977600000,"x"]]"#])
  func nonNumericChartPointsAreAMalformedResponse(_ prices: String) async throws {
    let (client, _) = client(#"{"prices":\#(prices)}"#)
    do {
      _ = try await client.marketChart(id: "bitcoin", currency: "EUR", days: 1)
      Issue.record("expected an error")
    } catch ProviderError.malformedResponse(let provider, let endpoint, _) {
      expectEqual(provider, .provider(.coinGecko))
      expectEqual(endpoint, "/coins/{id}/market_chart")
    }
  }

  @Test func aChartOfNullValuesIsEmpty() async throws {
    let (client, _) = client(#"{"prices":[[1717977600000,null],[1718000000123,null]]}"#)
    let samples = try await client.marketChart(id: "bitcoin", currency: "EUR", days: 1)
    expect(samples.isEmpty)
  }
}
