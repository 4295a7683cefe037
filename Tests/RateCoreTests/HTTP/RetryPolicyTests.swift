import Foundation
import Testing
@testable import RateCore
import RatesTestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct RetryPolicyTests {
  let request = URLRequest(url: URL(string: "https://gecko.test/api/v3/ping")!)

  func run(
    _ stub: StubTransport, policy: RetryPolicy = RetryPolicy()
  ) async throws -> (status: Int, sleeps: [Duration]) {
    let clock = TestClock()
    let transport = stub.transport.retrying(policy, sleep: clock.sleep, random: { 0.5 })
    let (_, response) = try await transport.send(request)
    return (response.statusCode, clock.sleeps)
  }

  @Test func serverErrorsAreRetriedWithGrowingBackoff() async throws {
    let stub = StubTransport { _, index in index < 2 ? (503, [:], "busy") : (200, [:], "{}") }
    let (status, sleeps) = try await run(stub)
    #expect(status == 200)
    #expect(stub.requests.count == 3)
    // Full jitter at 0.5: 0.25 + 0.75 * 0.5 = 62.5 % of 500 ms, then of 1 s.
    #expect(sleeps == [.milliseconds(312.5), .milliseconds(625)])
  }

  @Test func attemptsAreBounded() async throws {
    let stub = StubTransport(status: 500, body: "down")
    let (status, sleeps) = try await run(stub)
    #expect(status == 500)
    #expect(stub.requests.count == 3)
    #expect(sleeps.count == 2)
  }

  @Test func shortRetryAfterIsHonoured() async throws {
    let stub = StubTransport { _, index in
      index == 0 ? (429, ["Retry-After": "2"], "slow down") : (200, [:], "{}")
    }
    let (status, sleeps) = try await run(stub)
    #expect(status == 200)
    #expect(sleeps == [.seconds(2)])
  }

  @Test func longRetryAfterFailsFast() async throws {
    let stub = StubTransport(status: 429, headers: ["Retry-After": "120"], body: "slow down")
    let (status, sleeps) = try await run(stub)
    #expect(status == 429)
    #expect(stub.requests.count == 1)
    #expect(sleeps.isEmpty)
  }

  @Test func rateLimitWithoutRetryAfterIsNotRetried() async throws {
    let stub = StubTransport(status: 429, body: "Throttled")
    let (status, _) = try await run(stub)
    #expect(status == 429)
    #expect(stub.requests.count == 1)
  }

  @Test func clientErrorsAreNotRetried() async throws {
    let stub = StubTransport(status: 404, body: #"{"error":"coin not found"}"#)
    _ = try await run(stub)
    #expect(stub.requests.count == 1)
  }

  @Test func timeoutsAndDroppedConnectionsAreRetried() async throws {
    let stub = StubTransport { _, index in
      switch index {
      case 0: throw HTTPError.timedOut(host: "gecko.test", seconds: 1)
      case 1: throw HTTPError.connectionLost(host: "gecko.test")
      default: return (200, [:], "{}")
      }
    }
    let (status, _) = try await run(stub)
    #expect(status == 200)
    #expect(stub.requests.count == 3)
  }

  @Test func unresolvableHostsAreNotRetried() async throws {
    let stub = StubTransport { _, _ in throw HTTPError.cannotFindHost(host: "gecko.test") }
    await #expect(throws: HTTPError.cannotFindHost(host: "gecko.test")) {
      _ = try await run(stub)
    }
    #expect(stub.requests.count == 1)
  }

  @Test func totalWaitingIsBounded() async throws {
    let stub = StubTransport(status: 429, headers: ["Retry-After": "9"], body: "")
    let policy = RetryPolicy(maxAttempts: 5, maxRetryAfter: .seconds(10), maxTotalDelay: .seconds(15))
    let (status, sleeps) = try await run(stub, policy: policy)
    #expect(status == 429)
    #expect(sleeps == [.seconds(9)])
    #expect(stub.requests.count == 2)
  }

  @Test func retryAfterAcceptsAnHTTPDate() throws {
    let now = Date(timeIntervalSince1970: 1_718_000_000)  // Mon, 10 Jun 2024 06:13:20 GMT
    let response = try #require(
      HTTPURLResponse(
        url: request.url!, statusCode: 429, httpVersion: nil,
        headerFields: ["retry-after": "Mon, 10 Jun 2024 06:13:50 GMT"]))
    #expect(RetryAfter.seconds(from: response, now: now) == 30)
  }
}
