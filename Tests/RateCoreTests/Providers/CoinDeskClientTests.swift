import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct CoinDeskClientTests {
  func client(_ stub: StubTransport) -> CoinDeskClient {
    CoinDeskClient(baseURL: URL(string: "https://bpi.test/v1/bpi")!, transport: stub.transport)
  }

  @Test func currentPriceUsesRateFloat() async throws {
    let stub = StubTransport(body: try Fixtures.string("coindesk/currentprice_EUR.json"))
    let (rate, updated) = try await client(stub).currentPrice(currency: "eur")
    expectEqual(rate, 20567.8912)
    expectEqual(updated, ISO8601.parse("2022-07-10T18:45:00+00:00"))
    expectEqual(stub.requests.all.first?.url.path, "/v1/bpi/currentprice/EUR.json")
  }

  @Test func rateFloatAsAStringIsAccepted() async throws {
    let stub = StubTransport(body: try Fixtures.string("coindesk/currentprice_CNY_string_float.json"))
    let (rate, _) = try await client(stub).currentPrice(currency: "CNY")
    expectEqual(rate, 775.0665)
  }

  @Test func historicalClosesAreSortedWhateverTheKeyOrder() async throws {
    let stub = StubTransport(body: try Fixtures.string("coindesk/historical_close_EUR.json"))
    let closes = try await client(stub).historicalCloses(
      currency: "EUR", start: Day("2022-05-01")!, end: Day("2022-05-31")!)
    expectEqual(closes.count, 31)
    expectEqual(closes.map(\.date), closes.map(\.date).sorted())
    expectEqual(closes.first?.date, Day("2022-05-01"))
    let request = try require(stub.requests.all.first)
    expectEqual(request.queryItems, ["currency": "EUR", "start": "2022-05-01", "end": "2022-05-31"])
  }

  @Test func emptyRangeIsNoCloses() async throws {
    let stub = StubTransport(body: try Fixtures.string("coindesk/historical_empty.json"))
    let closes = try await client(stub).historicalCloses(
      currency: "EUR", start: Day("2009-01-01")!, end: Day("2009-01-05")!)
    expect(closes.isEmpty)
  }

  @Test func plainTextErrorsAreRecognised() async throws {
    let notFound = StubTransport(status: 404, body: try Fixtures.string("coindesk/error_currency_not_found.txt"))
    await #expect(throws: ProviderError.invalidCurrency(provider: .provider(.coinDesk), currency: "XYZ")) {
      _ = try await client(notFound).currentPrice(currency: "XYZ")
    }
    let early = StubTransport(status: 404, body: try Fixtures.string("coindesk/error_before_2010.txt"))
    await #expect(throws: ProviderError.self) {
      _ = try await client(early).historicalCloses(
        currency: "USD", start: Day("2009-01-01")!, end: Day("2009-01-02")!)
    }
    let broken = StubTransport(status: 500, body: try Fixtures.string("coindesk/error_no_results.txt"))
    await #expect(throws: ProviderError.noData(provider: .provider(.coinDesk), detail: "no prices for that range")) {
      _ = try await client(broken).historicalCloses(
        currency: "USD", start: Day("2022-01-01")!, end: Day("2022-01-02")!)
    }
  }

  @Test func coinDeskSourceRefusesOtherCoins() async throws {
    let source = PriceSource.coinDesk(client: client(StubTransport(body: "{}")), now: { fixedNow })
    await #expect(throws: ProviderError.self) { _ = try await source.resolve("ETH") }
    expectEqual(try await source.resolve("btc"), Asset(symbol: "BTC", id: "BTC"))
  }
}
