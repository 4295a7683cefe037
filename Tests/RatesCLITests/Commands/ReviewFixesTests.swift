import Foundation
import RateCore
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

/// Messages and series fixed after the review of issue 14 (items 7, 8a, 8c,
/// 9, 13, Q1).
@Suite struct ReviewFixesTests {
  typealias Route = RealAPI.Route

  /// Item 7. Before: three requests and "no prices for that range".
  @Test func coinDeskNoResultsForTheCurrentPriceIsAskedOnceAndNotARange() async throws {
    let api = RealAPI([
      Route(fragment: "/currentprice", status: 500, file: "real/coindesk/error_500_no_results__pricehist.txt")
    ])
    let result = try await api.harness(now: "2024-06-10T06:00:00Z")
      .run(["current", "BTC", "--in", "EUR", "--provider", "coindesk"])
    expectEqual(result.status, 66)
    expectEqual(result.stderr, "error: CoinDesk has no data: no current price in EUR\n")
    expectEqual(api.count("/currentprice"), 1)
  }

  /// Item 8a. Before: "unset RATES_COINGECKO_URL" to a user who never set it.
  @Test func aKeylessUserOnTheDefaultHostIsNotToldToUnsetTheHost() async throws {
    let api = RealAPI([Route(fragment: "/simple/price", status: 401, file: "coingecko/error_10002_key_missing.json")])
    let result = try await api.harness(now: "2024-06-10T06:00:00Z").run(["current", "BTC"])
    expectEqual(result.status, 78)
    expectEqual(
      result.stderr,
      "error: CoinGecko needs an API key for this host: get a free Demo key at"
        + " https://www.coingecko.com/en/api and store it with 'rates config set api-key' (read from"
        + " stdin, never from the command line)\n")
  }

  /// Item 8c. Before: "…Upgrade to a paid plan to enjoy " cut mid-sentence.
  @Test func aLongProviderMessageIsCutAtASentenceWithAnEllipsis() async throws {
    let api = RealAPI([
      Route(
        fragment: "/market_chart", status: 401,
        file: "real/coingecko/error_10012_range_days_max__electron-cash-issue2825.json")
    ])
    let result = try await api.harness(now: "2024-06-10T06:00:00Z").run(["history", "BTC", "EUR", "--days", "3"])
    expectEqual(result.status, 69)
    expectEqual(
      result.stderr,
      "error: CoinGecko answered HTTP 401: Your request exceeds the allowed time range. Public API"
        + " users are limited to querying historical data within the past 365 days. …\n")
  }

  /// A Frankfurter whose first range answer ends today and whose later ones
  /// end yesterday, as a lagging mirror does; `/latest` lags too.
  static func laggingFrankfurter(now: Date) throws -> CLIHarness {
    let ranges = Recorder<String>()
    let (rates, _) = try CLIHarness.withFakeAPI(now: now) { fake in
      { request in
        guard request.path.hasPrefix("/frankfurter/") else { return fake(request) }
        let path = String(request.path.dropFirst("/frankfurter/".count))
        if path == "latest" {
          return .json(#"{"amount":1.0,"base":"EUR","date":"2026-11-24","rates":{"USD":1.07}}"#)
        }
        guard let dots = path.range(of: ".."), let start = Day(String(path[..<dots.lowerBound])) else {
          return fake(request)
        }
        ranges.append(path)
        let end = ranges.all.count == 1 ? "2026-11-25" : "2026-11-24"
        var rates: [String] = []
        var day = start
        while day.description <= end {
          if FakeFrankfurter.isWorkingDay(day) {
            let rate = day.description == "2026-11-25" ? 1.08 : (day.description == "2026-11-24" ? 1.07 : 1.05)
            rates.append(#""\#(day)":{"USD":\#(rate)}"#)
          }
          day = day.adding(days: 1)
        }
        return .json(
          #"{"amount":1.0,"base":"EUR","start_date":"\#(start)","end_date":"\#(end)","rates":{\#(rates.joined(separator: ","))}}"#
        )
      }
    }
    return rates
  }

  /// Item 9. Before: the second run showed today as 1.07 carried from the 24th.
  @Test func aSecondRunShowsTodayAsTheFirstDid() async throws {
    let now = try require(ISO8601.parse("2026-11-25T17:00:00Z"))
    let rates = try Self.laggingFrankfurter(now: now)
    func today(_ days: String) async throws -> [String: Any]? {
      let result = await rates.run(["history", "EUR", "USD", "--days", days, "--json"])
      expectEqual(result.status, 0, "\(result.stderr)")
      return (try result.json()["points"] as? [[String: Any]])?.last
    }
    let first = try require(try await today("5"))
    expectEqual(first["date"] as? String, "2026-11-25")
    expectEqual(first["rate"] as? Double, 1.08)
    let second = try require(try await today("14"))
    expectEqual(second["date"] as? String, "2026-11-25")
    expectEqual(second["rate"] as? Double, 1.08)
    expectEqual(second["carried"] as? Bool, false)
  }

  /// Item 13 and Q1: the help says what the code does.
  @Test func favoritesHelpSpeaksOfPagesAndHistoryHelpOfTheCarryLimit() async throws {
    let favorites = try await CLIHarness.run(["favorites", "--help"])
    expect(!favorites.stdout.contains("(one request)"))
    expectContains(favorites.stdout, "250 favorites")
    let history = try await CLIHarness.run(["history", "--help"])
    expectContains(history.stdout, "at most \(MarketClosure.maximumCarriedDays) days")
  }
}
