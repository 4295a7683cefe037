import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates watch` in process against the fake APIs: `--count` runs, NDJSON, a 429
/// mid-watch, alerts and the interval floor. Its waits run on the test clock, so
/// they are asserted from the time each request arrived, without waiting.
/// (SIGTERM is in EndToEndTests.)
@Suite struct WatchCommandTests {
  static let fast = ["RATES_WATCH_FLOOR": "1"]

  func paths(_ server: InProcessServer, _ suffix: String) -> Int {
    server.requests.filter { $0.path.hasSuffix(suffix) }.count
  }

  @Test func plainLinesOneCoinRequestPerUpdate() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(environment: Self.fast)
    let result = await rates.run(["watch", "BTC", "ETH", "GBP-USD", "--every", "1", "--count", "3"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    expectEqual(lines.count, 9, "\(result.stdout)")
    expectEqual(lines.filter { $0.contains(" BTC/USD 66,012.25 ") }.count, 3)
    expectEqual(lines.filter { $0.contains(" GBP/USD ") && $0.hasSuffix(" Frankfurter (ECB)") }.count, 3)
    expect(!result.stdout.contains("\u{1B}"))
    expectEqual(paths(server, "/simple/price"), 3)
    expect(paths(server, "/coins/markets") <= 1)
    expectEqual(server.requests.filter { $0.path.hasPrefix("/frankfurter/") }.count, 1)
    expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test func jsonIsOneObjectPerItemPerUpdate() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(environment: Self.fast)
    let result = await rates.run(
      ["watch", "BTC", "--in", "EUR,USD", "--every", "1", "--count", "2", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let objects = try result.jsonLines()
    expectEqual(objects.count, 4)
    for object in objects {
      expectEqual(
        Set(object.keys),
        [
          "version", "base", "quote", "rate", "changePercent", "changePeriod", "source", "fetchedAt",
          "updatedAt", "stale", "old",
        ])
      expectEqual(object["stale"] as? Bool, false)
      expectEqual(object["old"] as? Bool, false)
      expectEqual(object["source"] as? String, "coingecko")
    }
    expectEqual(objects.map { $0["quote"] as? String }, ["EUR", "USD", "EUR", "USD"])
    expectEqual(objects.first?["rate"] as? Double, 61_234.5)
  }

  /// A harness on the fake APIs whose `/simple/price` answers its `limited`th
  /// request with a 429 (`Retry-After: 2`); the server; the times of those requests.
  static func rateLimited(atRequest limited: Int, environment: [String: String] = [:]) throws
    -> (CLIHarness, InProcessServer, Recorder<Date>)
  {
    let priceRequests = Recorder<Date>()
    let clock = TestClock()
    let fake = FakeAPIs.handler(now: { clock.now })
    let server = InProcessServer(clock: clock) { request in
      if request.path.hasSuffix("/simple/price") {
        priceRequests.append(clock.now)
        if priceRequests.count == limited {
          return .fixture("coingecko/error_429.json", status: 429, headers: ["Retry-After": "2"])
        }
      }
      return fake(request)
    }
    // CoinGecko pinned: unpinned, Coinbase answers while it is paused (CoinFallbackTests).
    let pinned = fast.merging(["RATES_PROVIDER": "coingecko"]) { $1 }
    let rates = try CLIHarness(server: server, environment: pinned.merging(environment) { $1 })
    return (rates, server, priceRequests)
  }

  @Test func rateLimitMidWatchKeepsGoingMarkedStale() async throws {
    let (rates, server, priceRequests) = try Self.rateLimited(atRequest: 2)
    let result = await rates.run(["watch", "BTC", "--every", "1", "--count", "3", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let stale = try result.jsonLines().map { $0["stale"] as? Bool }
    expectEqual(stale, [false, true, false])
    expect(result.stderr.contains("rate limit") && result.stderr.contains("retrying in 2 s"))
    // No hidden retries: exactly one request per update, and the Retry-After was waited out.
    expectEqual(paths(server, "/simple/price"), 3)
    let times = priceRequests.all
    expectEqual(times.count, 3)
    if times.count == 3 {
      expectEqual(times[1].timeIntervalSince(times[0]), 1, "the interval")
      expect(times[2].timeIntervalSince(times[1]) >= 2, "the Retry-After")
    }
  }

  @Test func exitOnAlertEndsWithCode3() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(environment: Self.fast)
    let result = await rates.run(
      [
        "watch", "--alert", "BTC>60000", "--exit-on-alert", "--every", "1", "--count", "5",
        "--json",
      ])
    expectEqual(result.status, 3, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    expectEqual(lines.count, 1)
    expectEqual(lines.first?.contains(#""alert":"BTC>60000""#), true)

    let quiet = await rates.run(
      [
        "watch", "GBP-USD", "--alert", "GBP-USD<0.01", "--exit-on-alert", "--every", "1", "--count",
        "2",
      ])
    expectEqual(quiet.status, 0, "\(quiet.stderr)")
    expectEqual(quiet.stdout.split(separator: "\n").count, 2)
  }

  @Test func nothingToWatchExits66AndUsageErrorsExit64() async throws {
    let rates = try CLIHarness()
    let empty = await rates.run(["watch"])
    expectEqual(empty.status, 66)
    expectContains(empty.stderr, "nothing to watch")
    let bad = await rates.run(["watch", "BTC", "--alert", "BTC~5"])
    expectEqual(bad.status, 64)
  }

  @Test func floorIsEnforcedWithANote() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(environment: ["RATES_WATCH_FLOOR": "2"])
    let result = await rates.run(["watch", "BTC", "--every", "1", "--count", "2"])
    expectEqual(result.status, 0)
    expectContains(result.stderr, "below the floor of 2 s")
    expectEqual(paths(server, "/simple/price"), 2)
    expect(rates.clock.totalSlept >= .seconds(2), "updates 2 s apart, not 1")
  }
}

/// The watch status line words key advice for the user's setup, as errors on exit do.
@Suite struct WatchKeyAdviceTests {
  static func rateLimitedOnce(environment: [String: String]) async throws -> CommandResult {
    let (rates, _, _) = try WatchCommandTests.rateLimited(atRequest: 1, environment: environment)
    return await rates.run(["watch", "BTC", "--every", "1", "--count", "2", "--json"])
  }

  /// Before: a user with a key was told that a free COINGECKO_API_KEY raises the limit.
  @Test func aRateLimitWithAKeySetDoesNotSuggestGettingOne() async throws {
    for key in ["COINGECKO_API_KEY", "COINGECKO_PRO_API_KEY"] {
      let result = try await Self.rateLimitedOnce(environment: [key: "CG-test-key-123456"])
      expectContains(result.stderr, "rate limit", "\(key): \(result.stderr)")
      expect(!result.stderr.contains("Demo key raises it"), "\(key): \(result.stderr)")
    }
    let keyless = try await Self.rateLimitedOnce(environment: [:])
    expectContains(keyless.stderr, "a free Demo key raises it")
  }
}
