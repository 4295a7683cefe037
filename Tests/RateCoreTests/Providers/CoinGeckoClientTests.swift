import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct CoinGeckoClientTests {
  let base = URL(string: "https://gecko.test/api/v3")!

  func client(_ stub: StubTransport, key: CoinGeckoClient.APIKey? = nil) -> CoinGeckoClient {
    CoinGeckoClient(baseURL: base, key: key, transport: stub.transport)
  }

  // MARK: - Decoding recorded responses

  @Test func simplePriceDecodesIntegersFloatsAndNulls() async throws {
    let stub = StubTransport(body: try Fixtures.string("coingecko/simple_price.json"))
    let prices = try await client(stub).simplePrices(
      ids: ["bitcoin", "ethereum"], currencies: ["EUR", "usd"])
    expectEqual(prices["bitcoin"]?["EUR"]?.rate, 61234)
    expectEqual(prices["bitcoin"]?["USD"]?.rate, 66012.27)
    expectEqual(prices["bitcoin"]?["EUR"]?.updatedAt, Date(timeIntervalSince1970: 1_718_000_000))
    expectEqual(prices["ethereum"]?["EUR"]?.change24hPercent, nil)
    expectEqual(prices["ethereum"]?["USD"]?.change24hPercent, 0.4521098765432)
  }

  @Test func simplePriceSendsOneBatchedRequestWithLowercaseCurrencies() async throws {
    let stub = StubTransport(body: try Fixtures.string("coingecko/simple_price.json"))
    _ = try await client(stub).simplePrices(ids: ["bitcoin", "ethereum"], currencies: ["EUR", "USD"])
    let request = try require(stub.requests.all.first)
    expectEqual(stub.requests.count, 1)
    expectEqual(request.url.path, "/api/v3/simple/price")
    expectEqual(request.queryItems["ids"], "bitcoin,ethereum")
    expectEqual(request.queryItems["vs_currencies"], "eur,usd")
    expectEqual(request.queryItems["include_24hr_change"], "true")
    expectEqual(request.queryItems["include_last_updated_at"], "true")
    expectEqual(request.headers["User-Agent"], "rates/\(RatesVersion.current)")
  }

  @Test func emptySimplePriceMeansNoKnownIds() async throws {
    let stub = StubTransport(body: try Fixtures.string("coingecko/simple_price_empty.json"))
    let prices = try await client(stub).simplePrices(ids: ["nope"], currencies: ["eur"])
    expect(prices.isEmpty)
  }

  @Test func marketChartGivesOneCloseADayAndTheNowPoint() async throws {
    let stub = StubTransport(body: try Fixtures.string("coingecko/market_chart_bitcoin_eur_28d_daily.json"))
    let samples = try await client(stub).marketChart(id: "bitcoin", currency: "EUR", days: 28)
    expectEqual(samples.count, 29)
    let request = try require(stub.requests.all.first)
    expectEqual(request.url.path, "/api/v3/coins/bitcoin/market_chart")
    expectEqual(request.queryItems["vs_currency"], "eur")
    expectEqual(request.queryItems["days"], "28")
    expectEqual(request.queryItems["interval"], "daily")

    let today = Day(containing: fixedNow)
    let window = today.adding(days: -27)...today
    let closes = DailyResampler.closes(of: samples, in: window)
    // Midnights 2024-05-15 … 2024-06-10 close the days 2024-05-14 … 2024-06-09;
    // the midnight of 2024-05-14 closes 2024-05-13, outside the window, and
    // the "now" point (06:13 on 2024-06-10) is today's.
    expectEqual(closes.count, 28)
    expectEqual(closes.first?.date, Day("2024-05-14"))
    expectEqual(closes.first?.rate, 57076.19)
    expectEqual(closes.dropLast().last?.date, Day("2024-06-09"))
    expectEqual(closes.dropLast().last?.rate, 59262.24)
    expectEqual(closes.last?.date, Day("2024-06-10"))
    expectEqual(closes.last?.rate, 59505.22)
  }

  @Test func hourlyDataIsResampledToTheSampleNearestEachDaysEnd() async throws {
    let stub = StubTransport(body: try Fixtures.string("coingecko/market_chart_bitcoin_usd_hourly.json"))
    let samples = try await client(stub).marketChart(id: "bitcoin", currency: "usd", days: 2)
    let window = Day("2024-06-08")!...Day("2024-06-10")!
    let closes = DailyResampler.closes(of: samples, in: window)
    expectEqual(closes.map(\.date.description), ["2024-06-08", "2024-06-09", "2024-06-10"])
    // A day's close is the price at its end: of 23:13:13 and 00:14:12 the sample nearer
    // midnight (the jittered midnight reading), as a daily point stamped 00:00 would be.
    expectEqual(closes[0].rate, 66739.05)  // 2024-06-09T00:14:12
    expectEqual(closes[1].rate, 66084.3)  // 2024-06-10T00:14:10, not 23:13:50's 66131.49
    expectEqual(closes[2].rate, 66731.52)
  }

  @Test func searchSanitizesAndUppercasesSymbols() async throws {
    let body = #"""
      {"coins":[{"id":"evil","name":"Evil\u001b[31mCoin","api_symbol":"evil","symbol":"ev\u0007il",
      "market_cap_rank":null,"thumb":"","large":""}],"exchanges":[],"icos":[],"categories":[],"nfts":[]}
      """#
    let results = try await client(StubTransport(body: body)).search("evil")
    expectEqual(results, [.init(id: "evil", symbol: "EVIL", name: "EvilCoin", marketCapRank: nil)])
  }

  @Test func searchWithNoMatchIsEmpty() async throws {
    let stub = StubTransport(body: try Fixtures.string("coingecko/search_empty.json"))
    expect(try await client(stub).search("zzzz").isEmpty)
  }

  // MARK: - Keys

  @Test func demoKeyGoesInItsHeaderOnly() async throws {
    let stub = StubTransport(body: "{}")
    _ = try await client(stub, key: .demo("CG-secret")).simplePrices(ids: ["bitcoin"], currencies: ["usd"])
    let request = try require(stub.requests.all.first)
    expectEqual(request.headers["x-cg-demo-api-key"], "CG-secret")
    expectEqual(request.headers["x-cg-pro-api-key"], nil)
    expectEqual(request.url.absoluteString.contains("CG-secret"), false)
  }

  @Test func proKeyUsesTheProHeader() async throws {
    let stub = StubTransport(body: "{}")
    _ = try await client(stub, key: .pro("CG-pro")).simplePrices(ids: ["bitcoin"], currencies: ["usd"])
    let request = try require(stub.requests.all.first)
    expectEqual(request.headers["x-cg-pro-api-key"], "CG-pro")
    expectEqual(request.headers["x-cg-demo-api-key"], nil)
  }

  // MARK: - Errors

  struct ErrorCase: Sendable, CustomTestStringConvertible {
    var status: Int
    var headers: [String: String] = [:]
    var fixture: String
    var expected: ProviderError
    var testDescription: String { "\(status) \(fixture)" }
  }

  static let errorCases: [ErrorCase] = [
    .init(
      status: 429, headers: ["Retry-After": "30"], fixture: "coingecko/error_429.json",
      expected: .rateLimited(provider: .provider(.coinGecko), retryAfter: 30)),
    .init(
      status: 429, fixture: "coingecko/error_429.json",
      expected: .rateLimited(provider: .provider(.coinGecko), retryAfter: nil)),
    .init(
      status: 429, fixture: "coingecko/error_throttled.txt",
      expected: .rateLimited(provider: .provider(.coinGecko), retryAfter: nil)),
    .init(
      status: 404, fixture: "coingecko/error_coin_not_found.json",
      expected: .coinNotFound(provider: .provider(.coinGecko), coin: "bitcoin")),
    .init(
      status: 400, fixture: "coingecko/error_invalid_vs_currency.json",
      expected: .invalidCurrency(provider: .provider(.coinGecko), currency: "EUR")),
    // 10012 for a request that stayed within 365 days: CoinGecko's own
    // message, not a claim that the range was too long (see below).
    .init(
      status: 401, fixture: "coingecko/error_10012_range.json",
      expected: .httpStatus(
        provider: .provider(.coinGecko), status: 401,
        message: "Your request exceeds the allowed time range. Public API users are limited to"
          + " querying historical data within the past 365 days. Upgrade to a paid plan to enjoy"
          + " full historical data access: https://www.coingecko.com/en/api/pricing. ")),
    .init(
      status: 401, fixture: "coingecko/error_10002_key_missing.json",
      expected: .apiKeyMissing(provider: .provider(.coinGecko))),
    .init(
      status: 500, fixture: "coingecko/error_cloudflare.html",
      expected: .serverError(provider: .provider(.coinGecko), status: 500)),
    .init(
      status: 403, fixture: "coingecko/error_cloudflare.html",
      expected: .httpStatus(provider: .provider(.coinGecko), status: 403, message: "")),
  ]

  @Test(arguments: errorCases)
  func errorBodiesMapToProviderErrors(_ errorCase: ErrorCase) async throws {
    let stub = StubTransport(
      status: errorCase.status, headers: errorCase.headers, body: try Fixtures.string(errorCase.fixture))
    await #expect(throws: errorCase.expected) {
      _ = try await client(stub).marketChart(id: "bitcoin", currency: "eur", days: 28)
    }
  }

  @Test func aRangeOver365DaysIsHistoryTooOld() async throws {
    let stub = StubTransport(status: 401, body: try Fixtures.string("coingecko/error_10012_range.json"))
    await #expect(throws: ProviderError.historyTooOld(provider: .provider(.coinGecko))) {
      _ = try await client(stub).marketChart(id: "bitcoin", currency: "eur", days: 366)
    }
  }

  @Test(arguments: [
    ("coingecko/error_10010_wrong_host.json", 10010, CoinGeckoClient.APIKey.pro("CG-secret")),
    ("coingecko/error_10011_wrong_host.json", 10011, .demo("CG-secret")),
    ("coingecko/error_10011_wrong_host.json", 10011, .pro("CG-secret")),
  ])
  func wrongPlanKeysNameTheCodeAndThePlanSent(
    _ fixture: String, _ code: Int, _ key: CoinGeckoClient.APIKey
  ) async throws {
    let stub = StubTransport(status: 400, body: try Fixtures.string(fixture))
    await #expect(
      throws: ProviderError.keyPlanMismatch(provider: .provider(.coinGecko), code: code, sent: key.plan)
    ) {
      _ = try await client(stub, key: key).simplePrices(ids: ["bitcoin"], currencies: ["usd"])
    }
  }

  @Test func truncatedJSONIsAMalformedResponseNamingTheEndpoint() async throws {
    let full = try Fixtures.string("coingecko/market_chart_bitcoin_eur_28d_daily.json")
    let stub = StubTransport(body: String(full.prefix(200)))
    await #expect(
      throws: ProviderError.malformedResponse(
        provider: .provider(.coinGecko), endpoint: "/coins/{id}/market_chart",
        detail: "not valid JSON, possibly truncated")
    ) {
      _ = try await client(stub).marketChart(id: "bitcoin", currency: "eur", days: 28)
    }
  }

  @Test func wrongShapeNamesTheDecodingPath() async throws {
    let stub = StubTransport(body: #"{"prices":[[1717977600000,"abc"]]}"#)
    do {
      _ = try await client(stub).marketChart(id: "bitcoin", currency: "eur", days: 1)
      Issue.record("expected an error")
    } catch ProviderError.malformedResponse(_, _, let detail) {
      expectContains(detail, "prices[0][1]")
    }
  }

  @Test func nullValuesInChartsAreSkipped() async throws {
    let stub = StubTransport(body: #"{"prices":[[1717977600000,null],[1718000000000,5.5]]}"#)
    let samples = try await client(stub).marketChart(id: "bitcoin", currency: "eur", days: 1)
    expectEqual(samples.count, 1)
    expectEqual(samples.first?.1, 5.5)
  }

  @Test func transportFailuresBecomeNetworkErrors() async throws {
    let failing = HTTPTransport { _ in throw HTTPError.timedOut(host: "gecko.test", seconds: 10) }
    let client = CoinGeckoClient(baseURL: base, key: nil, transport: failing)
    await #expect(
      throws: ProviderError.network(
        provider: .provider(.coinGecko), .timedOut(host: "gecko.test", seconds: 10))
    ) {
      _ = try await client.search("btc")
    }
  }
}
