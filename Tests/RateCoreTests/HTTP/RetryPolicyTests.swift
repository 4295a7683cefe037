import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct RetryPolicyTests {
  let request = HTTPRequest(url: URL(string: "https://gecko.test/api/v3/ping")!)

  func run(
    _ stub: StubTransport, policy: RetryPolicy = RetryPolicy()
  ) async throws -> (status: Int, sleeps: [Duration]) {
    let clock = TestClock()
    let transport = stub.transport.retrying(policy, sleep: clock.sleep, random: { 0.5 })
    let response = try await transport.send(request)
    return (response.status, clock.sleeps)
  }

  @Test func serverErrorsAreRetriedWithGrowingBackoff() async throws {
    let stub = StubTransport { _, index in index < 2 ? (503, [:], "busy") : (200, [:], "{}") }
    let (status, sleeps) = try await run(stub)
    expectEqual(status, 200)
    expectEqual(stub.requests.count, 3)
    // Full jitter at 0.5: 0.25 + 0.75 * 0.5 = 62.5 % of 500 ms, then of 1 s.
    expectEqual(sleeps, [.milliseconds(312.5), .milliseconds(625)])
  }

  @Test func attemptsAreBounded() async throws {
    let stub = StubTransport(status: 500, body: "down")
    let (status, sleeps) = try await run(stub)
    expectEqual(status, 500)
    expectEqual(stub.requests.count, 3)
    expectEqual(sleeps.count, 2)
  }

  @Test func shortRetryAfterIsHonoured() async throws {
    let stub = StubTransport { _, index in
      index == 0 ? (429, ["Retry-After": "2"], "slow down") : (200, [:], "{}")
    }
    let (status, sleeps) = try await run(stub)
    expectEqual(status, 200)
    expectEqual(sleeps, [.seconds(2)])
  }

  @Test func longRetryAfterFailsFast() async throws {
    let stub = StubTransport(status: 429, headers: ["Retry-After": "120"], body: "slow down")
    let (status, sleeps) = try await run(stub)
    expectEqual(status, 429)
    expectEqual(stub.requests.count, 1)
    expect(sleeps.isEmpty)
  }

  @Test func rateLimitWithoutRetryAfterIsNotRetried() async throws {
    let stub = StubTransport(status: 429, body: "Throttled")
    let (status, _) = try await run(stub)
    expectEqual(status, 429)
    expectEqual(stub.requests.count, 1)
  }

  @Test func clientErrorsAreNotRetried() async throws {
    let stub = StubTransport(status: 404, body: #"{"error":"coin not found"}"#)
    _ = try await run(stub)
    expectEqual(stub.requests.count, 1)
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
    expectEqual(status, 200)
    expectEqual(stub.requests.count, 3)
  }

  @Test func unresolvableHostsAreNotRetried() async throws {
    let stub = StubTransport { _, _ in throw HTTPError.cannotFindHost(host: "gecko.test") }
    await #expect(throws: HTTPError.cannotFindHost(host: "gecko.test")) {
      _ = try await run(stub)
    }
    expectEqual(stub.requests.count, 1)
  }

  @Test func totalWaitingIsBounded() async throws {
    let stub = StubTransport(status: 429, headers: ["Retry-After": "9"], body: "")
    let policy = RetryPolicy(maxAttempts: 5, maxRetryAfter: .seconds(10), maxTotalDelay: .seconds(15))
    let (status, sleeps) = try await run(stub, policy: policy)
    expectEqual(status, 429)
    expectEqual(sleeps, [.seconds(9)])
    expectEqual(stub.requests.count, 2)
  }

  @Test func retryAfterAcceptsAnHTTPDate() throws {
    let now = Date(timeIntervalSince1970: 1_718_000_000)  // Mon, 10 Jun 2024 06:13:20 GMT
    let response = HTTPResponse(
      status: 429, headers: ["retry-after": "Mon, 10 Jun 2024 06:13:50 GMT"])
    expectEqual(RetryAfter.seconds(from: response, now: now), 30)
  }
}

// MARK: - Caps and deadlines

@Suite struct RetryCapTests {
  let request = HTTPRequest(url: URL(string: "https://gecko.test/api/v3/ping")!)
  /// Mon, 10 Jun 2024 06:13:20 GMT.
  let now = Date(timeIntervalSince1970: 1_718_000_000)

  @Test(arguments: [
    ("0", 0), ("7", 7), (" 30 ", 30), ("600", 600), ("601", 600), ("99999999999", 600),
    ("99999999999999999999999999", 600), ("-5", 0), ("+5", 5),
  ])
  func deltaSecondsAreCappedAt600(_ value: String, _ expected: Int) {
    expectEqual(RetryAfter.seconds(fromValue: value, now: now), expected)
  }

  @Test(arguments: ["", "soon", "1.5", "0x10", "5 s", String(repeating: "9", count: 100)])
  func unreadableValuesAreAbsent(_ value: String) {
    expectEqual(RetryAfter.seconds(fromValue: value, now: now), nil)
  }

  @Test func httpDatesAreCappedAndPastDatesAreZero() {
    expectEqual(RetryAfter.seconds(fromValue: "Mon, 10 Jun 2024 06:13:50 GMT", now: now), 30)
    expectEqual(RetryAfter.seconds(fromValue: "Fri, 01 Jan 2099 00:00:00 GMT", now: now), 600)
    expectEqual(RetryAfter.seconds(fromValue: "Thu, 01 Jan 1970 00:00:00 GMT", now: now), 0)
  }

  @Test func anAbsurdRetryAfterIsReportedCappedAndNeverWaited() async throws {
    let stub = StubTransport(status: 429, headers: ["Retry-After": "99999999999"], body: "")
    let sleeps = Recorder<Duration>()
    let client = CoinGeckoClient(
      baseURL: URL(string: "https://gecko.test/api/v3")!, key: nil,
      transport: stub.transport.retrying(RetryPolicy(), sleep: { sleeps.append($0) }))
    await #expect(throws: ProviderError.rateLimited(provider: .provider(.coinGecko), retryAfter: 600)) {
      _ = try await client.search("btc")
    }
    expect(sleeps.all.isEmpty)
    expectEqual(stub.requests.count, 1)
  }

  @Test func policiesAreClampedToTheCeilings() {
    let policy = RetryPolicy(
      maxAttempts: 1_000, baseDelay: .seconds(3_600), maxRetryAfter: .seconds(86_400),
      maxTotalDelay: .seconds(-1))
    expectEqual(policy.maxAttempts, 10)
    expectEqual(policy.baseDelay, .seconds(60))
    expectEqual(policy.maxRetryAfter, .seconds(60))
    expectEqual(policy.maxTotalDelay, .zero)
    expectEqual(RetryPolicy(maxAttempts: 0).maxAttempts, 1)
    expect(policy.backoff(retry: .max, random: .nan) <= .seconds(60))
    expect(policy.backoff(retry: -3, random: 2) <= .seconds(60))
  }

  @Test func noWaitEndsPastTheRequestDeadline() async throws {
    let stub = StubTransport(status: 503, body: "busy")
    let sleeps = Recorder<Duration>()
    let transport = stub.transport
      .retrying(
        RetryPolicy(maxAttempts: 5, baseDelay: .seconds(2)), sleep: { sleeps.append($0) },
        random: { 1 }
      )  // a 2 s backoff, past the deadline 1 s away
      .bounded(by: .now + .seconds(1))
    let response = try await transport.send(request)
    expectEqual(response.status, 503)
    expectEqual(stub.requests.count, 1)
    expect(sleeps.all.isEmpty)
  }

  @Test func boundedStampsTheEarlierDeadline() async throws {
    let seen = Recorder<ContinuousClock.Instant?>()
    let transport = HTTPTransport { request in
      seen.append(request.deadline)
      return HTTPResponse(status: 200)
    }
    let soon = ContinuousClock.now + .seconds(5)
    let later = soon + .seconds(60)
    _ = try await transport.bounded(by: later).bounded(by: soon).send(request)
    _ = try await transport.bounded(by: soon).bounded(by: later).send(request)
    expectEqual(seen.all, [soon, soon])
  }

  @Test func aRequestBudgetIsTheTimeoutCutByTheDeadline() {
    let now = ContinuousClock.now
    expectEqual(RequestBudget(timeoutSeconds: 10, deadline: nil, now: now).milliseconds, 10_000)
    expectEqual(RequestBudget(timeoutSeconds: 0, deadline: nil, now: now).milliseconds, 1_000)
    expectEqual(RequestBudget(timeoutSeconds: .max, deadline: nil, now: now).milliseconds, 86_400_000)
    let short = RequestBudget(timeoutSeconds: 10, deadline: now + .milliseconds(1_500), now: now)
    expectEqual(short.milliseconds, 1_500)
    expectEqual(short.reportedSeconds, 2)
    let passed = RequestBudget(timeoutSeconds: 10, deadline: now - .seconds(1), now: now)
    expectEqual(passed.milliseconds, 0)
    let far = RequestBudget(
      timeoutSeconds: 10, deadline: now + .seconds(Int64.max / 2), now: now)
    expectEqual(far.milliseconds, 10_000)
  }
}
