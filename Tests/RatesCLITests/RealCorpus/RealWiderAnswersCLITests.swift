import RateCore
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

/// Issue 33: real recorded answers that cover more days than `history` asks (CoinGecko's
/// daily points from days before the window, CoinDesk's own window, Frankfurter from the
/// working day before a closure) give exactly the asked days, each its recorded value; before, each was
/// refused whole as unreadable (exit 69).
@Suite struct RealWiderAnswersCLITests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var routes: [RealAPI.Route]
    var now: String
    var arguments: [String]
    var dates: [String]
    var rates: [Double]
    var testDescription: String { name }
  }

  static let cg = "real/coingecko/"
  static let cd = "real/coindesk/"

  static func chart(_ file: String) -> [RealAPI.Route] {
    [RealAPI.Route(fragment: "/market_chart", status: 200, file: cg + file)]
  }

  static func closes(_ file: String) -> [RealAPI.Route] {
    [RealAPI.Route(fragment: "/historical/close.json", status: 200, file: cd + file)]
  }

  static let cases: [Case] = [
    Case(
      name: "CoinGecko daily points from 4 days back for 2 days",
      routes: chart("market_chart_daily_exponent_prices__alephium-explorer-backend.json"),
      now: "2023-12-13T14:20:00Z", arguments: ["BTC", "USD", "--days", "2"],
      dates: ["2023-12-12", "2023-12-13"], rates: [2.007992246841523e-05, 1.895741967034403e-05]),
    Case(
      name: "CoinDesk's own 31-day window for 3 days",
      routes: closes("historical_close_EUR_2021-07-09_to_08-08__unidentified-repo-id31255022266.json")
        + [
          RealAPI.Route(
            fragment: "/currentprice", status: 200,
            file: cd + "currentprice_EUR_2021__unidentified-repo-id31255022266.json")
        ],
      now: "2021-08-09T08:35:00Z", arguments: ["BTC", "EUR", "--provider", "coindesk", "--days", "3"],
      dates: ["2021-08-07", "2021-08-08", "2021-08-09"], rates: [37921.7742, 37248.1046, 37150.3818]),
    Case(
      name: "CoinDesk 2017 for its last days",
      routes: closes("historical_close_EUR_2017-11-21_to_28__unidentified-repo-id7068977010.json"),
      now: "2017-11-28T05:00:00Z",
      arguments: ["BTC", "EUR", "--provider", "coindesk", "--from", "2017-11-26", "--to", "2017-11-27"],
      dates: ["2017-11-26", "2017-11-27"], rates: [7814.2358, 8184.1759]),
    Case(
      name: "CoinDesk 2021 for its last days",
      routes: closes("historical_close_AUD_2021-01-01_07__pricehist.json"),
      now: "2021-01-08T05:00:00Z",
      arguments: ["BTC", "AUD", "--provider", "coindesk", "--from", "2021-01-06", "--to", "2021-01-07"],
      dates: ["2021-01-06", "2021-01-07"], rates: [47190.09, 50862.227]),
    Case(
      name: "CoinDesk with 2010 days beside 2021",
      routes: closes("historical_close_AUD_2010-07-18_to_2021-01-07_partial__pricehist.json"),
      now: "2021-01-08T05:00:00Z",
      arguments: ["BTC", "AUD", "--provider", "coindesk", "--from", "2021-01-06", "--to", "2021-01-07"],
      dates: ["2021-01-06", "2021-01-07"], rates: [47190.09, 50862.227]),
    Case(
      name: "Frankfurter from the working day before New Year for two days",
      routes: [
        RealAPI.Route(
          fragment: "..", status: 200,
          file:
            "real/frankfurter/timeseries_2024-01-01..05_USD_CAD_starts_before_holiday__unidentified-repo-id70119726670.json"
        )
      ],
      now: "2024-01-05T18:00:00Z", arguments: ["USD", "CAD", "--from", "2024-01-04", "--to", "2024-01-05"],
      dates: ["2024-01-04", "2024-01-05"], rates: [1.3332, 1.3369]),
  ]

  @Test(arguments: cases)
  func aWiderRealAnswerGivesExactlyTheAskedDays(_ test: Case) async throws {
    let rates = try RealAPI(test.routes).harness(now: test.now)
    let result = await rates.run(["history"] + test.arguments + ["--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let points = try require(try result.json()["points"] as? [[String: Any]])
    expectEqual(points.map { $0["date"] as? String }, test.dates)
    expectEqual(points.map { $0["rate"] as? Double }, test.rates)
  }
}
