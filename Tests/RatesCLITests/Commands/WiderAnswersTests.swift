import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// Issue 33: what an answer is worth, through the commands against the fake APIs, which
/// answer like the real ones at the edges (CoinGecko's exclusive range end, CoinDesk's own
/// 31-day window, a candle before `start`).
@Suite struct WiderAnswersTests {
  static let pinned = ["RATES_PROVIDER": "coingecko"]

  static func points(_ result: CommandResult) throws -> [[String: Any]] {
    expectEqual(result.status, 0, "\(result.stderr)")
    return try require(try result.json()["points"] as? [[String: Any]])
  }

  @Test func a365DayHistoryAfterA28DayOneHasEveryDay() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(environment: Self.pinned)
    let today = Day(containing: fixedNow)
    let short = await rates.run(["history", "BTC", "EUR"])
    expectEqual(short.status, 0, "\(short.stderr)")
    let long = await rates.run(["history", "BTC", "EUR", "--days", "365", "--json"])
    let points = try Self.points(long)
    expectEqual(points.count, 365)
    expect(!long.stderr.contains("only"), "\(long.stderr)")
    // The seam: the day before the stored 28 days has its close (the next midnight's point).
    let seam = today.adding(days: -28)
    let point = try require(points.first { $0["date"] as? String == seam.description })
    expectEqual(
      point["rate"] as? Double, FakeCoinGecko.dailyValue(id: "bitcoin", currency: "eur", day: seam.adding(days: 1)))
    expect(points.allSatisfy { $0["rate"] is Double }, "a null day")
  }

  @Test func coinDesksOwnWindowGivesExactlyTheAskedDays() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let today = Day(containing: fixedNow)
    let result = await rates.run(["history", "BTC", "EUR", "--provider", "coindesk", "--days", "5", "--json"])
    let points = try Self.points(result)
    expectEqual(points.map { $0["date"] as? String }, (0...4).map { today.adding(days: -4 + $0).description })
    for point in points.dropLast() {
      let day = try require(Day(point["date"] as? String ?? ""))
      expectEqual(point["rate"] as? Double, FakeCoinDesk.dailyValue(currency: "EUR", day: day))
    }
  }

  @Test func candlesBeforeTheWindowGiveExactlyTheAskedDays() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(
      ["history", "BTC", "USD", "--provider", "coinbase", "--from", "2016-03-01", "--to", "2016-03-05", "--json"])
    let points = try Self.points(result)
    expectEqual(points.map { $0["date"] as? String }, (1...5).map { "2016-03-0\($0)" })
    for point in points {
      let day = try require(Day(point["date"] as? String ?? ""))
      expectEqual(point["rate"] as? Double, FakeCoinbase.price(base: "BTC", quote: "USD", at: day.end))
    }
  }

  // MARK: - One close, whatever the granularity

  static let oldLedger: [[String]] = [
    ["ledger", "add", "10000", "USD", "--deposit", "--date", "2024-01-02"],
    ["ledger", "add", "1", "ETH", "3000", "USD", "--buy", "--date", "2024-01-03"],
  ]

  static func ledgerHarness() async throws -> CLIHarness {
    let (rates, _) = try CLIHarness.withFakeAPI()
    for arguments in oldLedger {
      let result = await rates.run(arguments)
      expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
    }
    return rates
  }

  @Test func portfolioAsOfAgreesWithPortfolioHistoryForALedgerOlderThan90Days() async throws {
    let history = try await Self.ledgerHarness()
    let document = try PortfolioCommandTests.json(
      await history.run(["portfolio", "history", "--from", "2024-01-02", "--to", "2024-06-09", "--in", "USD", "--json"])
    )
    let points = try require(document["points"] as? [[String: Any]])
    expectEqual(points.count, 160)
    let export = await history.run(["ledger", "export", "--format", "ledger", "--in", "USD"])
    expectEqual(export.status, 0, "\(export.stderr)")
    // Days near the start, past 90 days into the ledger, and yesterday; each in a new home,
    // so the day store of one command never answers the other.
    for day in ["2024-01-10", "2024-04-05", "2024-04-20", "2024-06-09"] {
      let rates = try await Self.ledgerHarness()
      let report = try PortfolioCommandTests.json(
        await rates.run(["portfolio", "--in", "USD", "--as-of", day, "--json"]))
      let total = PortfolioCommandTests.number(report["totals"] as? [String: Any], "value")
      let point = try require(points.first { $0["date"] as? String == day })
      expectEqual(PortfolioCommandTests.number(point, "value"), total, "\(day)")
      // The export's price directives have the day too, at the same value.
      expectContains(export.stdout, "\nP \(day) ETH ", "\(day)")
      let journal = PortfolioJournalTests.marketValue(export.stdout, on: day, in: "USD")
      expect(abs(journal - total) < 0.005, "\(day): journal \(journal), portfolio \(total)")
      // ETH at its close: the price at the day's end, the next midnight's daily point.
      let eth = try PortfolioCommandTests.holdings(report)["ETH"]
      let close = try require(Day(day)).adding(days: 1)
      expectEqual(
        PortfolioCommandTests.number(eth, "rate"),
        FakeCoinGecko.dailyValue(id: "ethereum", currency: "usd", day: close), "\(day)")
    }
  }

  // MARK: - Candles

  /// The fake APIs with Coinbase's candle rows changed by `change`.
  static func candles(
    _ change: @escaping @Sendable (RecordedRequest, [[Double]]) -> LoopbackReply?
  ) throws -> (CLIHarness, InProcessServer) {
    try CLIHarness.withFakeAPI { fake in
      { request in
        let reply = fake(request)
        guard request.path.hasSuffix("/candles"), case .response(_, _, let body) = reply,
          let rows = try? JSONSerialization.jsonObject(with: body) as? [[Double]]
        else { return reply }
        return change(request, rows) ?? reply
      }
    }
  }

  @Test func aCandleCloseOutsideItsRangeIsRefusedAndNeverStored() async throws {
    let (rates, _) = try Self.candles { _, rows in
      var copy = rows
      guard copy.count > 1 else { return nil }
      copy[1][4] = copy[1][2] * 10  // [time, low, high, open, close, volume]: a close 10× the high
      return .json(String(decoding: try! JSONSerialization.data(withJSONObject: copy), as: UTF8.self))
    }
    let result = await rates.run(
      ["history", "BTC", "USD", "--provider", "coinbase", "--from", "2016-03-01", "--to", "2016-03-05"])
    expectEqual(result.status, 69, "\(result.stderr)")
    expect(
      result.stderr.contains("Coinbase Exchange") && result.stderr.contains("outside its own range"), "\(result.stderr)"
    )
    let store = rates.home.appendingPathComponent("cache").path
    let files = (try? FileManager.default.subpathsOfDirectory(atPath: store)) ?? []
    expect(!files.contains { $0.contains("BTC-USD") }, "\(files)")
  }

  @Test func candleWindowsThatArrivedAreKeptWhenALaterOneFails() async throws {
    let down = ReplySwitch()
    down.fail(with: .text("upstream timed out", status: 504))
    // The second 300-day window (from 2016-10-26) fails while `down` is set.
    let (rates, server) = try Self.candles { request, _ in
      guard let failure = down.failure, (request.query["start"] ?? "") >= "2016-10" else { return nil }
      return failure
    }
    let arguments = [
      "history", "BTC", "USD", "--provider", "coinbase", "--from", "2016-01-01", "--to", "2016-12-31", "--json",
    ]
    let first = await rates.run(arguments)
    expectEqual(first.status, 0, "\(first.stderr)")
    expectContains(first.stderr, "from 2016-10-26 did not arrive")
    let points = try require(try first.json()["points"] as? [[String: Any]])
    let dated = points.filter { $0["rate"] is Double }.compactMap { $0["date"] as? String }
    expect(dated.first == "2016-01-01" && dated.last == "2016-10-25", "\(dated.suffix(2))")
    // The next run asks only for what did not arrive, and has every day.
    down.fail(with: nil)
    let before = server.requestCount
    let second = await rates.run(arguments)
    let all = try require(try second.json()["points"] as? [[String: Any]])
    expectEqual(all.filter { $0["rate"] is Double }.count, 366, "\(second.stderr)")
    let asked = server.requests.dropFirst(before).filter { $0.path.hasSuffix("/candles") }
    expectEqual(asked.count, 1)
    expect((asked.first?.query["start"] ?? "") >= "2016-10-25", "\(asked.map(\.query))")
  }
}

/// Issue 33: a failure is named after the source that failed, in its own words.
@Suite struct FailureAttributionTests {
  @Test func anImplausibleCoinbaseAnswerIsCoinbasesFailureNotCoinGeckos() async throws {
    let (rates, _) = try WiderAnswersTests.candles { _, rows in
      var copy = rows
      guard !copy.isEmpty else { return nil }
      copy[0][4] = copy[0][2] * 10
      return .json(String(decoding: try! JSONSerialization.data(withJSONObject: copy), as: UTF8.self))
    }
    // CoinGecko's free plan does not reach 2016; Kraken keeps only its last 720 candles.
    let result = await rates.run(["history", "BTC", "USD", "--from", "2016-01-01", "--to", "2016-01-31"])
    expectEqual(result.status, 69, "\(result.stderr)")
    expect(!result.stderr.contains("CoinGecko has no data"), "\(result.stderr)")
    expect(
      result.stderr.contains("Coinbase Exchange") && result.stderr.contains("outside its own range"), "\(result.stderr)"
    )
  }

  @Test func theECBAnsweringAnotherCurrencyIsTheECBsFailureNotFrankfurters() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        if request.path.hasPrefix("/frankfurter/") { return .text("<html>maintenance</html>", status: 200) }
        let reply = fake(request)
        guard request.path.hasPrefix("/ecb/service/data/"), case .response(let status, let headers, let body) = reply
        else { return reply }
        let other = String(decoding: body, as: UTF8.self).replacingOccurrences(of: ",USD,", with: ",JPY,")
        return .response(status: status, headers: headers, body: Data(other.utf8))
      }
    }
    let result = await rates.run(["history", "EUR", "USD", "--days", "7"])
    expect(result.status != 0, "\(result.stdout)")
    expect(!result.stderr.contains("Frankfurter (ECB) has no data"), "\(result.stderr)")
    expect(result.stderr.contains("ECB") && result.stderr.contains("rates for JPY"), "\(result.stderr)")
  }
}
