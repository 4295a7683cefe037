import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// ECB history in chunks: at most ``FrankfurterClient/chunkDays`` days a request, and a
/// chunk an older instance answered with weekly samples asked again in 90-day parts.
@Suite struct FrankfurterChunkTests {
  static let now = fixedNow  // 2024-06-10

  /// A Frankfurter that, like older deployments, answers ranges over 90 days with one
  /// rate a week.
  static func samplingServer() -> InProcessServer {
    let fake = FakeFrankfurter.handler(now: { now })
    return InProcessServer { request in
      let path = request.path.replacingOccurrences(of: "/frankfurter/", with: "")
      let parts = path.components(separatedBy: "..")
      guard parts.count == 2, let start = Day(parts[0]), let end = Day(parts[1]),
        start.distance(to: end) > 90
      else { return fake(request) }
      let weeks = stride(from: 0, through: start.distance(to: end), by: 7).map { start.adding(days: $0) }
      let entries = weeks.map { #""\#($0)":{"USD":\#(FakeFrankfurter.eurRate("USD", day: $0))}"# }
      return .json(
        #"{"amount":1.0,"base":"EUR","start_date":"\#(start)","end_date":"\#(end)","rates":{"#
          + entries.joined(separator: ",") + "}}")
    }
  }

  @Test func everyWorkingDayArrivesEvenFromAnInstanceThatSamplesWeekly() async throws {
    let server = Self.samplingServer()
    let client = FrankfurterClient(
      baseURL: try require(URL(string: "http://frankfurter.test/frankfurter")),
      transport: server.transport())
    let key = CurrencyPairKey(base: "EUR", quote: "USD")
    let start = try require(Day("2023-01-02"))
    let end = try require(Day("2023-12-29"))
    let series = try await client.dailySeries(pairs: [key], start: start, end: end)[key] ?? []
    let working = (0...start.distance(to: end)).map { start.adding(days: $0) }
      .filter(FakeFrankfurter.isWorkingDay)
    expectEqual(series.map(\.date), working)
    // One 362-day request came back weekly; then five 90-day parts (the last shorter).
    expectEqual(server.requestCount, 1 + 5)
  }

  @Test func chunksSpanAtMostAYear() {
    let start = FrankfurterClient.firstDay
    let chunks = FrankfurterClient.chunks(start...start.adding(days: 1_000), days: 365)
    expectEqual(chunks.count, 3)
    expect(chunks.allSatisfy { $0.lowerBound.distance(to: $0.upperBound) < 365 })
    expectEqual(chunks.last?.upperBound, start.adding(days: 1_000))
    expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.upperBound.adding(days: 1) == $1.lowerBound })
  }
}
