import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The Coinbase Exchange and Kraken clients against their fakes (which answer
/// in the real shapes) and against hostile answers.
@Suite struct ExchangeClientTests {
  static let now = ISO8601.parse("2026-11-26T12:30:00Z")!

  /// A stub serving `fake` at ``now``, recording requests.
  static func stub(
    _ fake: @escaping @Sendable (String, [String: String], Date) -> (status: Int, body: String)
  ) -> StubTransport {
    StubTransport { request, _ in
      let answer = fake(request.url.path, request.queryItems, now)
      return (answer.status, [:], answer.body)
    }
  }

  static func coinbase(_ stub: StubTransport) -> CoinbaseClient {
    CoinbaseClient(baseURL: URL(string: "https://coinbase.test")!, transport: stub.transport)
  }

  static func kraken(_ stub: StubTransport) -> KrakenClient {
    KrakenClient(baseURL: URL(string: "https://kraken.test")!, transport: stub.transport)
  }

  @Test func aYearOfCoinbaseClosesTakesTwoRequestsOfAtMost300Candles() async throws {
    let stub = Self.stub(FakeCoinbase.answer)
    let days = try require(Day("2016-01-01"))...(try require(Day("2016-12-31")))
    let closes = try await Self.coinbase(stub).dailyCloses(base: "BTC", quote: "USD", days: days).closes
    expectEqual(closes.count, 366)
    expect(closes.first?.date == days.lowerBound && closes.last?.date == days.upperBound)
    // A day's close is the close of its UTC daily candle.
    for point in closes {
      expectEqual(point.rate, FakeCoinbase.price(base: "BTC", quote: "USD", at: point.date.end))
    }
    let requests = stub.requests.all
    expectEqual(requests.count, 2)
    for request in requests {
      expectEqual(request.url.path, "/products/BTC-USD/candles")
      expectEqual(request.queryItems["granularity"], "86400")
    }
    // A day past both ends (AnswerGate's margin); the fake's candle before `start` dropped.
    expectEqual(requests.first?.queryItems["start"], "2015-12-31T00:00:00Z")
    expectEqual(requests.last?.queryItems["end"], "2017-01-01T00:00:00Z")
  }

  @Test func daysBeforeTheListingAreAbsent() async throws {
    let stub = Self.stub(FakeCoinbase.answer)
    let days = try require(Day("2015-07-15"))...(try require(Day("2015-07-25")))
    let closes = try await Self.coinbase(stub).dailyCloses(base: "BTC", quote: "USD", days: days).closes
    expectEqual(closes.map(\.date.description).first, "2015-07-20")
    expectEqual(closes.count, 6)
  }

  @Test func coinbaseTickerIsTheLastTradePrice() async throws {
    let stub = Self.stub(FakeCoinbase.answer)
    let answer = try await Self.coinbase(stub).ticker(base: "btc", quote: "usd")
    expectEqual(answer.rate, FakeCoinbase.price(base: "BTC", quote: "USD", at: Self.now))
    expectEqual(answer.time, Self.now)
    expectEqual(stub.requests.all.map(\.url.path), ["/products/BTC-USD/ticker"])
  }

  @Test func anUnlistedCoinbaseProductIsNotCovered() async throws {
    let stub = Self.stub(FakeCoinbase.answer)
    await #expect(throws: ProviderError.notCovered(provider: .provider(.coinbase), what: "BTC-KRW")) {
      _ = try await Self.coinbase(stub).ticker(base: "BTC", quote: "KRW")
    }
  }

  @Test(arguments: [
    "[[1451606400,1,2,1,0,5]]",  // a zero close
    "[[1,1,2,1,400,5]]",  // only a candle from 1970: nothing asked in it
    "[[1451606400,390,410,400,4000,5]]",  // a close 10× its high
    "[[1451606400,390,410,300,400,5]]",  // an open below its low
    "[[1451606400,410,390,400,400,5]]",  // a high below its low
    "[[1451606400,1,2]]",  // a short row
    "<html>busy</html>",
  ])
  func aHostileCoinbaseAnswerIsRefusedWhole(_ body: String) async throws {
    let stub = StubTransport(body: body)
    let day = try require(Day("2016-01-01"))
    await #expect(throws: ProviderError.self) {
      _ = try await Self.coinbase(stub).dailyCloses(base: "BTC", quote: "USD", days: day...day)
    }
    do {
      _ = try await Self.coinbase(stub).dailyCloses(base: "BTC", quote: "USD", days: day...day)
    } catch let error as ProviderError {
      guard case .malformedResponse(let provider, _, _) = error else {
        Issue.record("expected a malformed answer, got \(error)")
        return
      }
      expectEqual(provider, .provider(.coinbase))
    }
  }

  /// One reading of candle rows, each exchange's by its own columns: Coinbase's
  /// `[time, low, high, open, close]`, Kraken's `[time, open, high, low, close]`. Read by the
  /// other's, either row below is a candle whose open lies outside its range.
  @Test func eachExchangesCandleRowIsReadByItsOwnColumns() throws {
    let rows = { (json: String) in try JSONDecoder().decode([[LenientDouble]].self, from: Data(json.utf8)) }
    let coinbase = AnswerGate.CandleColumns(low: 1, high: 2, open: 3, close: 4, shape: "[time, low, high, open, close]")
    let kraken = AnswerGate.CandleColumns(low: 3, high: 2, open: 1, close: 4, shape: "[time, open, high, low, close]")
    let coinbaseRows = try rows("[[1451606400, 390, 410, 395, 400, 5]]")
    let krakenRows = try rows(#"[[1451606400, "395", "410", "390", "400", "401", "5", 9]]"#)
    for (rows, columns, provider) in [(coinbaseRows, coinbase, Provider.coinbase), (krakenRows, kraken, .kraken)] {
      let closes = try AnswerGate.candleCloses(rows, columns, provider: provider, endpoint: "/candles")
      expectEqual(closes.map(\.1), [400])
      expectEqual(closes.map(\.0), [Date(timeIntervalSince1970: 1_451_606_400)])
    }
    #expect(throws: ProviderError.self) {
      _ = try AnswerGate.candleCloses(krakenRows, coinbase, provider: .coinbase, endpoint: "/candles")
    }
    do {
      _ = try AnswerGate.candleCloses(try rows("[[1451606400, 1]]"), kraken, provider: .kraken, endpoint: "/OHLC")
      Issue.record("a short row was read")
    } catch ProviderError.malformedResponse(_, _, let detail) {
      expectEqual(detail, "at [0]: not a [time, open, high, low, close] row")
    }
  }

  @Test func candleWindowsThatArrivedAreKeptWhenALaterOneFails() async throws {
    let requests = Recorder<String>()
    let refusal = #"{"message":"service busy"}"#
    let stub = StubTransport { request, _ in
      requests.append(request.url.path)
      guard requests.count == 1 else { return (400, [:], refusal) }
      let answer = FakeCoinbase.answer(path: request.url.path, query: request.queryItems, now: Self.now)
      return (answer.status, [:], answer.body)
    }
    let days = try require(Day("2016-01-01"))...(try require(Day("2016-12-31")))
    let answer = try await Self.coinbase(stub).dailyCloses(base: "BTC", quote: "USD", days: days)
    // The first window (2015-12-31 and 299 days after it) arrived; the second failed.
    expectEqual(answer.closes.first?.date, days.lowerBound)
    expectEqual(answer.closes.last?.date, Day("2016-10-25"))
    expectEqual(answer.cutShort?.from, Day("2016-10-26"))
    expectEqual(
      answer.cutShort?.failure,
      .httpStatus(provider: .provider(.coinbase), status: 400, message: "service busy"))
    // The first window's failure is the answer's: nothing arrived.
    await #expect(throws: ProviderError.self) {
      _ = try await Self.coinbase(StubTransport(status: 400, body: refusal))
        .dailyCloses(base: "BTC", quote: "USD", days: days)
    }
  }

  @Test func aKrakenAnswerWithNoneOfTheAskedDaysIsRefused() async throws {
    // Kraken keeps only its 720 newest daily candles: 2016 is not among them.
    let source = PriceSource.kraken(client: Self.kraken(Self.stub(FakeKraken.answer)), now: { Self.now })
    let days = try require(Day("2016-01-01"))...(try require(Day("2016-01-31")))
    do {
      _ = try await source.dailyCloses(Asset(symbol: "BTC", id: "BTC"), "USD", days)
      Issue.record("accepted an answer without the asked days")
    } catch ProviderError.malformedResponse(let provider, _, let detail) {
      expectEqual(provider, .provider(.kraken))
      expect(detail.contains("nothing asked in it") && detail.contains("outside the asked 2016-01-01…2016-01-31"))
    }
  }

  @Test func coinbase429IsRateLimited() async throws {
    let stub = StubTransport(status: 429, headers: ["Retry-After": "30"], body: #"{"message":"Too many requests"}"#)
    await #expect(throws: ProviderError.rateLimited(provider: .provider(.coinbase), retryAfter: 30)) {
      _ = try await Self.coinbase(stub).ticker(base: "BTC", quote: "USD")
    }
  }

  @Test func krakenTickerAsksXBTAndReadsTheLegacyKey() async throws {
    let stub = Self.stub(FakeKraken.answer)
    let rate = try await Self.kraken(stub).ticker(base: "BTC", quote: "USD")
    expectEqual(rate, FakeCoinbase.price(base: "BTC", quote: "USD", at: Self.now))
    expectEqual(stub.requests.all.first?.queryItems["pair"], "XBTUSD")
  }

  @Test func krakenNamesComeFromOneTable() {
    expectEqual(KrakenPairs.requestName("BTC", "USD"), "XBTUSD")
    expectEqual(KrakenPairs.requestName("doge", "eur"), "XDGEUR")
    expectEqual(KrakenPairs.answerKeys("BTC", "USD"), ["XXBTZUSD", "XBTUSD"])
    expectEqual(KrakenPairs.answerKeys("BTC", "USDT"), ["XBTUSDT"])
    expectEqual(KrakenPairs.answerKeys("SOL", "USD"), ["SOLUSD"])
  }

  @Test func krakenDailyCandlesAreOldestFirstAndCapped() async throws {
    let stub = Self.stub(FakeKraken.answer)
    let since = Self.now.addingTimeInterval(-5 * 86_400)
    let samples = try await Self.kraken(stub).ohlc(base: "BTC", quote: "USD", interval: .day, since: since)
    expectEqual(samples.count, 6)
    expectEqual(samples.map(\.0), samples.map(\.0).sorted())
    let request = try require(stub.requests.all.first)
    expectEqual(request.queryItems["interval"], "1440")
    expectEqual(request.queryItems["since"], String(Int(since.timeIntervalSince1970)))
  }

  @Test func krakenErrorsOverHTTP200AreRead() async throws {
    let unknown = Self.stub(FakeKraken.answer)
    await #expect(throws: ProviderError.notCovered(provider: .provider(.kraken), what: "BTC/KRW")) {
      _ = try await Self.kraken(unknown).ticker(base: "BTC", quote: "KRW")
    }
    let limited = StubTransport(body: #"{"error":["EAPI:Rate limit exceeded"]}"#)
    await #expect(throws: ProviderError.rateLimited(provider: .provider(.kraken), retryAfter: nil)) {
      _ = try await Self.kraken(limited).ticker(base: "BTC", quote: "USD")
    }
    let down = StubTransport(body: #"{"error":["EService:Unavailable"]}"#)
    await #expect(throws: ProviderError.serverError(provider: .provider(.kraken), status: 503)) {
      _ = try await Self.kraken(down).ticker(base: "BTC", quote: "USD")
    }
  }

  @Test func aKrakenAnswerWithoutThePairIsRefused() async throws {
    let stub = StubTransport(body: #"{"error":[],"result":{"XETHZUSD":{"c":["3000.0","1"]}}}"#)
    await #expect(throws: ProviderError.self) {
      _ = try await Self.kraken(stub).ticker(base: "BTC", quote: "USD")
    }
  }
}
