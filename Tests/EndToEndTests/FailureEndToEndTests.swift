import Foundation
import Testing
@testable import RateCore
@testable import RatesCLI
import RatesTestSupport

/// Every documented failure, through the real binary: message, exit code,
/// stale cache where there is some, and nothing lost.
@Suite struct FailureEndToEndTests {
  static let clock: @Sendable () -> Date = { Date() }

  /// Serves the fake APIs until `failing` is set, then `failure` for every request.
  final class Switch: @unchecked Sendable {
    private let lock = NSLock()
    private var reply: LoopbackReply?
    func fail(with reply: LoopbackReply) {
      lock.lock()
      self.reply = reply
      lock.unlock()
    }
    var failure: LoopbackReply? {
      lock.lock()
      defer { lock.unlock() }
      return reply
    }
  }

  func server(_ toggle: Switch) throws -> LoopbackServer {
    let fake = FakeAPIs.handler(now: Self.clock)
    return try LoopbackServer { request in toggle.failure ?? fake(request) }
  }

  @Test func longRetryAfterFailsFastWithExitCode75() async throws {
    let toggle = Switch()
    toggle.fail(with: .fixture("coingecko/error_429.json", status: 429, headers: ["Retry-After": "120"]))
    let server = try server(toggle)
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL).run(["history", "BTC", "EUR"])
    #expect(result.status == 75)
    #expect(result.stderr.contains("rate limit"))
    #expect(result.stderr.contains("retry in 120 s"))
    #expect(server.requestCount == 1)
  }

  @Test func rateLimitWithoutRetryAfterOrJSONStillExplains() async throws {
    let toggle = Switch()
    toggle.fail(with: .text("error code: 1015", status: 429))
    let server = try server(toggle)
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL).run(["current", "BTC", "--json"])
    #expect(result.status == 75)
    let error = try #require(try result.errorJSON()["error"] as? [String: Any])
    #expect(error["code"] as? String == "rate_limited")
    #expect((error["message"] as? String)?.contains("wait a minute") == true)
    #expect(result.stdout.isEmpty)
  }

  @Test func shortRetryAfterIsWaitedOut() async throws {
    let fake = FakeAPIs.handler(now: Self.clock)
    let server = try LoopbackServer { request in
      request.index == 0
        ? .fixture("coingecko/error_429.json", status: 429, headers: ["Retry-After": "1"])
        : fake(request)
    }
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL).run(["current", "BTC", "--in", "EUR"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(server.requestCount == 2)
  }

  @Test func serverErrorsAreRetriedThenReported() async throws {
    let toggle = Switch()
    toggle.fail(with: .text("upstream down", status: 503))
    let server = try server(toggle)
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL).run(["history", "BTC", "EUR"])
    #expect(result.status == 69)
    #expect(result.stderr.contains("HTTP 503"))
    #expect(server.requestCount == 3)
    #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
  }

  @Test func failuresFallBackToStaleCacheAndExitZero() async throws {
    let toggle = Switch()
    let server = try server(toggle)
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let fresh = try await rates.run(["history", "BTC", "EUR", "--json"])
    #expect(fresh.status == 0)
    let cacheFile = rates.home.appendingPathComponent("cache/rates/coingecko/history/bitcoin-eur.json")
    let before = try Data(contentsOf: cacheFile)

    // A truncated (but complete) HTTP body: unreadable JSON must not replace good cache.
    toggle.fail(with: .json(#"{"prices":[[1717977600000,59262.2"#))
    let truncated = try await rates.run(["history", "BTC", "EUR", "--refresh", "--json"])
    #expect(truncated.status == 0, "\(truncated.stderr)")
    #expect(try truncated.json()["stale"] as? Bool == true)
    #expect(truncated.stderr.contains("unreadable response"))
    #expect(truncated.stderr.contains("cached data"))
    #expect(try Data(contentsOf: cacheFile) == before)

    toggle.fail(with: .dropConnection)
    let dropped = try await rates.run(["history", "BTC", "EUR", "--refresh"])
    #expect(dropped.status == 0)
    #expect(dropped.stdout.contains("stale"))
    #expect(dropped.stderr.contains("dropped"))
  }

  @Test func slowServersTimeOut() async throws {
    let toggle = Switch()
    toggle.fail(with: .delayed(seconds: 300, .json("{}")))
    let server = try server(toggle)
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL, extra: ["RATES_TIMEOUT": "1"])
      .run(["current", "BTC"])
    #expect(result.status == 69)
    #expect(result.stderr.contains("did not answer within 1 s"))
  }

  @Test func unreachableHostIsExplained() async throws {
    // Bind a server to get a free port, then stop it so nothing listens there.
    let server = try LoopbackServer { _ in .json("{}") }
    let url = server.baseURL
    server.stop()
    let result = try await BinaryRunner(server: url).run(["history", "BTC", "EUR"])
    #expect(result.status == 69)
    #expect(result.stderr.contains("could not connect"))
  }

  @Test func unknownCoinAndCurrencyAreUsageErrors() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: Self.clock))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let coin = try await rates.run(["history", "bitcon", "EUR"])
    #expect(coin.status == 64)
    #expect(coin.stderr.contains("unknown coin 'bitcon'"))
    let currency = try await rates.run(["history", "BTC", "EUX", "--json"])
    #expect(currency.status == 64)
    let error = try #require(try currency.errorJSON()["error"] as? [String: Any])
    #expect(error["code"] as? String == "unknown_currency")
    let same = try await rates.run(["history", "BTC", "BTC"])
    #expect(same.status == 64)
    #expect(same.stderr.contains("always 1"))
    #expect(server.requests.allSatisfy { $0.path.hasSuffix("/search") })
  }

  @Test func apiKeyIsSentButNeverShownOrStored() async throws {
    let secret = "CG-SECRET-7f3a9"
    let toggle = Switch()
    let server = try server(toggle)
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL, extra: ["COINGECKO_API_KEY": secret])
    let ok = try await rates.run(["history", "BTC", "EUR", "--json"])
    #expect(ok.status == 0)
    #expect(server.requests.first?.headers["x-cg-demo-api-key"] == secret)
    #expect(server.requests.allSatisfy { !$0.target.contains(secret) })

    toggle.fail(with: .fixture("coingecko/error_10011_wrong_host.json", status: 400))
    let rejected = try await rates.run(["current", "ETH", "--json"])
    #expect(rejected.status == 78)
    for text in [ok.stdout, ok.stderr, rejected.stdout, rejected.stderr] {
      #expect(!text.contains(secret))
    }
    for file in rates.allFileContents() {
      #expect(!file.text.contains(secret), "key leaked into \(file.path)")
    }
  }
}
