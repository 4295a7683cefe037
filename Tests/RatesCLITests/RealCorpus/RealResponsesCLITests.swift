import RateCore
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

/// `rates` run in process against real recorded bodies (`fixtures/real/`),
/// one endpoint family at a time: the numbers it prints and, for errors, the
/// one line and the exit code. Series semantics (carried days, the value
/// beside a date) are tested elsewhere; here the numbers come straight from
/// the bodies.
@Suite struct RealResponsesCLITests {
  typealias Route = RealAPI.Route
  static let cg = "real/coingecko/"
  static let cd = "real/coindesk/"
  static let ff = "real/frankfurter/"

  static func gecko(_ fragment: String, _ status: Int, _ file: String, headers: [String: String] = [:])
    -> Route
  {
    Route(fragment: fragment, status: status, file: cg + file, headers: headers)
  }

  // MARK: - CoinGecko answers

  @Test func currentAndConvertFromAnIntegerPrice() async throws {
    let api = RealAPI([
      Self.gecko("/simple/price", 200, "simple_price_integer_usd__unidentified-repo-id47891616309.json")
    ])
    let rates = try api.harness(now: "2023-12-21T12:00:00Z")
    let current = await rates.run(["current", "BTC", "--in", "USD"])
    expectEqual(current.status, 0)
    expectContains(current.stdout, "BTC/USD  43,713.00")
    let convert = await rates.run(["convert", "2", "BTC", "USD", "--json"])
    expectEqual(convert.status, 0)
    let conversion = try require((try convert.json()["conversions"] as? [[String: Any]])?.first)
    expectEqual(conversion["rate"] as? Double, 43713)
    expectEqual(conversion["amount"] as? Double, 87426)
  }

  @Test func historyFromAMarketChartWithANowPoint() async throws {
    let api = RealAPI([
      Self.gecko("/market_chart", 200, "market_chart_range_docs_sample__CoinGecko.Net.json")
    ])
    let result = try await api.harness(now: "2024-04-01T15:05:00Z")
      .run(["history", "BTC", "USD", "--days", "2", "--json"])
    expectEqual(result.status, 0)
    let points = try require(try result.json()["points"] as? [[String: Any]])
    // 2024-03-31 closes at the 2024-04-01 00:00 sample; today is the "now" sample.
    expectEqual(points.map { $0["date"] as? String }, ["2024-03-31", "2024-04-01"])
    expectEqual(points.map { $0["rate"] as? Double }, [71246.9514406015, 68887.7495158568])
  }

  @Test func topFromThe2018FormatWithNumbersAsStrings() async throws {
    let api = RealAPI([
      Self.gecko("/coins/markets", 200, "coins_markets_2018_string_numbers__pycoingecko.json")
    ])
    let result = try await api.harness(now: "2018-08-28T13:00:00Z")
      .run(["top", "--limit", "1", "--in", "USD"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectContains(result.stdout, "1  BTC   Bitcoin   7,015.12  +4.46%   120.93B")
  }

  @Test func searchInfoAndFavorites() async throws {
    let api = RealAPI([
      Self.gecko("/search", 200, "search_eth_docs_sample__CoinGecko.Net.json"),
      Self.gecko("/coins/markets", 200, "coins_markets_docs_sample__CoinGecko.Net.json"),
      Self.gecko("/market_chart", 200, "market_chart_range_docs_sample__CoinGecko.Net.json"),
    ])
    let rates = try api.harness(now: "2024-04-01T15:05:00Z")
    let search = await rates.run(["search", "eth"])
    expectEqual(search.status, 0)
    expectContains(search.stdout, "   2  ETH     Ethereum          ethereum")
    let info = await rates.run(["info", "BTC", "--in", "USD", "--days", "2"])
    expectEqual(info.status, 0)
    expectContains(info.stdout, "price          70,187.00 USD   +3.13% 24h")
    expectContains(info.stdout, "max supply         21.00M")
    // The docs sample's `last_updated` (2024-04-07) lies six days after this clock: not a
    // possible update time, so it shows as unknown (AnswerGate.isUpdateTime).
    expectContains(info.stdout, "updated                     —")
    let added = await rates.run(["favorites", "add", "BTC"])
    expectEqual(added.status, 0)
    let favorites = await rates.run(["favorites", "--in", "USD"])
    expectContains(favorites.stdout, "1  BTC   Bitcoin  70,187.00  +3.13%     1.38T")
  }

  // MARK: - CoinDesk and Frankfurter answers

  @Test func coinDeskHistoryAndCurrentPrice() async throws {
    let api = RealAPI([
      Route(
        fragment: "/historical/close.json", status: 200,
        file: Self.cd + "historical_close_EUR_2017-11-21_to_28__unidentified-repo-id7068977010.json"),
      Route(
        fragment: "/currentprice", status: 200,
        file: Self.cd + "currentprice_EUR__unidentified-repo-id7068977010.json"),
    ])
    let rates = try api.harness(now: "2017-11-28T05:00:00Z")
    // The days the recording holds (2017-11-21 to 27, and today's price): an answer
    // holding a day outside the asked range is refused (issue 22).
    let history = await rates.run(
      ["history", "BTC", "EUR", "--provider", "coindesk", "--days", "8", "--table"])
    expectEqual(history.status, 0)
    expectContains(history.stdout, "2017-11-22  6,964.15")
    expectContains(history.stdout, "2017-11-27  8,184.18  +369.94  +4.73%")
    expectContains(history.stdout, "2017-11-28  8,164.54")
    let current = await rates.run(["current", "BTC", "--in", "EUR", "--provider", "coindesk"])
    expectContains(current.stdout, "BTC/EUR  8,164.54       —  04:05 UTC  CoinDesk")
  }

  @Test func frankfurterCurrentHistoryAndConvert() async throws {
    let api = RealAPI([
      Route(
        fragment: "..", status: 200,
        file: Self.ff
          + "timeseries_2024-01-01..05_USD_CAD_starts_before_holiday__unidentified-repo-id70119726670.json")
    ])
    let rates = try api.harness(now: "2024-01-05T18:00:00Z")
    // History first: it asks for the recording's range (2024-01-01..05, answered from the
    // working day before it); the one recording answers every later request too.
    let history = await rates.run(["history", "USD", "CAD", "--days", "5", "--table"])
    expectEqual(history.status, 0)
    expectContains(history.stdout, "2024-01-03  1.3347  +0.0053  +0.40%")
    let current = await rates.run(["current", "USD-CAD"])
    expectContains(current.stdout, "USD/CAD  1.3369  +0.28% 1d  2024-01-05 (ECB)")
    let convert = await rates.run(["convert", "100", "USD", "CAD"])
    expectContains(convert.stdout, "=  133.69 CAD  at  1.3369  Frankfurter (ECB)  2024-01-05")
  }
}
