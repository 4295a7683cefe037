import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Failures only a real socket produces, through the real binary: a timeout, a
/// refused connection, a connection dropped without a reply, and the API key on
/// the wire. (Every other documented failure is tested in process, in
/// RatesCLITests/Commands/FailureReportingTests.)
@Suite struct FailureEndToEndTests {
  func server(_ toggle: ReplySwitch) throws -> LoopbackServer {
    try LoopbackServer(handler: toggle.wrapping(FakeAPIs.handler(now: { Date() })))
  }

  /// The reply would take 5 minutes: only the client's 1 s timeout ends this run
  /// with 69 before the runner's hang guard (60 s) kills it.
  @Test func slowServersTimeOut() async throws {
    let toggle = ReplySwitch()
    toggle.fail(with: .delayed(seconds: 300, .json("{}")))
    let server = try server(toggle)
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL, extra: ["RATES_TIMEOUT": "1"])
      .run(["current", "BTC"])
    expectEqual(result.status, 69, "\(result.stderr)")
    expectContains(result.stderr, "did not answer within 1 s")
  }

  @Test func unreachableHostIsExplained() async throws {
    // A reserved port where nothing listens.
    let closed = try ClosedPort()
    let result = try await BinaryRunner(server: closed.baseURL).run(["history", "BTC", "EUR"])
    withExtendedLifetime(closed) {}
    expectEqual(result.status, 69)
    expectContains(result.stderr, "could not connect")
  }

  @Test func aDroppedConnectionFallsBackToStaleCache() async throws {
    let toggle = ReplySwitch()
    let server = try server(toggle)
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let fresh = try await rates.run(["history", "BTC", "EUR"])
    expectEqual(fresh.status, 0, "\(fresh.stderr)")

    toggle.fail(with: .dropConnection)
    let dropped = try await rates.run(["history", "BTC", "EUR", "--refresh"])
    expectEqual(dropped.status, 0, "\(dropped.stderr)")
    expectContains(dropped.stdout, "stale")
    expectContains(dropped.stderr, "dropped")
  }

  @Test func apiKeyIsSentButNeverShownOrStored() async throws {
    let secret = "CG-SECRET-7f3a9"
    let toggle = ReplySwitch()
    let server = try server(toggle)
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL, extra: ["COINGECKO_API_KEY": secret])
    let ok = try await rates.run(["history", "BTC", "EUR", "--json"])
    expectEqual(ok.status, 0)
    expectEqual(server.requests.first?.headers["x-cg-demo-api-key"], secret)
    expect(server.requests.allSatisfy { !$0.target.contains(secret) })

    toggle.fail(with: .fixture("coingecko/error_10011_wrong_host.json", status: 400))
    let rejected = try await rates.run(["current", "ETH", "--json"])
    expectEqual(rejected.status, 78)
    for text in [ok.stdout, ok.stderr, rejected.stdout, rejected.stderr] {
      expect(!text.contains(secret))
    }
    for file in allFileContents(under: rates.home) {
      expect(!file.text.contains(secret), "key leaked into \(file.path)")
    }
  }

  @Test func apiKeyFromStdinIsSentButNeverPrintedOrStoredOutsideTheConfig() async throws {
    let secret = "CG-from-stdin-9f8e7d"
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let set = try await rates.run(["config", "set", "api-key"], stdin: secret + "\n")
    expectEqual(set.status, 0, "\(set.stderr)")
    let show = try await rates.run(["config"])
    expectContains(show.stdout, "CG-…8e7d")
    let history = try await rates.run(["history", "BTC", "EUR", "--json"])
    expectEqual(history.status, 0)
    expectEqual(server.requests.first?.headers["x-cg-demo-api-key"], secret)
    for text in [set.stdout, set.stderr, show.stdout, show.stderr, history.stdout, history.stderr] {
      expect(!text.contains(secret))
    }
    // Only the config file holds it.
    let holders = allFileContents(under: rates.home).filter { $0.text.contains(secret) }.map(\.path)
    expect(holders.count == 1 && holders.first?.hasSuffix("config/rates/config.json") == true)
  }
}
