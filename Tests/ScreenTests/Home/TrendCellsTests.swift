import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// A 7-day trend is drawn from a series by one rule (``Sparkline/trend(_:cells:ascii:)``): the
/// same cells in `pairs`, `watch` and the home list for the same data, and never from one point.
@Suite struct TrendCellsTests {
  /// The trend cells of `pair`'s row in a text table or a watch frame: the last run of block
  /// characters on its line.
  static func cells(of pair: String, in text: String) -> String? {
    let blocks = Set(Sparkline.unicodeLevels)
    guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix(pair) }) else { return nil }
    return line.split(separator: " ").last { $0.allSatisfy(blocks.contains) }.map(String.init)
  }

  /// The last frame a full-screen run drew, without its escapes.
  static func lastFrame(_ output: String) -> String {
    let frame = output.components(separatedBy: "\u{1B}[H").last ?? ""
    return frame.replacingOccurrences(of: #"\x{1B}\[[0-9;?]*[A-Za-z]"#, with: "", options: .regularExpression)
      .replacingOccurrences(of: "\r", with: "")
  }

  @Test func pairsWatchAndTheHomeListDrawTheSameCells() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(width: 160, isTTY: true)
    for pair in [["GBP", "USD"], ["BTC", "EUR"]] {
      expectEqual(await rates.run(["pairs", "add"] + pair).status, 0)
    }
    let pairs = await rates.run(["pairs"], isTTY: false)
    let watch = await rates.run(["watch", "--count", "1"], environment: ["RATES_WATCH_FLOOR": "1"])
    expectEqual(watch.status, 0, "\(watch.stderr)")
    let frame = Self.lastFrame(watch.stdout)

    let home = try HomeDriverFixture()
    try home.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    try home.userData.addPairAtTop(ConfiguredPair(base: "BTC", quote: "EUR", addedAt: fixedNow))
    let board = try require(await home.run(.loadBoard(currency: "USD", refresh: false)).boards.last)
    let context = HomeRenderContext(width: 160, height: 48, style: Style(enabled: false), ascii: false)

    for (pair, id) in [("GBP/USD", "GBP-USD"), ("BTC/EUR", "BTC-EUR")] {
      let listed = try require(Self.cells(of: pair, in: pairs.stdout), "\(pairs.stdout)")
      let week = try require(board.rows.first { $0.id == id }?.week)
      expect(listed.count >= 7, "a week of cells: \(listed)")
      expectEqual(Self.cells(of: pair, in: frame), listed, "watch:\n\(frame)\npairs:\n\(pairs.stdout)")
      expectEqual(HomeRenderer.sparkline(week, width: Sparkline.weekCells, context), listed, "home: \(week)")
    }
  }

  /// CoinGecko's market rows without their 7-day series (it sends `"price":[]` for some coins).
  static func withoutSparklines(_ fake: @escaping @Sendable (RecordedRequest) -> LoopbackReply)
    -> @Sendable (RecordedRequest) -> LoopbackReply
  {
    { request in
      let reply = fake(request)
      guard request.path.hasSuffix("/coins/markets"), case .response(let status, let headers, let body) = reply
      else { return reply }
      let text = String(decoding: body, as: UTF8.self).replacingOccurrences(
        of: #""sparkline_in_7d":\{"price":\[[^\]]*\]\}"#, with: #""sparkline_in_7d":{"price":[]}"#,
        options: .regularExpression)
      return .response(status: status, headers: headers, body: Data(text.utf8))
    }
  }

  @Test func aCoinWithoutItsMarketWeekTakesItsDailyClosesNeverOnePoint() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(width: 160, handler: Self.withoutSparklines)
    expectEqual(await rates.run(["pairs", "add", "BTC", "EUR"]).status, 0)
    let json = await rates.run(["pairs", "--json"])
    let document = try require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let row = try require((document["pairs"] as? [[String: Any]])?.first)
    let week = try require(row["sparkline"] as? [Double])
    // The stored daily closes of the last week, then the current price.
    let closes = await rates.run(["history", "BTC", "EUR", "--days", "7", "--json"])
    let history = try require(try JSONSerialization.jsonObject(with: Data(closes.stdout.utf8)) as? [String: Any])
    let points = try require(history["points"] as? [[String: Any]]).compactMap { $0["rate"] as? Double }
    expectEqual(week, points + [61_234.50], "\(week) vs \(points)")
    let text = await rates.run(["pairs"])
    let cells = try require(Self.cells(of: "BTC/EUR", in: text.stdout), "\(text.stdout)")
    expect(cells.count >= 7 && Set(cells).count > 1, "\(text.stdout)")
  }

  @Test(arguments: [[], [1.5], [.nan, 2, .nan]] as [[Double]])
  func fewerThanTwoPointsDrawNothing(values: [Double]) {
    expectEqual(Sparkline.trend(values, cells: Sparkline.weekCells, ascii: false), "")
    expectEqual(Sparkline.trend(values, cells: Sparkline.weekCells, ascii: true), "")
  }
}
