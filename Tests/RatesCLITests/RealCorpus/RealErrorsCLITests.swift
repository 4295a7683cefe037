import RateCore
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

/// Each recorded error family through `rates`: the one line it prints, its
/// exit code and how often it asked.
@Suite struct RealErrorsCLITests {
  typealias Route = RealAPI.Route

  static func gecko(_ fragment: String, _ status: Int, _ file: String, headers: [String: String] = [:])
    -> RealAPI
  {
    RealAPI([Route(fragment: fragment, status: status, file: "real/coingecko/" + file, headers: headers)])
  }

  // MARK: - Rate limits and outages

  struct Limit: Sendable, CustomTestStringConvertible {
    var file: String
    var headers: [String: String] = [:]
    var wait: String
    var testDescription: String { file }
  }

  @Test(arguments: [
    Limit(
      file: "error_429_json_retry_after_119__jetpack-compose-crypto-pr45.json",
      headers: ["Retry-After": "119"], wait: "retry in 119 s"),
    Limit(file: "error_429_json__cryptgo-issue30.json", wait: "wait a minute and retry"),
    Limit(file: "error_429_cloudflare_1015_text__coingecko-api-js-issue38.txt", wait: "wait a minute and retry"),
    Limit(file: "error_429_cloudflare_1015_html__telliot-feeds.html", wait: "wait a minute and retry"),
    Limit(file: "error_429_throttled_text__l2beat-pr4730.txt", wait: "wait a minute and retry"),
  ])
  func everyRateLimitShapeIsRateLimited(_ limit: Limit) async throws {
    let api = Self.gecko("/simple/price", 429, limit.file, headers: limit.headers)
    let result = try await api.harness(now: "2024-06-10T06:00:00Z").run(["current", "BTC"])
    expectEqual(result.status, 75)
    // The exchanges here are the same CoinGecko-only server: each source is named.
    expect(result.stderr.hasPrefix("error: no price for BTC/USD: CoinGecko rate limited"))
    expect(
      result.stderr.hasSuffix(
        "; CoinGecko rate limit reached: \(limit.wait) (a free Demo key raises it: 'rates config set api-key')\n"))
    expectEqual(api.count("/simple/price"), 1)
  }

  @Test func aRateLimitWithAKeySetSuggestsNoKey() async throws {
    let api = Self.gecko("/simple/price", 429, "error_429_json__cryptgo-issue30.json")
    let result = try await api.harness(
      now: "2024-06-10T06:00:00Z", environment: ["COINGECKO_API_KEY": "CG-demo0000000000"]
    ).run(["current", "BTC"])
    expectEqual(result.status, 75)
    expect(result.stderr.hasSuffix("; CoinGecko rate limit reached: wait a minute and retry\n"))
  }

  @Test func aRailsErrorPageIsAServerErrorRetried() async throws {
    let api = Self.gecko("/simple/price", 500, "error_500_html_PREFIX_ONLY__pycoingecko-pr9.html")
    // CoinGecko pinned: in the coin chain it is asked once, the next source answering.
    let result = try await api.harness(
      now: "2024-06-10T06:00:00Z", environment: ["RATES_PROVIDER": "coingecko"]
    ).run(["current", "BTC"])
    expectEqual(result.status, 69)
    expectEqual(
      result.stderr, "error: CoinGecko is having trouble (HTTP 500): try again in a few minutes\n")
    expectEqual(api.count("/simple/price"), 3)
  }

  @Test func anHTMLPageWithStatus200IsUnreadableNotRetriedAndNotTryAgain() async throws {
    let api = Self.gecko("/simple/price", 200, "error_429_cloudflare_1015_html__telliot-feeds.html")
    let result = try await api.harness(now: "2024-06-10T06:00:00Z").run(["current", "BTC"])
    expectEqual(result.status, 69)
    expect(
      result.stderr.hasSuffix(
        "; CoinGecko sent an unreadable response from /simple/price (an HTML page where JSON"
          + " was expected): asking again will not help; check the provider URL (RATES_COINGECKO_URL)"
          + " or report the problem\n"))
    expect(!result.stderr.contains("try again"))
    expectEqual(api.count("/simple/price"), 1)
  }

  // MARK: - Coins, currencies and ranges

  @Test func aKnownCoinTheChartLacksIsNoDataNamedAsTyped() async throws {
    let api = Self.gecko("/market_chart", 404, "error_404_coin_not_found__unidentified-repo-id55272097999.json")
    let result = try await api.harness(now: "2024-06-10T06:00:00Z").run(["history", "ETH", "EUR"])
    expectEqual(result.status, 66)
    expectEqual(result.stderr, "error: CoinGecko has no data: the answer has nothing for ETH, a coin it lists\n")
    expect(!result.stderr.contains("did you mean"))
  }

  @Test func aKnownCoinTheMarketsAnswerLacksIsNotUnknown() async throws {
    let api = RealAPI([
      Route(
        fragment: "/coins/markets", status: 200,
        file: "real/coingecko/coins_markets_docs_sample__CoinGecko.Net.json"),
      Route(
        fragment: "/market_chart", status: 200,
        file: "real/coingecko/market_chart_range_docs_sample__CoinGecko.Net.json"),
    ])
    let rates = try api.harness(now: "2024-04-01T15:05:00Z")
    for arguments in [["info", "ETH", "--in", "USD"], ["favorites", "add", "ETH"]] {
      let result = await rates.run(arguments)
      expectEqual(result.status, 66, "\(arguments)")
      expectEqual(
        result.stderr, "error: CoinGecko has no data: the answer has nothing for ETH, a coin it lists\n")
    }
  }

  @Test func anUncheckedIdTheChartLacksIsAnUnknownCoinNamedAsTyped() async throws {
    let api = Self.gecko("/market_chart", 404, "error_could_not_find_coin_pretty__pycoingecko-issue42.json")
    let result = try await api.harness(now: "2024-06-10T06:00:00Z").run(["history", "my-token-x", "EUR"])
    expectEqual(result.status, 64)
    expect(result.stderr.hasPrefix("error: unknown coin 'my-token-x' at CoinGecko"))
  }

  @Test func aPartialPriceAnswerShowsWhatArrivedAndNamesWhatDidNot() async throws {
    let api = Self.gecko(
      "/simple/price", 200,
      "simple_price_24h_change_five_ids_integer_btc__unidentified-repo-id62500592667.json")
    let result = try await api.harness(now: "2024-03-01T12:00:00Z")
      .run(["current", "BTC", "SOL", "ETH", "--in", "EUR"])
    expectEqual(result.status, 0)
    expectContains(result.stdout, "BTC/EUR  62,891.00  +0.77% 24h")
    expectContains(result.stdout, "ETH/EUR   3,540.90  -0.02% 24h")
    expect(!result.stdout.contains("SOL"))
    expectEqual(
      result.stderr,
      "warning: no price for SOL/EUR: CoinGecko sent no price for it, Coinbase Exchange does"
        + " not list it, Kraken answered HTTP 404; showing the prices that arrived\n")
    let json = try await api.harness(now: "2024-03-01T12:00:00Z")
      .run(["current", "BTC", "SOL", "--in", "EUR", "--json"])
    expectEqual(json.status, 0)
    expectEqual((try json.json()["quotes"] as? [[String: Any]])?.map { $0["base"] as? String }, ["BTC"])
  }

  @Test func a10012ForAShortRangeQuotesCoinGeckoNotTheRange() async throws {
    let api = Self.gecko("/market_chart", 401, "error_10012_range_days_max__waxtax-pr8.json")
    let result = try await api.harness(now: "2024-06-10T06:00:00Z")
      .run(["history", "BTC", "EUR", "--days", "30"])
    expectEqual(result.status, 69)
    expect(result.stderr.hasPrefix("error: CoinGecko answered HTTP 401: Your request exceeds the allowed time range."))
    expect(!result.stderr.contains("--days 365"))
  }

  @Test func anInvalidVsCurrencyIsAnUnknownCurrency() async throws {
    let api = Self.gecko("/coins/markets", 400, "error_400_invalid_vs_currency__unidentified-repo-id68784287318.json")
    let result = try await api.harness(now: "2024-06-10T06:00:00Z").run(["top", "--in", "VEF"])
    expectEqual(result.status, 64)
    expect(result.stderr.hasPrefix("error: CoinGecko does not price in 'VEF'"))
  }

  @Test func coinDeskNoResultsIsNoDataAskedOnce() async throws {
    let api = RealAPI([
      Route(fragment: "/historical/close.json", status: 500, file: "real/coindesk/error_500_no_results__pricehist.txt"),
      Route(
        fragment: "/currentprice", status: 200,
        file: "real/coindesk/currentprice_EUR__unidentified-repo-id7068977010.json"),
    ])
    let result = try await api.harness(now: "2017-11-28T05:00:00Z")
      .run(["history", "BTC", "EUR", "--provider", "coindesk", "--days", "7"])
    expectEqual(result.status, 66)
    expectEqual(result.stderr, "error: CoinDesk has no data: no prices for that range\n")
    expectEqual(api.count("/historical/close.json"), 1)
  }

  @Test func coinDeskUnknownCurrencyIsAUsageError() async throws {
    let api = RealAPI([
      Route(
        fragment: "/currentprice", status: 404,
        file:
          "real/coindesk/error_404_currentprice_unsupported_currency_UNI_live_test__unidentified-repo-id16258946178.txt"
      )
    ])
    let result = try await api.harness(now: "2021-06-01T05:00:00Z")
      .run(["current", "BTC", "--in", "XAU", "--provider", "coindesk"])
    expectEqual(result.status, 64)
    expect(result.stderr.hasPrefix("error: CoinDesk does not price in 'XAU'"))
  }

  @Test func frankfurterNotFoundForKnownCurrenciesIsNoData() async throws {
    let api = RealAPI([
      Route(
        fragment: "..", status: 404,
        file: "real/frankfurter/error_404_not_found_unknown_symbol_TWD__unidentified-repo-id70119726670.json")
    ])
    let result = try await api.harness(now: "2024-01-05T18:00:00Z")
      .run(["history", "GBP", "USD", "--days", "5"])
    expectEqual(result.status, 66)
    expect(result.stderr.hasPrefix("error: Frankfurter (ECB) has no data: no ECB rates from"))
  }
}
