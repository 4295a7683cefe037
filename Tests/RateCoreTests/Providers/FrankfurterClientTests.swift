import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct FrankfurterClientTests {
  func client(_ stub: StubTransport) -> FrankfurterClient {
    FrankfurterClient(baseURL: URL(string: "https://fx.test/v1")!, transport: stub.transport)
  }

  func pair(_ text: String) -> CurrencyPairKey {
    CurrencyPairKey(text) ?? CurrencyPairKey(base: "?", quote: "?")
  }

  func pairs(_ texts: String...) -> [CurrencyPairKey] { texts.map(pair) }

  /// Equal to within a relative 1e-12: hand-computed quotients are written rounded.
  func close(_ lhs: Double?, _ rhs: Double, tolerance: Double = 1e-12) -> Bool {
    guard let lhs else { return false }
    return abs(lhs - rhs) <= tolerance * max(abs(rhs), 1)
  }

  // MARK: - Latest

  @Test func latestWithOneBaseAsksForThatBaseDirectly() async throws {
    let stub = StubTransport(body: try Fixtures.string("frankfurter/latest_gbp.json"))
    let (date, rates) = try await client(stub).latest(pairs: pairs("GBP-USD", "gbp-eur", "GBP-JPY"))
    expectEqual(date, Day("2024-06-07"))
    // Frankfurter's own (rounded) cross rates, unchanged.
    expectEqual(rates, [pair("GBP-USD"): 1.2818, pair("GBP-EUR"): 1.1772, pair("GBP-JPY"): 200.13])
    expectEqual(stub.requests.count, 1)
    let request = try require(stub.requests.all.first)
    expectEqual(request.url.path, "/v1/latest")
    expectEqual(request.url.query, "from=GBP&to=EUR,JPY,USD")
    expectEqual(request.headers["User-Agent"]?.hasPrefix("rates/"), true)
  }

  @Test func latestInEuroReadsTheRawFigures() async throws {
    let stub = StubTransport(body: try Fixtures.string("frankfurter/latest_eur.json"))
    let (date, rates) = try await client(stub).latest(pairs: pairs("EUR-USD", "EUR-GBP", "EUR-USD"))
    expectEqual(date, Day("2024-06-07"))
    expectEqual(rates, [pair("EUR-USD"): 1.0889, pair("EUR-GBP"): 0.8495])
    expectEqual(stub.requests.all.first?.url.query, "from=EUR&to=GBP,USD")
  }

  @Test func mixedBasesCostOneEuroRequestAndAreTriangulated() async throws {
    let stub = StubTransport(body: try Fixtures.string("frankfurter/latest_eur.json"))
    let wanted = pairs("GBP-USD", "USD-JPY", "CHF-EUR", "EUR-AUD")
    let (_, rates) = try await client(stub).latest(pairs: wanted)
    expectEqual(stub.requests.count, 1)
    expectEqual(stub.requests.all.first?.url.query, "from=EUR&to=AUD,CHF,GBP,JPY,USD")
    expectEqual(rates.count, 4)
    // EUR figures: USD 1.0889, GBP 0.8495, JPY 170.01, CHF 0.9706, AUD 1.6289.
    // GBP-USD = 1.0889 / 0.8495 = 1.28181283107710…  (Frankfurter itself says 1.2818)
    expect(close(rates[pair("GBP-USD")], 1.281_812_831))
    // USD-JPY = 170.01 / 1.0889 = 156.13003948939…
    expect(close(rates[pair("USD-JPY")], 156.130_039_5))
    // CHF-EUR = 1 / 0.9706 = 1.03029054193282…
    expect(close(rates[pair("CHF-EUR")], 1.030_290_542))
    // EUR-AUD = 1.6289 / 1 exactly.
    expectEqual(rates[pair("EUR-AUD")], 1.6289)
  }

  @Test func noPairsStillGivesTheDate() async throws {
    let stub = StubTransport(body: try Fixtures.string("frankfurter/latest_eur.json"))
    let (date, rates) = try await client(stub).latest(pairs: [])
    expectEqual(date, Day("2024-06-07"))
    expect(rates.isEmpty)
    expectEqual(stub.requests.all.first?.url.query, "from=EUR")
  }

  @Test func anAmountOtherThanOneIsDividedOut() async throws {
    let body = #"{"amount":100.0,"base":"EUR","date":"2024-06-07","rates":{"USD":108.89}}"#
    let stub = StubTransport(body: body)
    let (_, rates) = try await client(stub).latest(pairs: pairs("EUR-USD"))
    expect(close(rates[pair("EUR-USD")], 1.0889))
  }

  // MARK: - Time series

  @Test func timeSeriesTrustsTheResponseDates() async throws {
    let stub = StubTransport(body: try Fixtures.string("frankfurter/timeseries_eur_usd_gbp.json"))
    let series = try await client(stub).timeSeries(
      pairs: pairs("EUR-USD", "EUR-GBP"), start: Day("2024-06-01")!, end: Day("2024-06-11")!)
    let request = try require(stub.requests.all.first)
    expectEqual(request.url.path, "/v1/2024-06-01..2024-06-11")
    expectEqual(request.url.query, "from=EUR&to=GBP,USD")
    let usd = try require(series[pair("EUR-USD")])
    // 2024-06-01 is a Saturday: the API starts at Friday 05-31 and skips 06-08/06-09.
    let expectedDays = [
      "2024-05-31", "2024-06-03", "2024-06-04", "2024-06-05", "2024-06-06", "2024-06-07",
      "2024-06-10", "2024-06-11",
    ].compactMap { Day($0) }
    expectEqual(usd.map(\.date), expectedDays)
    expectEqual(usd.first?.rate, 1.0848)
    expectEqual(usd.last?.rate, 1.0743)
    expect(usd.allSatisfy { !$0.carried })
    expectEqual(series[pair("EUR-GBP")]?.map(\.date), expectedDays)
    expectEqual(series[pair("EUR-GBP")]?.first?.rate, 0.8521)
  }

  @Test func timeSeriesTriangulatesEachDay() async throws {
    let stub = StubTransport(body: try Fixtures.string("frankfurter/timeseries_eur_usd_gbp.json"))
    let series = try await client(stub).timeSeries(
      pairs: pairs("GBP-USD", "USD-GBP"), start: Day("2024-06-01")!, end: Day("2024-06-11")!)
    expectEqual(stub.requests.count, 1)
    expectEqual(stub.requests.all.first?.url.query, "from=EUR&to=GBP,USD")
    let gbpUSD = try require(series[pair("GBP-USD")])
    expectEqual(gbpUSD.count, 8)
    // 2024-05-31: USD 1.0848, GBP 0.8521 → 1.0848 / 0.8521 = 1.27309001290928…
    expect(close(gbpUSD.first?.rate, 1.273_090_013))
    // …and the inverse, 0.8521 / 1.0848 = 0.78549041297935…
    expect(close(series[pair("USD-GBP")]?.first?.rate, 0.785_490_413))
    // 2024-06-11: 1.0743 / 0.8431 = 1.27422607045427…
    expect(close(gbpUSD.last?.rate, 1.274_226_07))
  }

  @Test func timeSeriesWithOneBaseAsksForIt() async throws {
    let body = #"""
      {"amount":1.0,"base":"USD","start_date":"2024-06-03","end_date":"2024-06-04",
       "rates":{"2024-06-04":{"JPY":154.8},"2024-06-03":{"JPY":156.13}}}
      """#
    let stub = StubTransport(body: body)
    let series = try await client(stub).timeSeries(
      pairs: pairs("USD-JPY"), start: Day("2024-06-03")!, end: Day("2024-06-04")!)
    expectEqual(stub.requests.all.first?.url.query, "from=USD&to=JPY")
    expectEqual(series[pair("USD-JPY")]?.map(\.rate), [156.13, 154.8])
  }

  @Test func anEmptyRangeMakesNoRequest() async throws {
    let stub = StubTransport(body: "{}")
    let series = try await client(stub).timeSeries(
      pairs: pairs("EUR-USD"), start: Day("2024-06-11")!, end: Day("2024-06-10")!)
    expectEqual(series, [pair("EUR-USD"): []])
    expectEqual(stub.requests.count, 0)
  }

  @Test func aDayWithoutAQuoteIsLeftOutOfThatPair() async throws {
    let body = #"""
      {"amount":1.0,"base":"EUR","start_date":"2024-06-03","end_date":"2024-06-04",
       "rates":{"2024-06-03":{"ISK":150.3,"USD":1.0871},"2024-06-04":{"USD":1.0881}}}
      """#
    let series = try await client(StubTransport(body: body)).timeSeries(
      pairs: pairs("EUR-ISK", "EUR-USD"), start: Day("2024-06-03")!, end: Day("2024-06-04")!)
    expectEqual(series[pair("EUR-ISK")]?.map(\.date), [Day("2024-06-03")!])
    expectEqual(series[pair("EUR-USD")]?.count, 2)
  }

  // MARK: - Errors

  struct ErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var status: Int
    var headers: [String: String] = [:]
    var body: String
    var expected: ProviderError
    var testDescription: String { name }
  }

  static let latestErrors: [ErrorCase] = [
    ErrorCase(
      name: "404 not found", status: 404, body: #"{"message":"not found"}"#,
      expected: .invalidCurrency(provider: .provider(.frankfurter), currency: "EUR,GBP,XYZ")),
    ErrorCase(
      name: "422 bad pair", status: 422, body: #"{"message":"bad currency pair"}"#,
      expected: .unsupported(
        provider: .provider(.frankfurter),
        detail: "bad currency pair: the base and quote are the same currency")),
    ErrorCase(
      name: "422 invalid date", status: 422, body: #"{"message":"invalid date"}"#,
      expected: .httpStatus(provider: .provider(.frankfurter), status: 422, message: "invalid date")),
    ErrorCase(
      name: "422 invalid amount", status: 422, body: #"{"message":"invalid amount"}"#,
      expected: .httpStatus(provider: .provider(.frankfurter), status: 422, message: "invalid amount")),
    ErrorCase(
      name: "429 with Retry-After", status: 429, headers: ["Retry-After": "30"], body: "",
      expected: .rateLimited(provider: .provider(.frankfurter), retryAfter: 30)),
    ErrorCase(
      name: "429 without Retry-After", status: 429, body: #"{"message":"slow down"}"#,
      expected: .rateLimited(provider: .provider(.frankfurter), retryAfter: nil)),
    ErrorCase(
      name: "503", status: 503, body: "<html>down</html>",
      expected: .serverError(provider: .provider(.frankfurter), status: 503)),
    ErrorCase(
      name: "400 other", status: 400, body: #"{"message":"something odd"}"#,
      expected: .httpStatus(provider: .provider(.frankfurter), status: 400, message: "something odd")),
    ErrorCase(
      name: "404 HTML page", status: 404, body: "<html>Not Found</html>",
      expected: .httpStatus(provider: .provider(.frankfurter), status: 404, message: "")),
    ErrorCase(
      name: "truncated JSON", status: 200, body: #"{"amount":1.0,"base":"EU"#,
      expected: .malformedResponse(
        provider: .provider(.frankfurter), endpoint: "/latest",
        detail: "not valid JSON, possibly truncated")),
    ErrorCase(
      name: "missing date", status: 200, body: #"{"amount":1.0,"base":"EUR","rates":{}}"#,
      expected: .malformedResponse(
        provider: .provider(.frankfurter), endpoint: "/latest", detail: "at top level: missing key 'date'")),
    ErrorCase(
      name: "bad date", status: 200,
      body: #"{"amount":1.0,"base":"EUR","date":"7 June","rates":{}}"#,
      expected: .malformedResponse(
        provider: .provider(.frankfurter), endpoint: "/latest",
        detail: "at date: expected a YYYY-MM-DD date, found '7 June'")),
    ErrorCase(
      name: "zero rate", status: 200,
      body: #"{"amount":1.0,"base":"EUR","date":"2024-06-07","rates":{"GBP":0,"XYZ":1}}"#,
      expected: .malformedResponse(
        provider: .provider(.frankfurter), endpoint: "/latest", detail: "at rates.GBP: 0.0 is not a plausible price")
    ),
    ErrorCase(
      name: "a quote missing from rates", status: 200,
      body: #"{"amount":1.0,"base":"EUR","date":"2024-06-07","rates":{"GBP":0.8495}}"#,
      expected: .invalidCurrency(provider: .provider(.frankfurter), currency: "XYZ")),
  ]

  @Test(arguments: latestErrors)
  func latestErrorsAreMapped(_ errorCase: ErrorCase) async throws {
    let stub = StubTransport(
      status: errorCase.status, headers: errorCase.headers, body: errorCase.body)
    await #expect(throws: errorCase.expected) {
      _ = try await client(stub).latest(pairs: pairs("GBP-XYZ", "EUR-GBP"))
    }
  }

  @Test func errorFixturesAreMapped() async throws {
    let notFound = StubTransport(
      status: 404, body: try Fixtures.string("frankfurter/error_not_found.json"))
    await #expect(
      throws: ProviderError.invalidCurrency(provider: .provider(.frankfurter), currency: "GBP,XYZ")
    ) {
      _ = try await client(notFound).latest(pairs: pairs("GBP-XYZ"))
    }
    let badPair = StubTransport(
      status: 422, body: try Fixtures.string("frankfurter/error_bad_pair.json"))
    await #expect(throws: ProviderError.self) {
      _ = try await client(badPair).latest(pairs: pairs("GBP-USD"))
    }
    let badDate = StubTransport(
      status: 422, body: try Fixtures.string("frankfurter/error_invalid_date.json"))
    await #expect(
      throws: ProviderError.httpStatus(
        provider: .provider(.frankfurter), status: 422, message: "invalid date")
    ) {
      _ = try await client(badDate).timeSeries(
        pairs: pairs("EUR-USD"), start: Day("2024-06-01")!, end: Day("2024-06-02")!)
    }
  }

  @Test func timeSeries404IsNoDataWhenEveryCodeIsKnown() async throws {
    let stub = StubTransport(status: 404, body: try Fixtures.string("frankfurter/error_not_found.json"))
    await #expect(
      throws: ProviderError.noData(
        provider: .provider(.frankfurter), detail: "no ECB rates from 1990-01-01 to 1990-02-01")
    ) {
      _ = try await client(stub).timeSeries(
        pairs: pairs("EUR-USD"), start: Day("1990-01-01")!, end: Day("1990-02-01")!)
    }
    await #expect(
      throws: ProviderError.invalidCurrency(provider: .provider(.frankfurter), currency: "RUB,USD")
    ) {
      _ = try await client(stub).timeSeries(
        pairs: pairs("USD-RUB"), start: Day("2024-01-01")!, end: Day("2024-02-01")!)
    }
  }

  @Test func timeSeriesRejectsABadKeyAndAMissingCode() async throws {
    let badKey = StubTransport(
      body: #"{"amount":1.0,"base":"EUR","rates":{"2024-W23":{"USD":1.08}}}"#)
    await #expect(
      throws: ProviderError.malformedResponse(
        provider: .provider(.frankfurter), endpoint: "/{START}..{END}",
        detail: "at rates: '2024-W23' is not a date")
    ) {
      _ = try await client(badKey).timeSeries(
        pairs: pairs("EUR-USD"), start: Day("2024-06-03")!, end: Day("2024-06-07")!)
    }
    let missing = StubTransport(
      body: #"{"amount":1.0,"base":"EUR","rates":{"2024-06-03":{"USD":1.08}}}"#)
    await #expect(throws: ProviderError.invalidCurrency(provider: .provider(.frankfurter), currency: "XAU")) {
      _ = try await client(missing).timeSeries(
        pairs: pairs("EUR-USD", "EUR-XAU"), start: Day("2024-06-03")!, end: Day("2024-06-07")!)
    }
  }

  @Test func aResponseInAnotherBaseIsRejected() async throws {
    let stub = StubTransport(body: try Fixtures.string("frankfurter/latest_eur.json"))
    await #expect(
      throws: ProviderError.malformedResponse(
        provider: .provider(.frankfurter), endpoint: "/latest", detail: "at base: expected GBP, found 'EUR'")
    ) {
      _ = try await client(stub).latest(pairs: pairs("GBP-USD"))
    }
  }

  @Test func badPairsFailBeforeAnyRequest() async throws {
    let stub = StubTransport(body: "{}")
    await #expect(
      throws: ProviderError.unsupported(
        provider: .provider(.frankfurter), detail: "GBP-GBP has the same currency on both sides")
    ) {
      _ = try await client(stub).latest(pairs: pairs("EUR-USD", "gbp-GBP"))
    }
    await #expect(
      throws: ProviderError.invalidCurrency(provider: .provider(.frankfurter), currency: "US,USDT")
    ) {
      _ = try await client(stub).timeSeries(
        pairs: [CurrencyPairKey(base: "us", quote: "usdt")], start: Day("2024-06-03")!,
        end: Day("2024-06-07")!)
    }
    expectEqual(stub.requests.count, 0)
  }

  @Test func transportFailuresNameTheProvider() async throws {
    let transport = HTTPTransport { _ in throw HTTPError.cannotFindHost(host: "fx.test") }
    let client = FrankfurterClient(
      baseURL: URL(string: "https://fx.test/v1")!, transport: transport)
    await #expect(
      throws: ProviderError.network(provider: .provider(.frankfurter), .cannotFindHost(host: "fx.test"))
    ) {
      _ = try await client.latest(pairs: pairs("EUR-USD"))
    }
  }

  @Test func frankfurterIsAProvider() {
    expectEqual(Provider(rawValue: "frankfurter"), .frankfurter)
  }

  // MARK: - Pair keys and the currency list

  @Test func pairKeysParsePrintAndEncodeAsObjectKeys() throws {
    expectEqual(CurrencyPairKey("gbp-usd"), CurrencyPairKey(base: "GBP", quote: "USD"))
    expectEqual(CurrencyPairKey("GBP"), nil)
    expectEqual(CurrencyPairKey("GBP-"), nil)
    expectEqual(CurrencyPairKey("A-B-C"), nil)
    expectEqual(pair("GBP-USD").description, "GBP-USD")
    let value: [CurrencyPairKey: Double] = [pair("GBP-USD"): 1.25]
    let data = try JSONCoders.encoder().encode(value)
    expectEqual(String(decoding: data, as: UTF8.self), #"{"GBP-USD":1.25}"#)
    expectEqual(try JSONCoders.decoder().decode([CurrencyPairKey: Double].self, from: data), value)
  }

  @Test func fiatCurrenciesListTheECBSet() {
    expectEqual(FiatCurrencies.ecb.count, 31)
    expect(CurrencyCode("usd").isECB && CurrencyCode("EUR").isECB)
    expect(!CurrencyCode("BTC").isECB && !CurrencyCode("HRK").isECB)
    let ordered = FiatCurrencies.ordered(FiatCurrencies.ecb).map(\.code)
    expectEqual(Array(ordered.prefix(4)), ["GBP", "EUR", "USD", "AUD"])
    expectEqual(ordered.last, "ZAR")
    // BGN ended on 2025-12-31 (Bulgaria adopted the euro): no longer offered.
    expectEqual(ordered.count, 30)
    expect(!ordered.contains("BGN"))
    let partial = FiatCurrencies.ordered(["USD": "US", "CHF": "Swiss", "AUD": "Aus"])
    expectEqual(partial.map(\.code), ["USD", "AUD", "CHF"])
    expectEqual(partial.first?.name, "US")
  }
}
