import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Timestamps no clock can show, through the real binary: once a SIGILL in
/// ISO 8601 formatting and `Day(containing:)`. An impossible `last_updated_at`
/// is dropped (the price kept, its time unknown); a chart holding an
/// impossible time is refused whole (issue 22, ``AnswerGate``): one line, exit 69.
@Suite struct HostileNumbersEndToEndTests {
  static let values = ["1e300", "9223372036854775807", "-9223372036854775808"]

  /// The fake CoinGecko with every `last_updated_at` set to `value` and three
  /// impossible points added to every market chart.
  func server(lastUpdatedAt value: String) throws -> LoopbackServer {
    let fake = FakeAPIs.handler(now: { Date() })
    return try LoopbackServer { request in
      guard case .response(let status, let headers, let body) = fake(request) else {
        return fake(request)
      }
      var text = String(decoding: body, as: UTF8.self)
      if request.path.hasSuffix("/simple/price") {
        text = text.replacingOccurrences(
          of: #""last_updated_at":\d+"#, with: #""last_updated_at":\#(value)"#,
          options: .regularExpression)
      } else if request.path.hasSuffix("/market_chart") {
        let hostile = Self.values.map { "[\($0),1.5]" }.joined(separator: ",")
        text = text.replacingOccurrences(of: #""prices":["#, with: #""prices":[\#(hostile),"#)
      }
      return .response(status: status, headers: headers, body: Data(text.utf8))
    }
  }

  @Test(arguments: values) func currentAndHistorySurviveImpossibleTimestamps(_ value: String)
    async throws
  {
    let server = try server(lastUpdatedAt: value)
    defer { server.stop() }
    let runner = try BinaryRunner(server: server.baseURL)
    // CoinGecko the only coin source: else Coinbase answers in place of its refused chart.
    expectEqual(try await runner.run(["config", "set", "providers", "coingecko"]).status, 0)

    let current = try await runner.run(["current", "BTC", "EUR", "--json"])
    expectEqual(current.status, 0, "\(current.stderr)")
    expect(!current.stdout.contains("9999-12-31"))

    let history = try await runner.run(["history", "BTC", "EUR", "--days", "7", "--refresh"])
    expectEqual(history.status, 69, "\(history.stderr)")
    expect(history.stderr.contains("CoinGecko") && history.stderr.contains("not a possible time"))
    expectEqual(history.stderr.split(separator: "\n").count, 1, "\(history.stderr)")
  }
}
