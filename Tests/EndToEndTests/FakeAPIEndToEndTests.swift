import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The `fake-api` executable that the benchmark and demo scripts run: it prints its
/// port, serves the same fakes as the tests to the real `rates`, and counts requests.
@Suite struct FakeAPIEndToEndTests {
  @Test(.timeLimit(.minutes(2))) func servesRatesAndCountsRequests() async throws {
    let server = try ChildProcess(
      try BinaryRunner.product("fake-api").path, ["--port", "0"])
    defer { server.signal(SIGTERM) }
    expect(await eventually { server.outputText.contains("\n") })
    let port = try require(Int(server.outputText.trimmingCharacters(in: .whitespacesAndNewlines)))
    let base = try require(URL(string: "http://127.0.0.1:\(port)"))

    let rates = try BinaryRunner(server: base)
    let history = try await rates.run(["history", "BTC", "EUR", "--json"])
    expectEqual(history.status, 0, "\(history.stderr)")
    let points = try require(try history.json()["points"] as? [[String: Any]])
    expectEqual(points.count, 28)
    expectEqual(
      points.last?["rate"] as? Double, FakeCoinGecko.nowValue(id: "bitcoin", currency: "eur"))

    let transport = HTTPTransport.live(timeoutSeconds: 10)
    func text(_ path: String, method: String = "GET") async throws -> String {
      let request = HTTPRequest(url: base.appendingPathComponent(path), method: method)
      return String(decoding: try await transport.send(request).body, as: UTF8.self)
    }
    expectEqual(try await text("__requests"), "1")
    expectEqual(try await text("__reset", method: "POST"), "0")
    expectEqual(try await text("__requests"), "0")
  }
}
