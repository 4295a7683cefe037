import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Issue 22: a coin whose symbol is a currency code ("poundtoken", symbol GBP).
/// A currency code means the currency; the coin is named by its id, and once
/// stored it is priced as that coin everywhere, never as the pound.
@Suite struct CurrencySymbolTests {
  static let updated = ISO8601.format(fixedNow)

  /// The fake APIs, with CoinGecko also knowing `poundtoken` (symbol GBP) at `price`
  /// in any currency, and answering its chart with `chart` when given.
  static func harness(price: Double = 1.27, chart: String? = nil) throws
    -> (CLIHarness, InProcessServer)
  {
    try CLIHarness.withFakeAPI(environment: ["RATES_WATCH_FLOOR": "1"]) { fake in
      { request in
        let ids = request.query["ids"] ?? ""
        if request.path.hasSuffix("/search") {
          return .json(
            #"{"coins":[{"id":"poundtoken","symbol":"GBP","name":"poundtoken","market_cap_rank":900}]}"#)
        }
        if request.path.hasSuffix("/coins/markets"), ids.contains("poundtoken") {
          return .json(
            #"[{"id":"poundtoken","symbol":"gbp","name":"poundtoken","current_price":\#(price),"#
              + #""last_updated":"\#(updated)"}]"#)
        }
        if request.path.hasSuffix("/simple/price"), ids.contains("poundtoken") {
          return .json(#"{"poundtoken":{"usd":\#(price),"usd_24h_change":0.5,"last_updated_at":1718000000}}"#)
        }
        if let chart, request.path.contains("/coins/poundtoken/market_chart") { return .json(chart) }
        return fake(request)
      }
    }
  }

  @Test(arguments: [
    ["coins", "add", "GBP"], ["coins", "add", "gbp"], ["favorites", "add", "GBP"], ["info", "GBP"],
    ["coins", "add", "XAU"],
  ])
  func aCurrencyCodeIsNotResolvedToACoin(_ arguments: [String]) async throws {
    let (rates, server) = try Self.harness()
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(arguments)
    expectEqual(result.status, 64, "\(result.stderr)")
    let code = arguments[arguments.count - 1].uppercased()
    expectContains(result.stderr, "\(code) is a currency, not a coin")
    expectContains(result.stderr, "rates search \(code)")
    expectEqual(result.stderr.split(separator: "\n").count, 1)
    expectEqual(server.requestCount, 0, "refused before any request")
    let list = try await rates.run(["coins", "--offline", "--json"]).json()
    expect(!"\(list)".contains("poundtoken"))
  }

  @Test func pricesOfACurrencyCodeStayTheCurrencys() async throws {
    let (rates, _) = try Self.harness()
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let current = try await rates.run(["current", "GBP", "--in", "USD", "--json"]).json()
    let quote = try require((current["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["source"] as? String, "frankfurter")
    let history = try await rates.run(["history", "GBP", "EUR", "--days", "3", "--json"]).json()
    expectEqual(history["source"] as? String, "frankfurter")
    let convert = await rates.run(["convert", "1", "GBP", "USD"])
    expect(convert.status == 0 && convert.stdout.contains("Frankfurter (ECB)"), "\(convert.stdout)")
  }

  @Test func aCoinAddedByItsIdIsWatchedAsThatCoin() async throws {
    let (rates, server) = try Self.harness()
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let added = await rates.run(["coins", "add", "poundtoken", "--in", "USD"])
    expectEqual(added.status, 0, "\(added.stderr)")
    let watch = await rates.run(["watch", "--in", "USD", "--every", "1", "--count", "1", "--json"])
    expectEqual(watch.status, 0, "\(watch.stderr)")
    let rows = try watch.jsonLines()
    let row = try require(rows.first { $0["base"] as? String == "poundtoken" })
    expectEqual(row["source"] as? String, "coingecko")
    expectEqual(row["rate"] as? Double, 1.27)
    expect(!server.requests.contains { $0.path.hasPrefix("/frankfurter/") }, "never the pound")
  }

  @Test func aCoinPairAddedByIdIsStoredByIdNotByItsCurrencySymbol() async throws {
    let (rates, _) = try Self.harness()
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let added = await rates.run(["pairs", "add", "poundtoken", "USD"])
    expectEqual(added.status, 0, "\(added.stderr)")
    let stored = (try? FileManager.default.subpathsOfDirectory(atPath: rates.home.path)) ?? []
    let texts = stored.filter { $0.hasSuffix("pairs.json") }.compactMap {
      try? String(contentsOf: rates.home.appendingPathComponent($0), encoding: .utf8)
    }
    expect(!texts.isEmpty, "\(stored)")
    expect(texts.contains { $0.contains("POUNDTOKEN") || $0.contains("poundtoken") }, "\(texts)")
    expect(!texts.contains { $0.contains("GBP-USD") || $0.contains(#""base":"GBP""#) }, "\(texts)")
  }
}
