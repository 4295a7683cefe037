import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct LoopbackServerTests {
  /// A path on `server` no other test asks for: in a parallel suite another test's client can
  /// reach a freed port that the kernel handed to this server, so a test that counts requests
  /// counts those on its own path.
  static func ownURL(of server: LoopbackServer) -> URL {
    server.baseURL.appendingPathComponent("own-\(UInt64.random(in: 0...UInt64.max))")
  }

  private func get(
    _ url: URL, transport: HTTPTransport = .live(timeoutSeconds: 5), headers: HTTPHeaders = [:]
  ) async throws -> HTTPResponse {
    try await transport.send(HTTPRequest(url: url, headers: headers))
  }

  // MARK: - Responses

  @Test func servesAFixtureWithStatusHeadersAndBody() async throws {
    let server = try LoopbackServer { request in
      request.path == "/api/v3/ping"
        ? .fixture("coingecko/ping.json", headers: ["Retry-After": "7"])
        : .json(#"{"error":"Not Found"}"#, status: 404)
    }
    defer { server.stop() }
    let transport = HTTPTransport.live(timeoutSeconds: 5)

    let url = try require(
      URL(string: "/api/v3/ping?ids=bitcoin,ethereum&query=a%20b%26c", relativeTo: server.baseURL))
    let response = try await get(url, transport: transport, headers: ["X-Test-Key": "CG-1"])

    expectEqual(response.status, 200)
    expectEqual(response.headers["content-type"], "application/json; charset=utf-8")
    expectEqual(response.headers["Retry-After"], "7")
    expectEqual(response.body, (try Fixtures.data("coingecko/ping.json")))

    let recorded = try require(server.requests.first)
    expectEqual(server.requestCount, 1)
    expectEqual(recorded.index, 0)
    expectEqual(recorded.method, "GET")
    expectEqual(recorded.path, "/api/v3/ping")
    expectEqual(recorded.target, "/api/v3/ping?ids=bitcoin,ethereum&query=a%20b%26c")
    expectEqual(recorded.query, ["ids": "bitcoin,ethereum", "query": "a b&c"])
    expectEqual(recorded.headers["x-test-key"], "CG-1")
    expectEqual(recorded.headers["host"], "127.0.0.1:\(server.port)")

    let missing = try await get(server.baseURL.appendingPathComponent("nope"), transport: transport)
    expectEqual(missing.status, 404)
  }

  @Test func missingFixtureGives599WithAClearBody() async throws {
    let server = try LoopbackServer { _ in .fixture("coingecko/does_not_exist.json") }
    defer { server.stop() }

    let response = try await get(server.baseURL)
    expectEqual(response.status, 599)
    expect(String(decoding: response.body, as: UTF8.self).contains("does_not_exist.json"))
  }

  @Test func keepAliveReusesOneConnectionFor20Requests() async throws {
    let server = try LoopbackServer { request in .text("n=\(request.index)", status: 200) }
    defer { server.stop() }
    let transport = HTTPTransport.live(timeoutSeconds: 5)

    for index in 0..<20 {
      let response = try await get(
        server.baseURL.appendingPathComponent("r\(index)"), transport: transport)
      expectEqual(response.status, 200)
      expectEqual(String(decoding: response.body, as: UTF8.self), "n=\(index)")
    }
    expectEqual(server.requestCount, 20)
    expectEqual(server.requests.map(\.path), (0..<20).map { "/r\($0)" })
    // All twenty rode one connection. The server's own count may be higher: in a parallel
    // suite, a client of another test can reach this port (tests stop a server and then
    // connect to its port to get a refusal; the kernel hands freed ports out again).
    let connections = server.requests.map(\.connection)
    expectEqual(Set(connections).count, 1, "connections of the requests: \(connections)")
  }

  @Test func eachRequestNamesTheConnectionThatCarriedIt() async throws {
    let server = try LoopbackServer { _ in .text("ok", status: 200) }
    defer { server.stop() }
    let transport = HTTPTransport.live(timeoutSeconds: 5)
    // The first asks the server to close its connection: the second needs another. Only this
    // test's requests count: another test's client may reach this port (see above).
    let mine = Self.ownURL(of: server)
    _ = try await get(mine, transport: transport, headers: ["Connection": "close"])
    _ = try await get(mine, transport: transport)
    let connections = server.requests.filter { $0.path == mine.path }.map(\.connection)
    expectEqual(connections.count, 2)
    expectEqual(Set(connections).count, 2, "\(connections)")
    expect(connections.allSatisfy { $0 < server.connectionCount })
  }

  // MARK: - Failures

  @Test func dropConnectionIsAConnectionLost() async throws {
    let server = try LoopbackServer { _ in .dropConnection }
    defer { server.stop() }

    let mine = Self.ownURL(of: server)
    await #expect(throws: HTTPError.connectionLost(host: "127.0.0.1")) {
      _ = try await get(mine)
    }
    expectEqual(server.requests.filter { $0.path == mine.path }.count, 1)
  }

  @Test func truncatedBodyIsAConnectionLost() async throws {
    let body = String(repeating: "x", count: 1_000)
    let server = try LoopbackServer { _ in .truncated(.text(body, status: 200), keepBytes: 10) }
    defer { server.stop() }

    await #expect(throws: HTTPError.connectionLost(host: "127.0.0.1")) {
      _ = try await get(server.baseURL)
    }
  }

  /// The reply would come after 10 minutes: a timeout is the only way this ends in time,
  /// and `stop()` must not wait for it either (the time limit only catches a true hang).
  @Test(.timeLimit(.minutes(1))) func slowReplyTimesOutAndStopDoesNotWaitForIt() async throws {
    let server = try LoopbackServer { _ in .delayed(seconds: 600, .text("late", status: 200)) }
    defer { server.stop() }

    // The timeout runs on the transfer's own thread: a timedOut error (rather
    // than "late") proves it fired, whenever a busy test pool resumes this task.
    await #expect(throws: HTTPError.timedOut(host: "127.0.0.1", seconds: 1)) {
      _ = try await get(server.baseURL, transport: .live(timeoutSeconds: 1))
    }
    server.stop()
  }

  @Test(.timeLimit(.minutes(3))) func aDelayedReplyDoesNotBlockOtherConnections() async throws {
    let server = try LoopbackServer { request in
      request.path == "/slow"
        ? .delayed(seconds: 600, .text("slow", status: 200)) : .text("fast", status: 200)
    }
    defer { server.stop() }
    // Longer than a loaded machine can take to reach `server.stop()`, which ends the request.
    let transport = HTTPTransport.live(timeoutSeconds: 300)
    let slowEnded = Recorder<Bool>()

    let slow = Task {
      defer { slowEnded.append(true) }
      return try await transport.send(
        HTTPRequest(url: server.baseURL.appendingPathComponent("slow")))
    }
    expect(await eventually { server.requestCount > 0 })
    let fast = try await get(server.baseURL.appendingPathComponent("fast"), transport: transport)
    expectEqual(String(decoding: fast.body, as: UTF8.self), "fast")
    // The slow reply is still pending (it would take 10 minutes): the fast one did not wait.
    expectEqual(slowEnded.count, 0)
    server.stop()  // cuts the slow reply short: its connection closes without a byte
    await #expect(throws: HTTPError.connectionLost(host: "127.0.0.1")) { _ = try await slow.value }
  }

  /// A reserved closed port refuses every connection, and no server can take its port
  /// while it is held (a stopped server's port could be, which made a test flaky).
  @Test func aClosedPortRefusesAndIsNotGivenToAnotherServer() async throws {
    let closed = try ClosedPort()
    let port = try require(closed.baseURL.port)
    await #expect(throws: HTTPError.cannotConnect(host: "127.0.0.1")) {
      _ = try await get(closed.baseURL)
    }
    #expect(throws: LoopbackServerError.self) {
      try LoopbackServer(port: port) { _ in .text("taken", status: 200) }.stop()
    }
    withExtendedLifetime(closed) {}
  }

  @Test func stopIsIdempotentAndRefusesLaterConnections() async throws {
    let server = try LoopbackServer { _ in .text("ok", status: 200) }
    let response = try await get(server.baseURL)
    expectEqual(response.status, 200)

    server.stop()
    server.stop()
    await #expect(throws: HTTPError.cannotConnect(host: "127.0.0.1")) {
      _ = try await get(server.baseURL)
    }
    server.stop()
  }

  // MARK: - Fixtures

  @Test func everyJSONFixtureParses() throws {
    let paths = Fixtures.all(withExtension: "json")
    expect(paths.count >= 19)
    for path in paths {
      let data = try Fixtures.data(path)
      expect(
        (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil,
        "\(path) is not valid JSON")
    }
  }

  @Test func marketChartFixturesHaveTheDocumentedShape() throws {
    let daily = try chart("coingecko/market_chart_bitcoin_eur_28d_daily.json")
    expectEqual(daily.count, 29)
    let midnights = daily.dropLast().map(\.ms)
    expect(midnights.allSatisfy { $0 % 86_400_000 == 0 })
    expect(zip(midnights, midnights.dropFirst()).allSatisfy { $1 - $0 == 86_400_000 })
    let last = try require(daily.last)
    expect(last.ms % 86_400_000 != 0 && last.ms > midnights[27])

    let hourly = try chart("coingecko/market_chart_bitcoin_usd_hourly.json")
    expectEqual(hourly.count, 49)
    expect(zip(hourly, hourly.dropFirst()).allSatisfy { $0.ms < $1.ms })
  }

  @Test func historicalCloseFixtureIsOutOfOrderButComplete() throws {
    let text = try Fixtures.string("coindesk/historical_close_EUR.json")
    let object = try require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let bpi = try require(object["bpi"] as? [String: Double])
    expectEqual(bpi.count, 31)
    let written = text.split(separator: "\"").filter { $0.count == 10 && $0.hasPrefix("2022-") }
    expectEqual(written.count, 31)
    expect(written != written.sorted())
  }

  private func chart(_ path: String) throws -> [(ms: Int64, value: Double)] {
    let object = try require(
      try JSONSerialization.jsonObject(with: Fixtures.data(path)) as? [String: [[NSNumber]]])
    let prices = try require(object["prices"])
    expectEqual(object["market_caps"]?.count, prices.count)
    expectEqual(object["total_volumes"]?.count, prices.count)
    return prices.map { ($0[0].int64Value, $0[1].doubleValue) }
  }
}
