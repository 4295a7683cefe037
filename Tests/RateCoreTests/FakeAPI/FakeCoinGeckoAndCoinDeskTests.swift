import Foundation
import RateCore
import RatesExpectations
import RatesTestSupport
import Testing

/// Checks the fakes answer like apis.md says, calling the handlers directly.
@Suite struct LoopbackServerFakeProviderTests {
  /// 2024-06-10T06:13:20.337Z.
  static let now = Date(timeIntervalSince1970: 1_718_000_000.337)
  let gecko = FakeCoinGecko.handler(now: { LoopbackServerFakeProviderTests.now })
  let desk = FakeCoinDesk.handler(now: { LoopbackServerFakeProviderTests.now })

  private func reply(_ handler: (RecordedRequest) -> LoopbackReply, _ target: String) throws
    -> (status: Int, body: Data)
  {
    guard case .response(let status, _, let body) = handler(RecordedRequest(target: target)) else {
      throw FixtureError.notUTF8("not a plain response for \(target)")
    }
    return (status, body)
  }

  private func json(_ body: Data) throws -> Any {
    try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
  }

  // MARK: - CoinGecko

  @Test func simplePriceHonoursParameters() throws {
    let (status, body) = try reply(
      gecko,
      "/api/v3/simple/price?ids=bitcoin,nope,ethereum&vs_currencies=eur,usd"
        + "&include_24hr_change=true&include_last_updated_at=true")
    expectEqual(status, 200)
    let object = try require(try json(body) as? [String: [String: Double]])
    expectEqual(Set(object.keys), ["bitcoin", "ethereum"])
    expectEqual(object["bitcoin"]?["eur"], 61_234.5)
    expectEqual(object["ethereum"]?["usd"], FakeCoinGecko.nowValue(id: "ethereum", currency: "usd"))
    expectEqual(
      object["bitcoin"]?["eur_24h_change"],
      FakeCoinGecko.change(id: "bitcoin", currency: "eur", now: Self.now))
    expectEqual(object["bitcoin"]?["last_updated_at"], 1_718_000_000)

    expectEqual(
      try reply(gecko, "/api/v3/simple/price?ids=btc&vs_currencies=eur").body, Data("{}".utf8))
    let invalid = try reply(gecko, "/api/v3/simple/price?ids=bitcoin&vs_currencies=xyz")
    expectEqual(invalid.status, 400)
    expectEqual(String(decoding: invalid.body, as: UTF8.self), #"{"error":"invalid vs_currency"}"#)
  }

  @Test func dailyMarketChartHasDaysPlusOnePoints() throws {
    let (status, body) = try reply(
      gecko, "/api/v3/coins/bitcoin/market_chart?vs_currency=eur&days=28&interval=daily")
    expectEqual(status, 200)
    let object = try require(try json(body) as? [String: [[NSNumber]]])
    let prices = try require(object["prices"])
    expectEqual(prices.count, 29)
    expect(object["market_caps"]?.count == 29 && object["total_volumes"]?.count == 29)
    let today = Day(containing: Self.now)
    for (offset, point) in prices.dropLast().enumerated() {
      let day = today.adding(days: offset - 27)
      expectEqual(point[0].int64Value, Int64(day.start.timeIntervalSince1970) * 1_000)
      expectEqual(
        point[1].doubleValue, FakeCoinGecko.dailyValue(id: "bitcoin", currency: "eur", day: day))
    }
    expectEqual(prices.last?[0].int64Value, 1_718_000_000_337)
    expectEqual(prices.last?[1].doubleValue, FakeCoinGecko.nowValue(id: "bitcoin", currency: "eur"))

    let hourly = try reply(gecko, "/api/v3/coins/bitcoin/market_chart?vs_currency=usd&days=2")
    expectEqual((try json(hourly.body) as? [String: [[Double]]])?["prices"]?.count, 49)
  }

  @Test func marketChartErrors() throws {
    let unknown = try reply(gecko, "/api/v3/coins/btc/market_chart?vs_currency=eur&days=7")
    expectEqual(unknown.status, 404)
    expectEqual(String(decoding: unknown.body, as: UTF8.self), #"{"error":"coin not found"}"#)
    let range = try reply(gecko, "/api/v3/coins/bitcoin/market_chart?vs_currency=eur&days=400")
    expectEqual(range.status, 401)
    let nested = try require(try json(range.body) as? [String: [String: [String: Any]]])
    expectEqual(nested["error"]?["status"]?["error_code"] as? Int, 10012)
  }

  @Test func searchSortsByRankAndEscapesControlCharacters() throws {
    let (_, body) = try reply(gecko, "/api/v3/search?query=eth")
    let object = try require(try json(body) as? [String: [[String: Any]]])
    // "tether" contains "eth" too; the unranked wormhole coin comes last.
    expectEqual(
      object["coins"]?.map { $0["id"] as? String }, ["ethereum", "tether", "ethereum-wormhole"])
    expect(object["coins"]?.last?["market_cap_rank"] is NSNull)
    expectEqual(Set(object.keys), ["coins", "exchanges", "icos", "categories", "nfts"])

    let (_, evil) = try reply(gecko, "/api/v3/search?query=evil")
    expect(String(decoding: evil, as: UTF8.self).contains(#"Evil\u001b[31mCoin"#))
    let decoded = try require(try json(evil) as? [String: [[String: Any]]])
    expectEqual(decoded["coins"]?.first?["name"] as? String, "Evil\u{1B}[31mCoin")
  }

  // MARK: - CoinDesk

  @Test func currentPriceHasNoChartNameOrSymbol() throws {
    let (status, body) = try reply(desk, "/v1/bpi/currentprice/EUR.json")
    expectEqual(status, 200)
    let object = try require(try json(body) as? [String: Any])
    expect(object["chartName"] == nil)
    let bpi = try require(object["bpi"] as? [String: [String: Any]])
    expectEqual(Set(bpi.keys), ["USD", "EUR"])
    expect(bpi["EUR"]?["symbol"] == nil)
    expectEqual(bpi["EUR"]?["rate"] as? String, "61,240.5678")
    let time = try require(object["time"] as? [String: String])
    expectEqual(time["updated"], "Jun 10, 2024 06:13:00 UTC")
    expectEqual(time["updatedISO"], "2024-06-10T06:13:00+00:00")
    expectEqual(time["updateduk"], "Jun 10, 2024 at 07:13 BST")

    let unknown = try reply(desk, "/currentprice/XYZ.json")
    expectEqual(unknown.status, 404)
    expectEqual(String(decoding: unknown.body, as: UTF8.self), "Sorry, that currency was not found")
  }

  @Test func historicalCloseCoversEveryDayButToday() throws {
    let (status, body) = try reply(
      desk, "/v1/bpi/historical/close.json?currency=EUR&start=2024-06-01&end=2024-06-30")
    expectEqual(status, 200)
    let object = try require(try json(body) as? [String: Any])
    let bpi = try require(object["bpi"] as? [String: Double])
    // Its own window, as the real BPI sends: the 31 days before today (05-10 … 06-09),
    // wider than the asked 06-01 …; today (06-10) is never included.
    expectEqual(bpi.count, 31)
    expect(bpi.keys.min() == "2024-05-10" && bpi.keys.max() == "2024-06-09")
    let day = try require(Day("2024-06-03"))
    expectEqual(bpi["2024-06-03"], FakeCoinDesk.dailyValue(currency: "EUR", day: day))

    let early = try reply(
      desk, "/historical/close.json?currency=EUR&start=2009-01-01&end=2010-08-01")
    expectEqual(early.status, 404)
    let backwards = try reply(desk, "/historical/close.json?start=2024-05-02&end=2024-05-01")
    expect(String(decoding: backwards.body, as: UTF8.self).hasPrefix("Sorry, but your"))
    let defaults = try reply(desk, "/historical/close.json?currency=GBP")
    expectEqual(
      (try json(defaults.body) as? [String: Any])?["bpi"].map { ($0 as? [String: Double])?.count },
      31)
  }
}
