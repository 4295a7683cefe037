import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// Issue 22: one gate (``AnswerGate``) for everything a provider says, tried
/// endpoint by endpoint with the hostile answer sent by an inline transport.
@Suite struct AnswerGateTests {
  let gecko = URL(string: "https://gecko.test/api/v3")!
  let desk = URL(string: "https://desk.test/v1/bpi")!
  let frank = URL(string: "https://frank.test/v1")!

  func coinGecko(_ body: String, key: CoinGeckoClient.APIKey? = nil) -> CoinGeckoClient {
    CoinGeckoClient(baseURL: gecko, key: key, transport: StubTransport(body: body).transport)
  }

  /// Whether `error` refuses an answer as malformed from `provider`, its detail containing `text`.
  func isRefusal(_ error: any Error, _ provider: Provider, _ text: String) -> Bool {
    guard case .malformedResponse(let from, _, let detail)? = error as? ProviderError else {
      return false
    }
    return from == .provider(provider) && detail.contains(text)
  }

  /// A market chart body with `points` as `[stamp, value]` (values written as given).
  func chart(_ points: [(Double, String)]) -> String {
    #"{"prices":["# + points.map { "[\(Int64($0.0)),\($0.1)]" }.joined(separator: ",") + "]}"
  }

  /// Hourly stamps in milliseconds ending at `fixedNow`.
  func hours(_ count: Int) -> [Double] {
    let last = fixedNow.timeIntervalSince1970 * 1000
    return (0..<count).map { last - Double(count - 1 - $0) * 3_600_000 }
  }

  // MARK: - Bounds

  @Test func boundsKeepRealPricesAndRefuseAbsurdOnes() {
    expect(AnswerGate.isPrice(9.1e9), "one BTC in LBP")
    expect(AnswerGate.isPrice(1e-10), "a tiny coin")
    expect(AnswerGate.isPrice(1e15))
    expect(AnswerGate.isPrice(1e-17), "a tiny coin in BTC")
    for bad in [1e308, 1.1e15, 0, .leastNonzeroMagnitude * 2000, -1, .nan, .infinity, -.infinity] {
      expect(!AnswerGate.isPrice(bad), "\(bad)")
    }
    expect(AnswerGate.isAmount(0) && AnswerGate.isAmount(5e16), "a market cap in VND")
    expect(!AnswerGate.isAmount(-1) && !AnswerGate.isAmount(1e308) && !AnswerGate.isAmount(.nan))
    expect(AnswerGate.isChangePercent(-100) && !AnswerGate.isChangePercent(-101))
  }

  // MARK: - CoinGecko charts

  @Test(arguments: ["1e308", "0", "-5", "1.7976931348623157e308"])
  func aChartWithAnImplausiblePriceIsRefused(_ value: String) async throws {
    let stamps = hours(3)
    let body = chart([(stamps[0], "60000"), (stamps[1], value), (stamps[2], "61000")])
    await #expect {
      _ = try await coinGecko(body).marketChart(id: "bitcoin", currency: "eur", days: 1)
    } throws: { isRefusal($0, .coinGecko, "prices[1][1]") }
  }

  @Test func aChartWithAStringForAPriceIsRefused() async throws {
    let body = chart([(hours(1)[0], #""NaN""#)])
    await #expect {
      _ = try await coinGecko(body).marketChart(id: "bitcoin", currency: "eur", days: 1)
    } throws: { isRefusal($0, .coinGecko, "prices[0]") }
  }

  @Test func aChartStampedInSecondsIsRefusedNotReadAs1970() async throws {
    let body = chart(hours(3).map { ($0 / 1000, "60000") })
    await #expect {
      _ = try await coinGecko(body).marketChart(id: "bitcoin", currency: "eur", days: 1)
    } throws: { isRefusal($0, .coinGecko, "timestamps in seconds") }
  }

  @Test func duplicateInstantsKeepTheLaterValueAndUnsortedPointsAreSorted() async throws {
    // 66 instants sent as 132 points, the second copy of each later in the answer.
    let stamps = hours(66)
    let first = stamps.map { ($0, "100") }
    let second = stamps.reversed().map { ($0, "200") }
    let samples = try await coinGecko(chart(first + second))
      .hourlyChart(id: "bitcoin", currency: "eur", days: 3)
    expectEqual(samples.count, 66)
    expect(samples.allSatisfy { $0.rate == 200 })
    expectEqual(samples.map(\.date), stamps.map { Date(timeIntervalSince1970: $0 / 1000) })
  }

  @Test func aRangeAnswerKeepsTheAskedPointsAndDropsTheOthers() async throws {
    let from = Day("2024-01-01")!.start
    let to = Day("2024-01-10")!.start
    let inside = from.timeIntervalSince1970 * 1000 + 86_400_000
    let outside = from.timeIntervalSince1970 * 1000 - 10 * 86_400_000
    let later = to.timeIntervalSince1970 * 1000 + 20 * 86_400_000
    // Wider than asked: the point ten days before `from` and the one after `to` are dropped.
    let kept = try await coinGecko(chart([(outside, "40000"), (inside, "41000"), (later, "42000")]))
      .marketChartRange(id: "bitcoin", currency: "eur", from: from, to: to)
    expectEqual(kept.map(\.0), [Date(timeIntervalSince1970: inside / 1000)])
    expectEqual(kept.map(\.1), [41000])
    // Nothing asked in it: refused, quoting the asked days and where the answer lies.
    await #expect {
      _ = try await coinGecko(chart([(outside, "40000")]))
        .marketChartRange(id: "bitcoin", currency: "eur", from: from, to: to)
    } throws: {
      isRefusal(
        $0, .coinGecko, "nothing asked in it: a value for 2023-12-22T00:00:00Z, outside the asked 2024-01-01…2024-01-10"
      )
    }
    // A stamp at the day before `from` (a daily 00:00 stamp) is within the slack.
    let slack = from.timeIntervalSince1970 * 1000 - 86_400_000
    let both = try await coinGecko(chart([(slack, "40000"), (inside, "41000")]))
      .marketChartRange(id: "bitcoin", currency: "eur", from: from, to: to)
    expectEqual(both.count, 2)
  }

  @Test func aDaysChartWiderThanAskedGivesExactlyTheAskedDays() async throws {
    let client = { (body: String) -> PriceSource in
      let client = coinGecko(body)
      let resolver = CoinResolver(
        client: client, cache: JSONFileCache(directory: URL(fileURLWithPath: "/nonexistent")),
        now: { fixedNow }, offline: false, notify: { _ in })
      return PriceSource.coinGecko(client: client, resolver: resolver, now: { fixedNow })
    }
    let today = Day(containing: fixedNow)
    let btc = Asset(symbol: "BTC", id: "bitcoin")
    let ms = { (date: Date) in date.timeIntervalSince1970 * 1000 }
    // Daily points from 30 days back for "the last 7 days": the 23 older ones dropped.
    let points = (0...30).map { (ms(today.adding(days: -30 + $0).start), "\(50000 + $0)") }
    let answer = try await client(chart(points + [(ms(fixedNow), "60000")]))
      .dailyCloses(btc, "EUR", today.adding(days: -6)...today)
    expectEqual(answer.closes.map(\.date), (0...5).map { today.adding(days: -6 + $0) })
    expectEqual(answer.closes.map(\.rate), [50025, 50026, 50027, 50028, 50029, 50030])
    expectEqual(answer.latest?.rate, 60000)
    // An answer from a month ago alone has nothing asked in it: refused.
    let old = ms(fixedNow.addingTimeInterval(-30 * 86_400))
    await #expect {
      _ = try await client(chart([(old, "50000")])).dailyCloses(btc, "EUR", today.adding(days: -6)...today)
    } throws: { isRefusal($0, .coinGecko, "nothing asked in it") }
  }

  // MARK: - CoinGecko prices and lists

  @Test(arguments: ["1e308", "-3", "2e15"])
  func anImplausibleSimplePriceRefusesTheAnswer(_ value: String) async throws {
    let body = #"{"bitcoin":{"eur":\#(value),"last_updated_at":1718000000},"ethereum":{"eur":3000}}"#
    await #expect {
      _ = try await coinGecko(body).simplePrices(ids: ["bitcoin", "ethereum"], currencies: ["eur"])
    } throws: { isRefusal($0, .coinGecko, "bitcoin.eur") }
  }

  @Test func aZeroOrNullSimplePriceIsNoPrice() async throws {
    let body = #"{"bitcoin":{"eur":0},"ethereum":{"eur":null},"solana":{"eur":150}}"#
    let prices = try await coinGecko(body)
      .simplePrices(ids: ["bitcoin", "ethereum", "solana"], currencies: ["eur"])
    expectEqual(prices["bitcoin"]?["EUR"], nil)
    expectEqual(prices["ethereum"]?["EUR"], nil)
    expectEqual(prices["solana"]?["EUR"]?.rate, 150)
  }

  @Test func anAbsurdMarketRowLosesItsNumbersNotTheBoard() async throws {
    let body = """
      [{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":1e308,"market_cap":-1,
        "total_volume":1e308,"high_24h":0,"price_change_percentage_24h":1e300,
        "sparkline_in_7d":{"price":[1,1e308,2]}},
       {"id":"ethereum","symbol":"eth","name":"Ethereum","current_price":3000,"market_cap":3.6e11}]
      """
    let rows = try await coinGecko(body).markets(currency: "eur", sparkline: true)
    expectEqual(rows.count, 2)
    expect(rows[0].currentPrice == nil && rows[0].marketCap == nil && rows[0].totalVolume == nil)
    expect(rows[0].high24h == nil && rows[0].priceChangePercentage24h == nil)
    expectEqual(rows[0].sparkline7d, [1, 2])
    expect(rows[1].currentPrice == 3000 && rows[1].marketCap == 3.6e11)
  }

  @Test func aSearchRankBelowOneIsNoRank() async throws {
    let body = #"{"coins":[{"id":"poundtoken","symbol":"gbpt","name":"poundtoken","market_cap_rank":0}]}"#
    let results = try await coinGecko(body).search("gbpt")
    expectEqual(results.first?.marketCapRank, nil)
  }

  // MARK: - CoinDesk

  @Test(arguments: ["1e308", "0", "-1"])
  func anImplausibleBPIIsRefused(_ value: String) async throws {
    let body = #"{"bpi":{"EUR":{"code":"EUR","rate_float":\#(value)}}}"#
    let client = CoinDeskClient(baseURL: desk, transport: StubTransport(body: body).transport)
    await #expect {
      _ = try await client.currentPrice(currency: "EUR")
    } throws: { isRefusal($0, .coinDesk, "bpi.EUR.rate_float") }
  }

  @Test func bpiClosesOutsideTheRangeAreDroppedAndAbsurdOnesRefused() async throws {
    let start = Day("2024-01-02")!
    let end = Day("2024-01-04")!
    let wider = #"{"bpi":{"2023-12-01":40000,"2024-01-02":41000,"2024-01-05":42000}}"#
    let kept = try await CoinDeskClient(baseURL: desk, transport: StubTransport(body: wider).transport)
      .historicalCloses(currency: "USD", start: start, end: end)
    expectEqual(kept, [RatePoint(date: start, rate: 41000)])
    for (body, text) in [
      (#"{"bpi":{"2023-12-01":40000}}"#, "nothing asked in it: a value for 2023-12-01, outside"),
      (#"{"bpi":{"2024-01-02":1e308}}"#, "bpi.2024-01-02"),
    ] {
      let client = CoinDeskClient(baseURL: desk, transport: StubTransport(body: body).transport)
      await #expect {
        _ = try await client.historicalCloses(currency: "USD", start: start, end: end)
      } throws: { isRefusal($0, .coinDesk, text) }
    }
  }

  // MARK: - Frankfurter

  func series(_ days: [String: String]) -> String {
    let rates = days.map { #""\#($0.key)":{"USD":\#($0.value)}"# }.joined(separator: ",")
    return #"{"amount":1.0,"base":"EUR","rates":{\#(rates)}}"#
  }

  @Test func aSeriesDayOutsideTheAskedRangeIsDropped() async throws {
    let pair = CurrencyPairKey(base: "EUR", quote: "USD")
    let body = series(["2024-05-01": "1.07", "2024-06-03": "1.08", "2024-06-07": "1.09"])
    let kept = try await FrankfurterClient(baseURL: frank, transport: StubTransport(body: body).transport)
      .timeSeries(pairs: [pair], start: Day("2024-06-01")!, end: Day("2024-06-05")!)
    expectEqual(kept[pair], [RatePoint(date: Day("2024-06-03")!, rate: 1.08)])
    let client = FrankfurterClient(
      baseURL: frank, transport: StubTransport(body: series(["2024-05-01": "1.07"])).transport)
    await #expect {
      _ = try await client.timeSeries(
        pairs: [pair], start: Day("2024-06-01")!, end: Day("2024-06-05")!)
    } throws: { isRefusal($0, .frankfurter, "a value for 2024-05-01, outside") }
    // The working day before a start on a closure (Good Friday 2024-03-29 to Easter Monday).
    let easter = series(["2024-03-28": "1.08", "2024-04-02": "1.07"])
    let points = try await FrankfurterClient(
      baseURL: frank, transport: StubTransport(body: easter).transport
    ).timeSeries(pairs: [pair], start: Day("2024-04-01")!, end: Day("2024-04-02")!)
    expectEqual(points[pair]?.map(\.date.description), ["2024-03-28", "2024-04-02"])
  }

  @Test(arguments: ["1e308", "0", "-1.2"])
  func anImplausibleECBRateIsRefused(_ value: String) async throws {
    let pair = CurrencyPairKey(base: "EUR", quote: "USD")
    let latest = #"{"amount":1.0,"base":"EUR","date":"2024-06-07","rates":{"USD":\#(value)}}"#
    let client = FrankfurterClient(baseURL: frank, transport: StubTransport(body: latest).transport)
    await #expect {
      _ = try await client.latest(pairs: [pair])
    } throws: { isRefusal($0, .frankfurter, "rates.USD") }
    let body = series(["2024-06-03": value])
    let seriesClient = FrankfurterClient(baseURL: frank, transport: StubTransport(body: body).transport)
    await #expect {
      _ = try await seriesClient.timeSeries(
        pairs: [pair], start: Day("2024-06-03")!, end: Day("2024-06-05")!)
    } throws: { isRefusal($0, .frankfurter, "rates.2024-06-03.USD") }
  }
}
