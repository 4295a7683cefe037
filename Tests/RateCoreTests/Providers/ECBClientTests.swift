import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The ECB's own reference rates: the daily file's scanner, the data API's CSV
/// reader, the client's requests and refusals, and the price source's figures,
/// which equal Frankfurter's for the same day.
@Suite struct ECBClientTests {
  static let base = URL(string: "https://ecb.test")!

  static func client(_ stub: StubTransport) -> ECBClient {
    ECBClient(baseURL: base, transport: stub.transport)
  }

  @Test func theDailyFileGivesItsDayAndEveryRate() async throws {
    let body = try Fixtures.string("real/ecb/daily_2015-02-12_proxy_comment_after_envelope__emanuelfs4.xml")
    let stub = StubTransport(body: body)
    let (day, rates) = try await Self.client(stub).latest()
    expectEqual(day, Day("2015-02-12"))
    expectEqual(rates.count, 32)  // 31 currencies and EUR
    expect(rates["USD"] == 1.1328 && rates["GBP"] == 0.7376 && rates["EUR"] == 1)
    expectEqual(stub.requests.all.first?.url.path, "/stats/eurofxref/eurofxref-daily.xml")
  }

  @Test func twoHostsByDefaultOneUnderAMirror() async throws {
    let stub = StubTransport { request, _ in
      request.url.path.hasSuffix(".xml")
        ? (200, [:], FakeECB.dailyXML(day: Day("2026-05-27")!))
        : (200, [:], FakeECB.csvHeader + "\nEXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2026-05-27,1.1,A\n")
    }
    let own = ECBClient(
      dailyBaseURL: try require(ECBClient.dailyFileBaseURL),
      dataBaseURL: try require(ECBClient.dataAPIBaseURL), transport: stub.transport)
    _ = try await own.latest()
    _ = try await own.series(codes: ["USD"], start: Day("2026-05-27")!, end: Day("2026-05-27")!)
    expectEqual(stub.requests.all.map { $0.url.host ?? "" }, ["www.ecb.europa.eu", "data-api.ecb.europa.eu"])
    let range = try require(stub.requests.all.last)
    expectEqual(range.url.path, "/service/data/EXR/D.USD.EUR.SP00.A")
    expectEqual(range.queryItems, ["startPeriod": "2026-05-27", "endPeriod": "2026-05-27", "format": "csvdata"])
  }

  @Test func aRangeAsksEveryCodeInOneKeyAndReadsQuotedTitles() async throws {
    let body = try Fixtures.string(
      "real/ecb/csvdata_D.USD_2026-09-03..07_all_columns__unidentified-repo-id69880706369.csv")
    let stub = StubTransport(body: body)
    let table = try await Self.client(stub).series(
      codes: ["usd", "EUR"], start: Day("2026-09-03")!, end: Day("2026-09-07")!)
    expectEqual(table.keys.sorted(), [Day("2026-09-03")!, Day("2026-09-04")!, Day("2026-09-07")!])
    expectEqual(table[Day("2026-09-04")!], ["EUR": 1, "USD": 1.1622])
    expectEqual(stub.requests.count, 1)
    expectEqual(stub.requests.all.first?.url.path, "/service/data/EXR/D.USD.EUR.SP00.A")
  }

  @Test func noResultsIsAnEmptyRangeForECBCurrenciesAndUnknownOtherwise() async throws {
    let stub = StubTransport(status: 404, body: "No results found.")
    let empty = try await Self.client(stub).series(
      codes: ["USD"], start: Day("2026-05-23")!, end: Day("2026-05-24")!)
    expect(empty.isEmpty)
    await #expect(throws: ProviderError.invalidCurrency(provider: .provider(.ecb), currency: "XYZ")) {
      try await Self.client(stub).series(codes: ["XYZ"], start: Day("2026-05-20")!, end: Day("2026-05-22")!)
    }
  }

  @Test(arguments: [
    ("<html><h1>We are experiencing some problems</h1></html>", "an HTML page"),
    ("<gesmes:Envelope><Cube></Cube></gesmes:Envelope>", "no dated Cube"),
    ("<Cube time='2026-05-27'><Cube currency='USD' rate='-1'/></Cube>", "not a plausible price"),
    ("<Cube time='2026-05-27'><Cube currency='USD' rate='1,08'/></Cube>", "not a number"),
    ("<Cube currency='USD' rate='1.08'/>", "outside a dated Cube"),
    ("<Cube time='2026-05-26'></Cube><Cube time='2026-05-27'></Cube>", "2 days where one"),
    ("<Cube time='someday'></Cube>", "not a date"),
  ])
  func aBadDailyFileIsRefusedWhole(body: String, detail: String) async throws {
    do {
      _ = try await Self.client(StubTransport(body: body)).latest()
      Issue.record("accepted \(body)")
    } catch ProviderError.malformedResponse(let provider, _, let text) {
      expectEqual(provider, .provider(.ecb))
      expectContains(text, detail, "\(text)")
    }
  }

  @Test(arguments: [
    ("KEY,TIME_PERIOD\nX,2026-05-27\n", "no CURRENCY column"),
    (FakeECB.csvHeader + "\nEXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2026-05-29,1.1\n", "outside the asked"),
    (FakeECB.csvHeader + "\nEXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2026-05-27,NaN\n", "not a plausible price"),
    ("KEY,FREQ,CURRENCY,CURRENCY_DENOM,TIME_PERIOD,OBS_VALUE\nX,D,USD,GBP,2026-05-27,1.1\n", "per GBP"),
  ])
  func aBadRangeIsRefusedWhole(body: String, detail: String) async throws {
    do {
      _ = try await Self.client(StubTransport(body: body)).series(
        codes: ["USD"], start: Day("2026-05-26")!, end: Day("2026-05-27")!)
      Issue.record("accepted \(body)")
    } catch ProviderError.malformedResponse(_, _, let text) {
      expectContains(text, detail, "\(text)")
    }
  }

  @Test func anEmptyObservationIsADayWithoutARate() throws {
    let body = try Fixtures.data(
      "real/ecb/csvdata_D.CHF+USD_2026-10-02..03_empty_OBS_VALUE__unidentified-repo-id70918579282.csv")
    let table = try ECBClient(baseURL: Self.base, transport: .unreachable).rows(
      body, endpoint: "/x", codes: ["CHF", "USD"], chunk: Day("2026-10-02")!...Day("2026-10-03")!)
    expectEqual(table, [Day("2026-10-02")!: ["EUR": 1, "CHF": 0.9301, "USD": 1.1225]])
  }

  @Test func theScannerIsBounded() {
    let many = String(repeating: "<Cube time='2026-05-27'></Cube>", count: ECBCubeReader.maxDays + 1)
    #expect(throws: ECBCubeReader.Failure.tooMany) { try ECBCubeReader.days(Data(many.utf8)) }
    let long = "<Cube time='\(String(repeating: "9", count: 40))'></Cube>"
    #expect(throws: ECBCubeReader.Failure.badAttribute("time")) { try ECBCubeReader.days(Data(long.utf8)) }
    // A comment holding a Cube is not read.
    let commented = "<!-- <Cube time='1999-01-04'> --><Cube time='2026-05-27'></Cube>"
    expectEqual((try? ECBCubeReader.days(Data(commented.utf8)))?.map(\.day), ["2026-05-27"])
  }

  @Test func theCSVReaderHonoursQuotesAndLineEnds() {
    expectEqual(
      ECBCSVReader.records("a,\"b, c\",\"d \"\"e\"\"\"\r\n\r\nf,,g"), [["a", "b, c", "d \"e\""], ["f", "", "g"]])
  }

  /// Both sources publish the ECB's rates: the same day gives the same figures
  /// from both recorded answers (2025-06-13 and 2026-10-01/02).
  @Test func sameDaySameFiguresAsFrankfurter() async throws {
    let now = ISO8601.parse("2026-10-05T12:00:00Z")!
    let frankfurter = try Fixtures.string("real/frankfurter/date_2025-06-13_base_EUR__phpeso.json")
    let daily = try Fixtures.string("real/ecb/daily_2025-06-13_USD_JPY_trimmed__unidentified-repo-id11392441234.xml")
    let fromFrankfurter = try await FrankfurterClient(
      baseURL: Self.base, transport: StubTransport(body: frankfurter).transport
    ).latest(pairs: [CurrencyPairKey(base: "USD", quote: "JPY"), CurrencyPairKey(base: "EUR", quote: "USD")])
    let ecb = PriceSource.ecb(client: Self.client(StubTransport(body: daily)), now: { now })
    let pairs = [("USD", "JPY"), ("EUR", "USD")].map { AssetQuote(asset: Asset(symbol: $0.0, id: $0.0), quote: $0.1) }
    let quotes = try await ecb.prices(pairs)
    let quote = try require(quotes.first)
    expectEqual(quote.rate, fromFrankfurter.rates[CurrencyPairKey(base: "USD", quote: "JPY")])
    expectEqual(quotes.last?.rate, fromFrankfurter.rates[CurrencyPairKey(base: "EUR", quote: "USD")])
    expect(quote.source == .provider(.ecb) && quote.updatedAt == Day("2025-06-13")?.start)

    let series = try Fixtures.string("real/frankfurter/timeseries_2026-09-30..10-02_EUR_INR_USD__fx-compass.json")
    let csv = try Fixtures.string(
      "real/ecb/csvdata_D.USD_2026-10-01..02_crlf_eight_columns__unidentified-repo-id70918579282.csv")
    let key = CurrencyPairKey(base: "EUR", quote: "USD")
    let mirrored =
      try await FrankfurterClient(
        baseURL: Self.base, transport: StubTransport(body: series).transport
      ).timeSeries(pairs: [key], start: Day("2026-09-30")!, end: Day("2026-10-02")!)[key] ?? []
    let own = try await PriceSource.ecb(client: Self.client(StubTransport(body: csv)), now: { now })
      .dailyCloses(Asset(symbol: "EUR", id: "EUR"), "USD", Day("2026-10-01")!...Day("2026-10-02")!)
    expectEqual(own.closes, mirrored.filter { $0.date >= Day("2026-10-01")! })
    expect(own.closes.count == 2 && own.source == .provider(.ecb))
  }
}
