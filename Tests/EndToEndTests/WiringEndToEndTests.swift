import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The built `rates` binary, wired to a real process: arguments, environment,
/// stdout on a pipe, exit codes, real HTTP to a loopback server, the cache on disk
/// from one process to the next. What the commands do is tested in process
/// (RatesCLITests); this checks the executable passes everything through.
@Suite struct WiringEndToEndTests {
  @Test func historyOverHTTPThenFromTheCacheOfAnotherProcess() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    // The runner's timeout is one a loaded machine cannot reach: a retried request would be
    // counted twice.
    let rates = try BinaryRunner(server: server.baseURL)

    let cold = try await rates.run(["history", "BTC", "EUR"])
    expectEqual(cold.status, 0, "\(cold.stderr)")
    expectContains(cold.stdout, "BTC/EUR")
    expect(!cold.stdout.contains("\u{1B}["), "no colour when stdout is a pipe")
    expectEqual(server.requestCount, 1, "\(server.requests.map(\.path)): \(cold.stderr)")
    let request = try require(server.requests.first)
    expectEqual(request.path, "/api/v3/coins/bitcoin/market_chart", "RATES_COINGECKO_URL is used")
    expectEqual(request.headers["user-agent"], "rates/\(RatesVersion.current)")

    // Offline: today's price stays fresh for a minute only, which two processes on a loaded
    // machine can outlast; the point is that the second process reads what the first cached.
    let warm = try await rates.run(["history", "BTC", "EUR", "--json", "--offline"])
    expectEqual(warm.status, 0, "\(warm.stderr)")
    expectEqual(server.requestCount, 1, "the other process's cache answers without a request")
    let points = try require(try warm.json()["points"] as? [[String: Any]])
    expectEqual(points.count, 28)
    expectEqual(points.last?["date"] as? String, Day(containing: Date()).description)
  }

  @Test func columnsSetsTheWidthOnAPipe() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    for layout in ["--chart", "--table"] {
      let text = try await rates.run(
        ["history", "ETH-USD", "--days", "90", layout], extra: ["COLUMNS": "60"])
      expectEqual(text.status, 0, "\(text.stderr)")
      let widths = text.stdout.split(separator: "\n").map { TerminalText.displayWidth(String($0)) }
      expect(widths.allSatisfy { $0 <= 60 })
      expect(widths.contains { $0 > 50 }, "uses the width it was given")
    }
  }

  @Test func exitCodesAndStreams() async throws {
    let rates = try BinaryRunner(server: nil)
    let version = try await rates.run(["--version"])
    expectEqual(version.status, 0)
    expectEqual(version.stdout, "rates \(RatesVersion.current)\n")
    expect(version.stderr.isEmpty)

    let help = try await rates.run(["history", "--help"])
    expectEqual(help.status, 0)
    expectContains(help.stdout, "usage: rates history")

    let usage = try await rates.run(["history", "BTC", "--days", "0"])
    expectEqual(usage.status, 64)
    expect(usage.stdout.isEmpty)
    expect(usage.stderr.hasPrefix("error: "))
    expectContains(usage.stderr, "usage: rates history")

    let json = try await rates.run(["history", "BTC", "--days", "0", "--json"])
    expectEqual(json.status, 64)
    let error = try require(try json.errorJSON()["error"] as? [String: Any])
    expectEqual(error["code"] as? String, "usage")
  }
}
