import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The live transport against hostile and slow servers on loopback. Each test
/// asserts the typed outcome, which only the rule under test produces (without it a
/// trickle or a delay ends otherwise, or outlasts the suite's time limit, the hang
/// guard). No test measures how long anything took.
@Suite(.timeLimit(.minutes(3))) struct HostileServerTests {
  let host = "127.0.0.1"

  func send(
    _ server: LoopbackServer, _ path: String = "/", timeout: Int = 10,
    maxBodyBytes: Int = HTTPRequest.defaultMaxBodyBytes
  ) async throws -> HTTPResponse {
    let request = HTTPRequest(
      url: server.baseURL.appendingPathComponent(path), maxBodyBytes: maxBodyBytes)
    return try await HTTPTransport.live(timeoutSeconds: timeout).send(request)
  }

  // MARK: - Deadlines

  @Test func aSlowFirstByteMissesTheDeadline() async throws {
    let server = try LoopbackServer { _ in .delayed(seconds: 3, .text("late", status: 200)) }
    defer { server.stop() }
    await #expect(throws: HTTPError.timedOut(host: host, seconds: 1)) {
      _ = try await send(server, timeout: 1)
    }
  }

  @Test func aTricklingBodyIsCutAtTheTotalDeadline() async throws {
    // 200 bytes, one every 0.3 s: a minute of body, each byte well inside any
    // "silence" timeout, so only a total deadline stops it.
    let body = Data(repeating: UInt8(ascii: "x"), count: 200)
    let server = try LoopbackServer { _ in
      .trickle(status: 200, headers: [:], body: body, interval: 0.3)
    }
    defer { server.stop() }
    await #expect(throws: HTTPError.timedOut(host: host, seconds: 2)) {
      _ = try await send(server, timeout: 2)
    }
  }

  @Test func aRequestDeadlineShortensTheTimeout() async throws {
    let server = try LoopbackServer { _ in .delayed(seconds: 20, .text("late", status: 200)) }
    defer { server.stop() }
    let transport = HTTPTransport.live(timeoutSeconds: 30).bounded(by: .now + .seconds(1))
    await #expect(throws: HTTPError.timedOut(host: host, seconds: 1)) {
      _ = try await transport.send(HTTPRequest(url: server.baseURL))
    }
  }

  // MARK: - Body limits

  @Test func anEndlessChunkedBodyHitsTheCap() async throws {
    let chunk = Data(repeating: UInt8(ascii: "a"), count: 16_384)
    let server = try LoopbackServer { _ in
      .endlessChunked(status: 200, headers: [:], chunk: chunk)
    }
    defer { server.stop() }
    await #expect(throws: HTTPError.bodyTooLarge(host: host, limit: 1 << 20)) {
      _ = try await send(server, timeout: 30, maxBodyBytes: 1 << 20)
    }
  }

  @Test func aGzipBombIsCappedByItsDecodedSize() async throws {
    let bomb = GzipBomb.zeros(repeats: 40_000)  // 10.3 MB of zeros in 65 KB
    expect(bomb.gzip.count < 100_000)
    let server = try LoopbackServer { _ in
      .response(
        status: 200, headers: ["Content-Encoding": "gzip", "Content-Type": "application/json"],
        body: bomb.gzip)
    }
    defer { server.stop() }
    await #expect(
      throws: HTTPError.bodyTooLarge(host: host, limit: HTTPRequest.defaultMaxBodyBytes)
    ) {
      _ = try await send(server)
    }

    // With room for it, the same stream decodes whole: the limit counts decoded bytes.
    let response = try await send(server, maxBodyBytes: 16 << 20)
    expectEqual(response.body.count, bomb.inflatedSize)
    expect(response.body.allSatisfy { $0 == 0 })
  }

  @Test func aDeclaredLengthOverTheCapIsRefusedAtOnce() async throws {
    let server = try LoopbackServer { _ in
      .response(status: 200, headers: [:], body: Data(count: 2 << 20))
    }
    defer { server.stop() }
    await #expect(throws: HTTPError.bodyTooLarge(host: host, limit: 1 << 20)) {
      _ = try await send(server, maxBodyBytes: 1 << 20)
    }
  }

  // MARK: - Redirects

  @Test(arguments: [301, 302, 307])
  func aRedirectToAnotherPortIsNeverFollowedAndTheKeyStaysHome(_ status: Int) async throws {
    let elsewhere = try LoopbackServer { _ in .json(#"{"stolen":true}"#) }
    defer { elsewhere.stop() }
    let target = elsewhere.baseURL.appendingPathComponent("api/v3/search").absoluteString
    let server = try LoopbackServer { _ in
      .response(status: status, headers: ["Location": target], body: Data())
    }
    defer { server.stop() }

    // The transport hands the 3xx back as it is.
    let response = try await send(server, "api/v3/search")
    expectEqual(response.status, status)
    expectEqual(response.headers["location"], target)

    // A client turns it into an error, and nothing reaches the other server.
    let client = CoinGeckoClient(
      baseURL: server.baseURL.appendingPathComponent("api/v3"), key: .demo("CG-secret"),
      transport: .live(timeoutSeconds: 5))
    do {
      _ = try await client.search("btc")
      Issue.record("a redirect must not succeed")
    } catch ProviderError.httpStatus(let provider, let code, let message) {
      expectEqual(provider, .provider(.coinGecko))
      expectEqual(code, status)
      expectContains(message, "not followed")
    }
    expectEqual(server.requests.last?.headers["x-cg-demo-api-key"], "CG-secret")
    expectEqual(elsewhere.requestCount, 0)
    expect(!elsewhere.requests.contains { $0.headers["x-cg-demo-api-key"] != nil })
  }

  // MARK: - Cancellation

  @Test func oneFailingAndOneCancelledRequestNeverDeadlock() async throws {
    let server = try LoopbackServer { request in
      request.path == "/slow"
        ? .delayed(seconds: 30, .text("slow", status: 200)) : .dropConnection
    }
    defer { server.stop() }
    let transport = HTTPTransport.live(timeoutSeconds: 30)
    let slow = HTTPRequest(url: server.baseURL.appendingPathComponent("slow"))
    let failing = HTTPRequest(url: server.baseURL.appendingPathComponent("fail"))

    for round in 0..<60 {
      do {
        try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
          group.addTask { try await transport.send(slow) }
          group.addTask { try await transport.send(failing) }
          // The first error leaves the group, which cancels and awaits the slow request.
          for try await _ in group {}
        }
        Issue.record("round \(round): expected an error")
      } catch let error as HTTPError {
        expectEqual(error, .connectionLost(host: host), "round \(round)")
      }
    }
  }

  @Test func cancellingMidBodyEndsTheRequestAndItsConnection() async throws {
    let body = Data(repeating: UInt8(ascii: "x"), count: 200)
    let server = try LoopbackServer { _ in
      .trickle(status: 200, headers: [:], body: body, interval: 0.3)
    }
    defer { server.stop() }
    let transport = HTTPTransport.live(timeoutSeconds: 60)
    let task = Task { try await transport.send(HTTPRequest(url: server.baseURL)) }
    expect(await eventually { server.trickledByteCount >= 2 })  // a few body bytes are in

    task.cancel()
    await #expect(throws: HTTPError.cancelled) { _ = try await task.value }

    // The transfer's thread notices too and closes its connection.
    expect(await eventually { server.openConnectionCount == 0 })
  }

  @Test func anAlreadyCancelledTaskSendsNothing() async throws {
    let server = try LoopbackServer { _ in .text("ok", status: 200) }
    defer { server.stop() }
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await send(server)
    }
    await #expect(throws: HTTPError.cancelled) { _ = try await task.value }
    expectEqual(server.requestCount, 0)
  }

  // MARK: - Requests that are never sent

  @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/", "gopher://127.0.0.1/"])
  func onlyHTTPAndHTTPSAreSpoken(_ address: String) async throws {
    let url = try require(URL(string: address))
    let refusal = HTTPError.invalidRequest(detail: "only http and https URLs are supported")
    await #expect(throws: refusal) {
      _ = try await HTTPTransport.live(timeoutSeconds: 5).send(HTTPRequest(url: url))
    }
  }

  @Test func aLineBreakInAHeaderIsRefused() async throws {
    let server = try LoopbackServer { _ in .text("ok", status: 200) }
    defer { server.stop() }
    let request = HTTPRequest(
      url: server.baseURL, headers: ["x-cg-demo-api-key": "CG-1\r\nX-Injected: yes"])
    await #expect(throws: HTTPError.self) {
      _ = try await HTTPTransport.live(timeoutSeconds: 5).send(request)
    }
    expectEqual(server.requestCount, 0)
  }
}
