import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

/// Real recorded bodies (`fixtures/real/`) through the built binary and a real
/// socket: a partial answer, a rate limit in plain text, and a 500 that is an
/// answer rather than an outage.
@Suite struct RealResponsesEndToEndTests {
  @Test func aPartialPriceAnswerPrintsWhatArrived() async throws {
    let server = try LoopbackServer { _ in
      .fixture(
        "real/coingecko/simple_price_24h_change_five_ids_integer_btc__unidentified-repo-id62500592667.json")
    }
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL)
      .run(["current", "BTC", "SOL", "ETH", "--in", "EUR"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectContains(result.stdout, "BTC/EUR  62,891.00")
    expectContains(result.stdout, "ETH/EUR   3,540.90")
    expectEqual(
      result.stderr,
      "warning: no price for SOL/EUR: CoinGecko sent no price for it, Coinbase Exchange sent an"
        + " unreadable answer (at top level: missing key 'price'), Kraken sent an unreadable answer"
        + " (at top level: missing key 'error'); showing the prices that arrived\n")
  }

  @Test func aCloudflareTextRateLimitExits75() async throws {
    let server = try LoopbackServer { _ in
      .fixture(
        "real/coingecko/error_429_cloudflare_1015_text__coingecko-api-js-issue38.txt", status: 429)
    }
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL).run(["current", "BTC"])
    expectEqual(result.status, 75)
    expectEqual(
      result.stderr,
      "error: no price for BTC/USD: CoinGecko, Coinbase Exchange and Kraken rate limited;"
        + " CoinGecko rate limit reached: wait a minute and retry (a free Demo key raises it:"
        + " 'rates config set api-key')\n")
    expectEqual(server.requests.count, 3, "once to each coin source, all rate-limited")
  }

  @Test func coinDeskNoResultsIsNoDataAndAskedOnce() async throws {
    let server = try LoopbackServer { request in
      request.path.contains("/historical/")
        ? .fixture("real/coindesk/error_500_no_results__pricehist.txt", status: 500)
        : .fixture("real/coindesk/currentprice_EUR_2021__unidentified-repo-id31255022266.json")
    }
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL)
      .run(["history", "BTC", "EUR", "--provider", "coindesk", "--days", "7"])
    expectEqual(result.status, 66, "\(result.stderr)")
    expectEqual(result.stderr, "error: CoinDesk has no data: no prices for that range\n")
    expectEqual(server.requests.filter { $0.path.contains("/historical/") }.count, 1)
  }
}
