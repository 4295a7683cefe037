import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Defects a hostile review found in issue 22's gate and coin-symbol work
/// (2, 7, 8, 9, 10, 14, 15), each through the commands against the fakes.
@Suite struct GateAndSymbolFixTests {
  /// `reply` with its body's text changed by `change`.
  static func text(_ reply: LoopbackReply, _ change: (String) -> String) -> LoopbackReply {
    guard case .response(let status, let headers, let body) = reply else { return reply }
    return .response(
      status: status, headers: headers, body: Data(change(String(decoding: body, as: UTF8.self)).utf8))
  }

  /// The fake APIs, CoinGecko also knowing `poundtoken` (symbol GBP) at 50,000 in any currency.
  static func poundtoken() throws -> (CLIHarness, InProcessServer) {
    let today = Day(containing: fixedNow)
    let points = (0...4).map { "[\(today.adding(days: -$0).start.timeIntervalSince1970 * 1000),50000]" }
    let chart =
      #"{"prices":[\#(points.reversed().joined(separator: ",")),[\#(fixedNow.timeIntervalSince1970 * 1000 - 60000),50000]]}"#
    return try CurrencySymbolTests.harness(price: 50000, chart: chart)
  }

  // MARK: 2. A coin whose symbol is a currency code is labelled by its id.

  @Test func aCoinWhoseSymbolIsACurrencyCodeIsLabelledByItsIdInEveryOutput() async throws {
    let (rates, server) = try Self.poundtoken()
    defer { try? FileManager.default.removeItem(at: rates.home) }
    expectEqual(await rates.run(["coins", "add", "poundtoken", "--in", "USD"]).status, 0)
    let coins = await rates.run(["coins", "--in", "USD"])
    expect(coins.stdout.contains("poundtoken") && !coins.stdout.contains("GBP"), "\(coins.stdout)")
    let current = try await rates.run(["current", "poundtoken", "--in", "USD", "--json"]).json()
    let quote = try require((current["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["base"] as? String, "poundtoken", "\(quote)")
    let watch = await rates.run(["watch", "--in", "USD", "--every", "1", "--count", "1", "--json"])
    let rows = try watch.jsonLines()
    expect(rows.contains { $0["base"] as? String == "poundtoken" }, "\(watch.stdout)")
    expect(!rows.contains { $0["base"] as? String == "GBP" })
    let history = try await rates.run(["history", "poundtoken", "USD", "--days", "3", "--json"]).json()
    expectEqual(history["base"] as? String, "poundtoken", "\(history)")
    for format in ["ledger", "beancount", "csv"] {
      let export = await rates.run(["history", "poundtoken", "USD", "--days", "3", "--format", format])
      expectEqual(export.status, 0, "\(export.stderr)")
      expect(!export.stdout.contains("GBP"), "\(format): \(export.stdout)")
      expectContains(export.stdout.uppercased(), "POUNDTOKEN", "\(format): \(export.stdout)")
    }
    expect(!server.requests.contains { $0.path.hasPrefix("/frankfurter/") }, "never the pound")
  }

  @Test func theLabelRuleKeepsCurrenciesAndOrdinaryCoins() {
    expectEqual(Asset(symbol: "GBP", id: "poundtoken").symbol, "poundtoken")
    expectEqual(Asset(symbol: "GBP", id: "GBP").symbol, "GBP")
    expectEqual(Asset(symbol: "BTC", id: "bitcoin").symbol, "BTC")
    expectEqual(Asset(symbol: "XAU", id: "tether-gold-x").symbol, "tether-gold-x")
    expectEqual(FavoriteCoin(id: "poundtoken", symbol: "GBP", name: nil, addedAt: fixedNow).symbol, "poundtoken")
  }

  @Test func theHomeScreensSearchHitsFollowTheLabelRule() {
    let results = [
      CoinGeckoClient.SearchResult(id: "poundtoken", symbol: "poundtoken", name: "poundtoken", marketCapRank: nil),
      CoinGeckoClient.SearchResult(id: "other", symbol: "GBP", name: "Other", marketCapRank: nil),
      CoinGeckoClient.SearchResult(id: "bitcoin", symbol: "btc", name: "Bitcoin", marketCapRank: 1),
    ]
    let hits = LiveHomeDriver.hits(results, among: [])
    expectEqual(hits.map(\.symbol), ["poundtoken", "other", "BTC"])
  }

  // MARK: 9. convert resolves a coin id.

  @Test func convertResolvesACoinIdLikeEveryOtherCommand() async throws {
    let (rates, server) = try Self.poundtoken()
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(["convert", "1", "poundtoken", "USD"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expect(result.stdout.contains("poundtoken") && result.stdout.contains("CoinGecko"), "\(result.stdout)")
    expectContains(result.stdout, "50,000")
    expect(!server.requests.contains { $0.path.hasPrefix("/frankfurter/") })
  }

  // MARK: 7. Update times on current prices pass the gate.

  @Test(arguments: [0, 1_718_000_000 + 30 * 86_400])
  func anImpossibleLastUpdatedAtIsRefusedAsMalformed(_ stamp: Int) async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(environment: AnswerGateCLITests.pinned) { fake in
      { request in
        guard request.path.hasSuffix("/simple/price") else { return fake(request) }
        return .json(#"{"bitcoin":{"eur":60000,"eur_24h_change":1.0,"last_updated_at":\#(stamp)}}"#)
      }
    }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let current = await rates.run(["current", "BTC", "--in", "EUR", "--refresh"])
    expectEqual(current.status, 69, "\(current.stderr)")
    expect(current.stderr.contains("CoinGecko") && current.stderr.contains("update time"), "\(current.stderr)")
    expect(!current.stdout.contains("1970"))
    let convert = await rates.run(["convert", "1", "BTC", "EUR"])
    expectEqual(convert.status, 69, "\(convert.stderr)")
  }

  @Test func aCoinDeskUpdateTimeIn1970IsRefused() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        let reply = fake(request)
        guard request.path.hasPrefix("/v1/bpi/currentprice") else { return reply }
        return Self.text(reply) {
          $0.replacingOccurrences(
            of: #""updatedISO":"[^"]*""#, with: #""updatedISO":"1970-01-01T00:00:00+00:00""#,
            options: .regularExpression)
        }
      }
    }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(["current", "BTC", "--in", "USD", "--provider", "coindesk"])
    expectEqual(result.status, 69, "\(result.stderr)")
    expectContains(result.stderr, "CoinDesk")
  }

  @Test func aMarketRowUpdatedInTheFutureHasItsTimeDropped() async throws {
    let ahead = ISO8601.format(fixedNow.addingTimeInterval(30 * 86_400))
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        let reply = fake(request)
        guard request.path.hasSuffix("/coins/markets") else { return reply }
        return Self.text(reply) {
          $0.replacingOccurrences(
            of: #""last_updated":"[^"]*""#, with: #""last_updated":"\#(ahead)""#,
            options: .regularExpression)
        }
      }
    }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let top = await rates.run(["top", "--limit", "3", "--json"])
    expectEqual(top.status, 0, "\(top.stderr)")
    expect(!top.stdout.contains(String(ahead.prefix(10))), "\(top.stdout)")
    let coins = try require(try top.json()["coins"] as? [[String: Any]])
    expectEqual(coins.count, 3)
  }

  // MARK: 8. Coin ranges before 2009-01-03 are refused before asking.

  @Test(arguments: [
    ["history", "BTC", "EUR", "--from", "1900-01-01", "--to", "1900-12-31"],
    ["convert", "1", "BTC", "EUR", "--date", "1900-01-01"],
    ["history", "BTC", "--date", "1900-01-01"],
    ["stats", "BTC", "EUR", "--from", "1900-01-01", "--to", "1900-12-31"],
  ])
  func aCoinRangeBeforeTheFirstDayIsRefusedBeforeAsking(_ arguments: [String]) async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(arguments)
    expectEqual(result.status, 64, "\(result.stderr)")
    expect(result.stderr.contains("1900-01-01") && result.stderr.contains("2009-01-03"), "\(result.stderr)")
    expect(!result.stderr.contains("ECB"), "\(result.stderr)")
    expectEqual(server.requestCount, 0)
  }

  @Test func aCoinRangeFromYearZeroAsksFromTheFirstDayOnly() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(environment: AnswerGateCLITests.pinned)
    defer { try? FileManager.default.removeItem(at: rates.home) }
    _ = await rates.run(["history", "BTC", "EUR", "--from", "0000-01-01", "--to", "2024-01-10"])
    let froms = server.requests.compactMap { $0.query["from"].flatMap(Double.init) }
    expect(!froms.isEmpty, "\(server.requests.map(\.target))")
    expect(froms.allSatisfy { $0 >= AnswerGate.firstCoinDay.start.timeIntervalSince1970 })
  }

  // MARK: 10. Refusals quote the days the user asked for.

  @Test func anECBRefusalQuotesTheAskedDaysNotTheWidenedWindow() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        let reply = fake(request)
        guard request.path.contains("..") else { return reply }
        return AnswerGateCLITests.rewriting(reply) { object in
          var copy = object
          // Nothing asked in it: a day outside is dropped, an answer of only such days refused.
          copy["rates"] = ["2024-06-20": ["GBP": 0.85]]
          return copy
        }
      }
    }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(
      ["history", "EUR", "GBP", "--from", "2024-06-03", "--to", "2024-06-07", "--provider", "frankfurter"])
    expectEqual(result.status, 69, "\(result.stderr)")
    expectContains(result.stderr, "outside the asked 2024-06-03")
    expect(!result.stderr.contains("2024-05-30"), "\(result.stderr)")
  }

  @Test func aCoinChartRefusalQuotesDaysNotInstants() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(environment: AnswerGateCLITests.pinned) { fake in
      { request in
        let reply = fake(request)
        guard AnswerGateCLITests.isChart(request) else { return reply }
        return AnswerGateCLITests.chart(reply) { _ in [[1_600_000_000_000, 9000]] }
      }
    }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(["history", "BTC", "EUR", "--days", "3"])
    expectEqual(result.status, 69, "\(result.stderr)")
    let asked = try require(result.stderr.range(of: "outside the asked "))
    let quoted = Array(result.stderr[asked.upperBound...].prefix(21))
    expect(Day(String(quoted.prefix(10))) != nil, "\(result.stderr)")
    expect(quoted.count == 21 && quoted[10] == "…" && Day(String(quoted.suffix(10))) != nil, "\(result.stderr)")
  }

  // MARK: 14. watch's warning for a malformed answer.

  @Test(arguments: [1, 2])
  func watchWarningsNeitherContradictNorPromiseARetryAfterTheLastUpdate(_ count: Int) async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(
      environment: AnswerGateCLITests.pinned.merging(["RATES_WATCH_FLOOR": "1"]) { $1 }
    ) { fake in
      { request in
        guard request.path.hasSuffix("/simple/price") else { return fake(request) }
        return .json(#"{"bitcoin":{"eur":1e308,"eur_24h_change":1.0,"last_updated_at":1718000000}}"#)
      }
    }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let watch = await rates.run(
      ["watch", "BTC", "--in", "EUR", "--every", "1", "--count", String(count), "--json"])
    let warnings = watch.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
    expectEqual(warnings.count, count, "\(watch.stderr)")
    expect(!warnings.contains { $0.contains("asking again will not help") }, "\(watch.stderr)")
    expectEqual(warnings.last.map { !$0.contains("retrying") }, true, "\(watch.stderr)")
    if count > 1 { expectEqual(warnings.first?.contains("retrying in"), true, "\(watch.stderr)") }
  }

  // MARK: 15. 10005 with a key: what to do, not "rejected".

  @Test func anEndpointOutsideTheKeysPlanSaysWhatToDo() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        request.path.hasSuffix("/simple/price")
          ? .fixture("coingecko/synthetic_error_10005_not_in_plan.json", status: 403)
          : fake(request)
      }
    }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(
      ["current", "BTC", "--in", "EUR"], environment: ["COINGECKO_API_KEY": "CG-demo0000000000"])
    expectEqual(result.status, 78, "\(result.stderr)")
    expect(!result.stderr.contains("rejected the API key"), "\(result.stderr)")
    expect(result.stderr.contains("/simple/price") && result.stderr.contains("Demo"), "\(result.stderr)")
    expect(result.stderr.contains("COINGECKO_PRO_API_KEY") && result.stderr.contains("--provider"))
  }
}
