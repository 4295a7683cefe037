import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Every documented failure, in process against the fake APIs: message, exit code,
/// what was waited (on the test clock, so without waiting), stale cache where there is
/// some, and nothing lost. Failures only a real socket produces (timeouts, refused and
/// dropped connections) and the API key on the wire are in EndToEndTests.
@Suite struct FailureReportingTests {
  /// A harness on the fake APIs, answering `toggle`'s failure once it is set.
  func harness(_ toggle: ReplySwitch) throws -> (CLIHarness, InProcessServer) {
    try CLIHarness.withFakeAPI { fake in toggle.wrapping(fake) }
  }

  @Test func longRetryAfterFailsFastWithExitCode75() async throws {
    let toggle = ReplySwitch()
    toggle.fail(
      with: .fixture("coingecko/error_429.json", status: 429, headers: ["Retry-After": "120"]))
    let (rates, server) = try harness(toggle)
    let result = await rates.run(["history", "BTC", "EUR"])
    expectEqual(result.status, 75)
    expectContains(result.stderr, "rate limit")
    expectContains(result.stderr, "retry in 120 s")
    expectEqual(server.requestCount, 3, "once to each coin source: all are rate-limited")
    expect(rates.clock.sleeps.isEmpty, "fails fast: no waiting at all")
  }

  @Test func rateLimitWithoutRetryAfterOrJSONStillExplains() async throws {
    let toggle = ReplySwitch()
    toggle.fail(with: .text("error code: 1015", status: 429))
    let (rates, _) = try harness(toggle)
    let result = await rates.run(["current", "BTC", "--json"])
    expectEqual(result.status, 75)
    let error = try require(try result.errorJSON()["error"] as? [String: Any])
    expectEqual(error["code"] as? String, "rate_limited")
    expectEqual((error["message"] as? String)?.contains("wait a minute"), true)
    expect(result.stdout.isEmpty)
  }

  /// CoinGecko pinned (in the chain, Coinbase answers at once instead).
  @Test func shortRetryAfterIsWaitedOut() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(environment: AnswerGateCLITests.pinned) { fake in
      { request in
        request.index == 0
          ? .fixture("coingecko/error_429.json", status: 429, headers: ["Retry-After": "1"])
          : fake(request)
      }
    }
    let result = await rates.run(["current", "BTC", "--in", "EUR"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(server.requestCount, 2)
    expectEqual(rates.clock.sleeps, [.seconds(1)], "the Retry-After, then the second request")
  }

  @Test func serverErrorsAreRetriedThenReported() async throws {
    let toggle = ReplySwitch()
    toggle.fail(with: .text("upstream down", status: 503))
    let (rates, server) = try harness(toggle)
    let result = await rates.run(["history", "BTC", "EUR"])
    expectEqual(result.status, 69)
    expectContains(result.stderr, "HTTP 503")
    expectEqual(
      server.requestCount, 5,
      "CoinGecko and Coinbase asked once (each has a source behind it), Kraken, the last, thrice")
    expectEqual(rates.clock.sleeps.count, 2, "a pause before each retry")
    expectEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
  }

  @Test func failuresFallBackToStaleCacheAndExitZero() async throws {
    let toggle = ReplySwitch()
    let (rates, _) = try harness(toggle)
    let fresh = await rates.run(["history", "BTC", "EUR", "--json"])
    expectEqual(fresh.status, 0)
    let cacheFile = rates.home.appendingPathComponent(
      "cache/rates/coingecko/history/bitcoin-eur.json")
    let before = try Data(contentsOf: cacheFile)

    // A truncated (but complete) HTTP body: unreadable JSON must not replace good cache.
    toggle.fail(with: .json(#"{"prices":[[1717977600000,59262.2"#))
    let truncated = await rates.run(["history", "BTC", "EUR", "--refresh", "--json"])
    expectEqual(truncated.status, 0, "\(truncated.stderr)")
    expectEqual(try truncated.json()["stale"] as? Bool, true)
    expectContains(truncated.stderr, "unreadable response")
    expectContains(truncated.stderr, "cached data")
    expectEqual(try Data(contentsOf: cacheFile), before)

    // What the live transport reports for a connection closed without a reply.
    toggle.fail(with: .dropConnection)
    let dropped = await rates.run(["history", "BTC", "EUR", "--refresh"])
    expectEqual(dropped.status, 0)
    expectContains(dropped.stdout, "stale")
    expectContains(dropped.stderr, "dropped")
  }

  @Test func aSlowServerTimesOutAfterRATES_TIMEOUT() async throws {
    let toggle = ReplySwitch()
    toggle.fail(with: .delayed(seconds: 300, .json("{}")))
    let (rates, _) = try harness(toggle)
    let result = await rates.run(["current", "BTC"], environment: ["RATES_TIMEOUT": "1"])
    expectEqual(result.status, 69)
    expectContains(result.stderr, "did not answer within 1 s")
  }

  @Test func unknownCoinAndCurrencyAreUsageErrors() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let coin = await rates.run(["history", "bitcon", "EUR"])
    expectEqual(coin.status, 64)
    expectContains(coin.stderr, "unknown coin 'bitcon'")
    let currency = await rates.run(["history", "BTC", "EUX", "--json"])
    expectEqual(currency.status, 64)
    let error = try require(try currency.errorJSON()["error"] as? [String: Any])
    expectEqual(error["code"] as? String, "unknown_currency")
    let same = await rates.run(["history", "BTC", "BTC"])
    expectEqual(same.status, 64)
    expectContains(same.stderr, "always 1")
    expect(server.requests.allSatisfy { $0.path.hasSuffix("/search") })
  }
}
