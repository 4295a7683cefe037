import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The currency chain through the built binary on real loopback HTTP: with
/// Frankfurter answering 503, `RATES_ECB_URL` (set by ``FakeAPIs/environment(base:)``)
/// points both ECB paths at the fake ECB, which answers, labelled.
@Suite struct ECBFallbackEndToEndTests {
  @Test func frankfurterDownTheECBAnswersThroughRATES_ECB_URL() async throws {
    let server = try LoopbackServer { request in
      request.path.hasPrefix("/frankfurter/")
        ? .text("down", status: 503) : FakeAPIs.handler(now: { Date() })(request)
    }
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let current = try await rates.run(["current", "EUR-USD", "--json"])
    expectEqual(current.status, 0, "\(current.stderr)")
    expect(current.stdout.contains(#""source" : "ecb""#), "\(current.stdout)")
    let history = try await rates.run(["history", "EUR", "USD"])
    expectEqual(history.status, 0, "\(history.stderr)")
    expect(history.stdout.contains("ECB") && !history.stdout.contains("Frankfurter"), "\(history.stdout)")
    expect(server.requests.contains { $0.path == "/ecb/stats/eurofxref/eurofxref-daily.xml" })
    expect(server.requests.contains { $0.path == "/ecb/service/data/EXR/D.USD.EUR.SP00.A" })
  }
}
