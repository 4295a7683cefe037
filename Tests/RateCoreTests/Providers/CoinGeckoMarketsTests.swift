import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct CoinGeckoMarketsTests {
  func client(_ stub: StubTransport) -> CoinGeckoClient {
    CoinGeckoClient(
      baseURL: URL(string: "https://gecko.test/api/v3")!, key: nil, transport: stub.transport)
  }

  @Test func decodesFullAndNullRows() async throws {
    let stub = StubTransport(body: try Fixtures.string("coingecko/markets_eur.json"))
    let rows = try await client(stub).markets(currency: "EUR", perPage: 5)
    expectEqual(rows.map(\.id), ["bitcoin", "ethereum", "tiny-tail"])
    let bitcoin = rows[0]
    expectEqual(bitcoin.symbol, "BTC")
    expectEqual(bitcoin.currentPrice, 61234)
    expectEqual(bitcoin.marketCapRank, 1)
    expectEqual(bitcoin.maxSupply, 21_000_000)
    expectEqual(bitcoin.athDate, ISO8601.parse("2024-03-14T07:10:36.635Z"))
    expectEqual(rows[1].maxSupply, nil)
    let tail = rows[2]
    expectEqual(tail.currentPrice, 1.07e-06)
    expectEqual(tail.marketCapRank, nil)
    expect(tail.high24h == nil && tail.athDate == nil && tail.lastUpdated == nil)
    expect(!tail.name.contains("\u{1B}") && !tail.name.contains("\u{07}"))

    let request = try require(stub.requests.all.first)
    expectEqual(request.url.path, "/api/v3/coins/markets")
    expectEqual(request.queryItems["vs_currency"], "eur")
    expectEqual(request.queryItems["per_page"], "5")
    expectEqual(request.queryItems["ids"], nil)
  }

  @Test func idsAreBatchedInOneRequest() async throws {
    let stub = StubTransport(body: "[]")
    let rows = try await client(stub).markets(currency: "usd", ids: ["bitcoin", "solana", "tron"])
    expect(rows.isEmpty)
    expectEqual(stub.requests.all.first?.queryItems["ids"], "bitcoin,solana,tron")
  }

  @Test func invalidCurrencyIsReported() async throws {
    let stub = StubTransport(status: 400, body: try Fixtures.string("coingecko/error_invalid_vs_currency.json"))
    await #expect(throws: ProviderError.invalidCurrency(provider: .provider(.coinGecko), currency: "XYZ")) {
      _ = try await client(stub).markets(currency: "xyz")
    }
  }
}
