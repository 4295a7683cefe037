import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `history` and `stats` over any range (`--from`/`--to`), one day (`--date`),
/// `convert --date` before the last year, ECB back to 1999 in chunked requests and
/// CoinGecko's range endpoint, against the fake APIs at `fixedNow` (2024-06-10).
@Suite struct HistoryRangeTests {
  static let today = Day(containing: fixedNow)

  @Test func aClosedRangeIsOneRequestAndEveryDayThenNone() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let cold = await rates.run(["history", "GBP", "USD", "--from", "2021-01-04", "--to", "2021-12-31", "--json"])
    expectEqual(cold.status, 0, "\(cold.stderr)")
    let points = try require(try cold.json()["points"] as? [[String: Any]])
    expectEqual(points.count, 362)
    expectEqual(points.first?["date"] as? String, "2021-01-04")
    expectEqual(points.last?["date"] as? String, "2021-12-31")
    let july1 = try require(Day("2021-07-01"))
    expectEqual(
      points.first { $0["date"] as? String == "2021-07-01" }?["rate"] as? Double,
      FakeFrankfurter.rate(base: "GBP", quote: "USD", day: july1))
    expectEqual(server.requestCount, 1)
    // A day past the end (AnswerGate's margin): an exclusive end would still hold 12-31.
    expectEqual(server.requests.first?.path, "/frankfurter/2021-01-04..2022-01-01")
    let warm = await rates.run(["history", "GBP", "USD", "--from", "2021-03-01", "--to", "2021-06-30"])
    expectEqual(warm.status, 0, "\(warm.stderr)")
    expectEqual(server.requestCount, 1, "a range inside a cached one asks nothing")
  }

  @Test func ecbBackTo1999InYearLongRequestsThenNone() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let cold = await rates.run(["history", "EUR", "USD", "--from", "1999-01-04", "--json"])
    expectEqual(cold.status, 0, "\(cold.stderr)")
    let points = try require(try cold.json()["points"] as? [[String: Any]])
    let span = FrankfurterClient.firstDay.distance(to: Self.today) + 1
    expectEqual(points.count, span)
    expect(points.allSatisfy { $0["rate"] is Double }, "every day has a rate (carried over closures)")
    let chunks = (span + FrankfurterClient.chunkDays - 1) / FrankfurterClient.chunkDays
    expectEqual(server.requestCount, chunks)
    expectEqual(server.requests.first?.path, "/frankfurter/1999-01-04..\(FrankfurterClient.firstDay.adding(days: 364))")
    let warm = await rates.run(["history", "EUR", "USD", "--from", "1999-01-04"])
    expectEqual(warm.status, 0, "\(warm.stderr)")
    expectEqual(server.requestCount, chunks, "the second run asks nothing")
  }

  @Test func aPartlyCachedRangeFetchesOnlyTheMissingPart() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    _ = await rates.run(["history", "GBP", "USD", "--days", "30"])
    expectEqual(server.requestCount, 1)
    let longer = await rates.run(["history", "GBP", "USD", "--from", "2024-01-01"])
    expectEqual(longer.status, 0, "\(longer.stderr)")
    expectEqual(server.requestCount, 2)
    let request = try require(server.requests.last)
    let cachedFrom = Self.today.adding(days: -29)
    // 2024-01-01 is a holiday: the year's first days carry 2023-12-29, read
    // too; the cached part reaches back to its own Friday, 2024-05-10, asked too as the
    // margin past the missing part's end.
    expectEqual(request.path, "/frankfurter/2023-12-29..2024-05-10")
    expectEqual(cachedFrom, Day("2024-05-12"))
  }

  @Test(arguments: [
    (["--days", "5", "--from", "2020-01-01"], "--days cannot be used with --from"),
    (["--from", "2020-13-01"], "expected a date written YYYY-MM-DD"),
    (["--from", "2030-01-01"], "is in the future"),
    (["--from", "2020-01-01", "--to", "2030-01-01"], "is in the future"),
    (["--from", "2020-02-01", "--to", "2020-01-01"], "is before --from"),
    (["--to", "2020-01-01"], "needs --from"),
    (["--date", "2020-01-01", "--days", "3"], "--date cannot be used"),
    (["--date", "2030-01-01"], "is in the future"),
  ])
  func badDatesAreUsageErrors(extra: [String], message: String) async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "EUR", "USD"] + extra)
    expectEqual(result.status, 64)
    expectContains(result.stderr, message, "\(result.stderr)")
    if !extra.contains("--date") {
      let stats = await rates.run(["stats", "EUR", "USD"] + extra)
      expectEqual(stats.status, 64)
      expectContains(stats.stderr, message, "\(stats.stderr)")
    }
    expectEqual(server.requestCount, 0)
  }

  @Test func daysBeforeTheECBBeganSaySoEvenWithOtherDaysCached() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    _ = await rates.run(["history", "EUR", "USD", "--days", "10"])
    let asked = server.requestCount
    for command in ["history", "stats"] {
      let result = await rates.run([command, "EUR", "USD", "--from", "1998-01-05", "--to", "1998-12-31"])
      expectEqual(result.status, 64)
      expect(
        result.stderr.contains(
          "no ECB rates from 1998-01-05 to 1998-12-31: the ECB's rates start on 1999-01-04"),
        "\(result.stderr)")
    }
    expectEqual(server.requestCount, asked, "refused before any request")
  }

  @Test func oneDayNamesTheWorkingDayItCameFrom() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let friday = try require(Day("2019-03-15"))
    let expected = FakeFrankfurter.eurRate("USD", day: friday)
    let sunday = await rates.run(["history", "EUR", "USD", "--date", "2019-03-17"])
    expectEqual(sunday.status, 0, "\(sunday.stderr)")
    expectContains(sunday.stdout, "EUR/USD on Sunday 2019-03-17")
    expectContains(sunday.stdout, "rate of Friday 2019-03-15")
    expect(sunday.stdout.contains(RateFormat.amount(expected, code: "USD")))
    let json = try (await rates.run(["history", "EUR", "USD", "--date", "2019-03-17", "--json"])).json()
    expectEqual(json["rate"] as? Double, expected)
    expectEqual(json["rateDate"] as? String, "2019-03-15")
    expectEqual(json["carried"] as? Bool, true)
    let own = await rates.run(["history", "EUR", "USD", "--date", "2019-03-15"])
    expectContains(own.stdout, "that day's own rate")
    let csv = await rates.run(["history", "EUR", "USD", "--date", "2019-03-17", "--format", "csv"])
    expectEqual(csv.status, 0, "\(csv.stderr)")
    expectContains(csv.stdout, "2019-03-17")
  }

  @Test func everyFormatTakesARange() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let args = ["history", "GBP", "USD", "--from", "2015-01-01", "--to", "2015-12-31", "--format"]
    let csv = await rates.run(args + ["csv"])
    expectEqual(csv.status, 0, "\(csv.stderr)")
    let rows = csv.stdout.split(whereSeparator: \.isNewline).dropFirst()
    expectEqual(rows.first?.hasPrefix("2015-01-01"), true, "a holiday at the start carries 2014-12-31")
    expectEqual(rows.last?.hasPrefix("2015-12-31"), true, "\(rows.last ?? "")")
    for format in ["ledger", "beancount"] {
      let result = await rates.run(args + [format])
      expectEqual(result.status, 0, "\(result.stderr)")
      expectContains(result.stdout, "2015-06-30", "\(format)")
    }
    let stats = await rates.run([
      "stats", "GBP", "USD", "--from", "2015-01-01", "--to", "2015-12-31", "--format", "csv",
    ])
    expectEqual(stats.status, 0, "\(stats.stderr)")
    expectContains(stats.stdout, "2015-12-31")
  }

  @Test func convertTakesAnyDayTheProviderCovers() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["convert", "100", "EUR", "USD", "--date", "2001-06-01", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let conversion = try require((try result.json()["conversions"] as? [[String: Any]])?.first)
    let day = try require(Day("2001-06-01"))
    expectEqual(conversion["rate"] as? Double, FakeFrankfurter.eurRate("USD", day: day))
    expectEqual(conversion["rateDate"] as? String, "2001-06-01")
  }

  @Test func statsOverARangeCountEveryOwnPoint() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["stats", "GBP", "USD", "--from", "2020-01-01", "--to", "2020-12-31", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let stats = try require(try result.json()["stats"] as? [String: Any])
    let from = try require(Day("2020-01-01"))
    let working = (0..<366).filter { FakeFrankfurter.isWorkingDay(from.adding(days: $0)) }.count
    expectEqual(stats["count"] as? Int, working)
  }

  @Test func coinRangesUseTheRangeEndpoint() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "BTC", "EUR", "--from", "2024-01-01", "--to", "2024-03-31", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let points = try require(try result.json()["points"] as? [[String: Any]])
    expectEqual(points.count, 91)
    let day = try require(Day("2024-02-10"))
    expectEqual(
      points.first { $0["date"] as? String == "2024-02-10" }?["rate"] as? Double,
      FakeCoinGecko.dailyValue(id: "bitcoin", currency: "eur", day: day.adding(days: 1)))
    let request = try require(server.requests.first)
    expectEqual(request.path, "/api/v3/coins/bitcoin/market_chart/range")
    expectEqual(request.query["from"], String(Int(try require(Day("2024-01-01")).start.timeIntervalSince1970)))
  }

  /// CoinGecko pinned (unpinned, the exchanges answer: CoinFallbackTests).
  @Test func coinHistoryBeyondAYearNeedsAProKey() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(environment: ["RATES_PROVIDER": "coingecko"])
    let free = await rates.run(["history", "BTC", "EUR", "--from", "2020-01-01", "--to", "2020-12-31"])
    expectEqual(free.status, 64)
    expectContains(free.stderr, "past 365 days")
    expectContains(free.stderr, "COINGECKO_PRO_API_KEY")
    let pro = await rates.run(
      ["history", "BTC", "EUR", "--from", "2020-01-01", "--to", "2020-12-31", "--json"],
      environment: ["COINGECKO_PRO_API_KEY": "CG-test"])
    expectEqual(pro.status, 0, "\(pro.stderr)")
    expectEqual((try pro.json()["points"] as? [Any])?.count, 366)
  }

  @Test func aRangeBeforeTheCoinExistedSaysSo() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(environment: ["COINGECKO_PRO_API_KEY": "CG-test"])
    let result = await rates.run(["history", "ETH", "EUR", "--from", "2014-01-01", "--to", "2014-12-31"])
    expect(result.status != 0)
    expectContains(result.stderr, "may not have been trading yet")
  }
}

/// The permanent day cache through the commands: settled days are never asked
/// twice, days before a coin traded are remembered, old cache entries are read
/// in, and `cache info` lists the pairs with their day ranges.
@Suite struct DayCacheCommandTests {
  @Test func daysBeforeACoinTradedAreNotAskedAgain() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(environment: ["COINGECKO_PRO_API_KEY": "CG-test"])
    let cold = await rates.run(["history", "BTC", "EUR", "--from", "2013-01-01", "--to", "2013-12-31", "--json"])
    expectEqual(cold.status, 0, "\(cold.stderr)")
    let points = try require(try cold.json()["points"] as? [[String: Any]])
    expectEqual(
      points.first { $0["rate"] is Double }?["date"] as? String, "2013-04-27",
      "the point stamped 2013-04-28 00:00 closes 2013-04-27")
    expectEqual(server.requestCount, 1)
    let warm = await rates.run(["history", "BTC", "EUR", "--from", "2013-01-01", "--to", "2013-12-31"])
    expectEqual(warm.status, 0, "\(warm.stderr)")
    expectEqual(server.requestCount, 1, "the days before 2013-04-27 are known to have no price")
  }

  @Test func aCoinHoleUnfilledForAMonthIsNotAskedAgain() async throws {
    // The range answer lacks the point stamped 2023-03-02 00:00: 2023-03-01 has no close.
    let missing = try require(Day("2023-03-02")).start
    let stamp = String(Int64(missing.timeIntervalSince1970) * 1_000)
    let (rates, server) = try CLIHarness.withFakeAPI(
      environment: ["COINGECKO_PRO_API_KEY": "CG-test"]
    ) { fake in
      { request in
        guard request.path.hasSuffix("/market_chart/range"),
          case .response(let status, let headers, let body) = fake(request)
        else { return fake(request) }
        let text = String(decoding: body, as: UTF8.self)
          .replacingOccurrences(of: #"\[\#(stamp),[0-9.]+\],"#, with: "", options: .regularExpression)
        return .response(status: status, headers: headers, body: Data(text.utf8))
      }
    }
    let args = ["history", "BTC", "EUR", "--from", "2023-01-01", "--to", "2023-06-30", "--json"]
    let cold = await rates.run(args)
    expectEqual(cold.status, 0, "\(cold.stderr)")
    let points = try require(try cold.json()["points"] as? [[String: Any]])
    expect(points.first { $0["date"] as? String == "2023-03-01" }?["rate"] is NSNull)
    expectEqual(server.requestCount, 1)
    _ = await rates.run(args)
    expectEqual(server.requestCount, 1, "a hole older than a month is a gap for good")
  }

  @Test func anOldCacheEntryIsReadInAndMovedToTheStore() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let today = Day(containing: fixedNow)
    let from = today.adding(days: -9)
    let yesterday = today.adding(days: -1)
    let closes = (0...8).map { from.adding(days: $0) }.filter(FakeFrankfurter.isWorkingDay)
      .map { #"{"date":"\#($0)","rate":1.5,"carried":false}"# }
    let entry =
      #"{"version":1,"key":"frankfurter/history/EUR-USD","source":"frankfurter","#
      + #""fetchedAt":"2024-06-10T05:00:00Z","value":{"closes":[\#(closes.joined(separator: ","))],"#
      + #""coverage":{"from":"\#(from)","through":"\#(yesterday)"}}}"#
    let url = rates.home.appendingPathComponent("cache/rates/frankfurter/history/eur-usd.json")
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(entry.utf8).write(to: url)
    let result = await rates.run(["history", "EUR", "USD", "--days", "10", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let points = try require(try result.json()["points"] as? [[String: Any]])
    expectEqual(
      points.first { $0["carried"] as? Bool == false }?["rate"] as? Double, 1.5,
      "the old entry's closes are shown")
    expect(server.requests.allSatisfy { !$0.path.contains("\(from)..") }, "and not asked again")
    let info = try (await rates.run(["cache", "info", "--json"])).json()
    let days = try require(info["days"] as? [[String: Any]])
    expectEqual(days.first?["pair"] as? String, "eur-usd")
    // Saturday's window reads Friday's rate too, which stands on it.
    expectEqual(days.first?["firstDay"] as? String, from.adding(days: -1).description)
    let rewritten = try String(contentsOf: url, encoding: .utf8)
    expectContains(rewritten, "\"closes\":[]", "the entry keeps only the latest price")
  }

  @Test func cacheInfoListsEachPairsDays() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    _ = await rates.run(["history", "GBP", "USD", "--from", "2021-01-04", "--to", "2021-03-31"])
    let text = await rates.run(["cache", "info"], width: 100)
    expectEqual(text.status, 0, "\(text.stderr)")
    expectContains(text.stdout, "Settled days")
    expectContains(text.stdout, "GBP-USD")
    expectContains(text.stdout, "2021-01-04")
    expectContains(text.stdout, "2021-03-31")
    let clear = await rates.run(["cache", "clear", "--json"])
    expectEqual(clear.status, 0, "\(clear.stderr)")
    expectEqual(try clear.json()["kept"] as? [String], [])
  }
}

/// Long series: sparklines and charts resampled to the width, labelled with what
/// one column stands for.
@Suite struct LongSeriesRenderingTests {
  @Test func sparklineSaysWhatAColumnStandsFor() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let args = ["history", "EUR", "USD", "--from", "2000-01-01", "--to", "2009-12-31"]
    let result = await rates.run(args, width: 80)
    expectEqual(result.status, 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    expect(lines.allSatisfy { TerminalText.displayWidth($0) <= 80 })
    // 3,653 days in 78 columns: about 47 days a column.
    expectContains(result.stdout, "1 column ≈ 47 days")
    expectEqual(TerminalText.displayWidth(lines[1]), 2 + 78)
    let short = await rates.run(["history", "EUR", "USD", "--days", "30"], width: 80)
    expect(!short.stdout.contains("1 column"))
  }

  /// Before: 90 days at width 80 took whole days per column, 2, and drew 45
  /// of the 78 columns; the sparkline now resamples like `info`'s and the charts.
  @Test func sparklineJustLongerThanTheWidthStillFillsIt() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "EUR", "USD", "--days", "90"], width: 80)
    expectEqual(result.status, 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    expectEqual(TerminalText.displayWidth(lines[1]), 2 + 78, "\(result.stdout)")
    expectContains(result.stdout, "1 column ≈ 1.2 days")
  }

  @Test func chartsSayWhatAColumnStandsFor() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let args = ["--from", "2000-01-01", "--to", "2009-12-31"]
    for command in [["history", "EUR", "USD", "--chart"], ["stats", "EUR", "USD"]] {
      let result = await rates.run(command + args, width: 80)
      expectEqual(result.status, 0, "\(result.stderr)")
      expectContains(result.stdout, "1 column ≈ 49 days")
      expect(result.stdout.split(separator: "\n").allSatisfy { TerminalText.displayWidth(String($0)) <= 80 })
    }
  }
}
