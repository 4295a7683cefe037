import RateCore
import RatesTestSupport
import Testing

/// Error shapes issue 14 lists that no real recording shows (see
/// `fixtures/README.md`, `synthetic_*`): a numeric `status`, code 10005, 422.
@Suite struct SyntheticErrorShapeTests {
  let base = URL(string: "https://gecko.test/api/v3")!

  func markets(status: Int, fixture: String) async throws {
    let stub = StubTransport(status: status, body: try Fixtures.string(fixture))
    _ = try await CoinGeckoClient(baseURL: base, key: .demo("CG-x"), transport: stub.transport)
      .markets(currency: "usd")
  }

  @Test func aNumericStatusBesideAFlatErrorIsRead() async throws {
    let stub = StubTransport(
      status: 404, body: try Fixtures.string("coingecko/synthetic_error_status_number_404.json"))
    await #expect(throws: ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: "nope")) {
      _ = try await CoinGeckoClient(baseURL: base, key: nil, transport: stub.transport)
        .marketChart(id: "nope", currency: "usd", days: 7)
    }
  }

  @Test(arguments: [
    "coingecko/synthetic_error_status_number_10005.json",
    "coingecko/synthetic_error_10005_not_in_plan.json",
  ])
  func code10005IsAnEndpointOutsideThePlan(_ fixture: String) async throws {
    await #expect(
      throws: ProviderError.paidPlanOnly(
        provider: .provider(.coinGecko), endpoint: "/coins/markets", sent: .demo)
    ) { try await markets(status: 403, fixture: fixture) }
  }

  @Test func a422KeepsCoinGeckosMessage() async throws {
    await #expect(
      throws: ProviderError.httpStatus(
        provider: .provider(.coinGecko), status: 422, message: "invalid parameter: per_page")
    ) { try await markets(status: 422, fixture: "coingecko/synthetic_error_422.json") }
  }

  @Test func frankfurter422BadPairIsUnsupported() async throws {
    let stub = StubTransport(status: 422, body: try Fixtures.string("frankfurter/error_bad_pair.json"))
    let client = FrankfurterClient(
      baseURL: URL(string: "https://frank.test/v1")!, transport: stub.transport)
    await #expect(
      throws: ProviderError.unsupported(
        provider: .provider(.frankfurter),
        detail: "bad currency pair: the base and quote are the same currency")
    ) { _ = try await client.latest(pairs: [CurrencyPairKey(base: "EUR", quote: "USD")]) }
  }
}
