import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Issue 22 through the commands: a hostile provider answer is refused as
/// malformed (exit 69 naming the provider), nothing of it is stored, and
/// cached data stands in, marked stale, where there is some.
@Suite struct AnswerGateCLITests {
  /// `reply` with its JSON body changed by `change`.
  static func rewriting(_ reply: LoopbackReply, _ change: ([String: Any]) -> Any) -> LoopbackReply {
    guard case .response(let status, let headers, let body) = reply,
      let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
      let data = try? JSONSerialization.data(withJSONObject: change(object))
    else { return reply }
    return .response(status: status, headers: headers, body: data)
  }

  /// A chart reply whose `prices` are changed by `change`.
  static func chart(_ reply: LoopbackReply, _ change: @escaping ([[Double]]) -> [[Double]])
    -> LoopbackReply
  {
    rewriting(reply) { object in
      var copy = object
      let prices = (object["prices"] as? [[Any]] ?? []).map { $0.compactMap { $0 as? Double } }
      copy["prices"] = change(prices)
      return copy
    }
  }

  /// Whether `path` is a CoinGecko market chart request.
  static func isChart(_ request: RecordedRequest) -> Bool {
    request.path.contains("/market_chart")
  }

  /// CoinGecko pinned: these tests are about its answers, which the exchanges of the coin
  /// chain would otherwise replace.
  static let pinned = ["RATES_PROVIDER": "coingecko"]

  /// The files under the harness's cache whose path contains `text`.
  static func stored(_ rates: CLIHarness, _ text: String) -> [String] {
    let root = rates.home.appendingPathComponent("cache").path
    let paths = (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []
    return paths.filter { $0.contains(text) && $0.hasSuffix(".json") }
  }

  /// The fake APIs with every chart's middle point priced 1e308 while `hostile` is set.
  static func absurdCharts(_ hostile: ReplySwitch) throws -> (CLIHarness, InProcessServer) {
    try CLIHarness.withFakeAPI(environment: pinned) { fake in
      { request in
        let reply = fake(request)
        guard isChart(request), hostile.failure != nil else { return reply }
        return chart(reply) { prices in
          var copy = prices
          if copy.count > 2 { copy[copy.count / 2][1] = 1e308 }
          return copy
        }
      }
    }
  }

  @Test func historyRefusesA1e308ChartNamingCoinGeckoAndStoresNothing() async throws {
    let hostile = ReplySwitch()
    hostile.fail(with: .dropConnection)  // marks the switch: charts turn hostile
    let (rates, _) = try Self.absurdCharts(hostile)
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(["history", "BTC", "EUR"])
    expectEqual(result.status, 69, "\(result.stderr)")
    expect(result.stderr.contains("CoinGecko") && result.stderr.contains("not a plausible price"))
    expectEqual(result.stderr.split(separator: "\n").count, 1, "\(result.stderr)")
    expect(result.stdout.isEmpty)
    let json = await rates.run(["history", "BTC", "EUR", "--json"])
    expectEqual(json.status, 69, "no EncodingError on inf: \(json.stderr)")
    let error = try require(try json.errorJSON()["error"] as? [String: Any])
    expectEqual(error["code"] as? String, "malformed_response")
    expect(Self.stored(rates, "bitcoin-eur").isEmpty, "\(Self.stored(rates, "bitcoin"))")
  }

  @Test func aCachedHistoryStandsInMarkedStaleAndIsNotReplaced() async throws {
    let hostile = ReplySwitch()
    let (rates, _) = try Self.absurdCharts(hostile)
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let fresh = await rates.run(["history", "BTC", "EUR", "--json"])
    expectEqual(fresh.status, 0, "\(fresh.stderr)")
    let files = Self.stored(rates, "bitcoin-eur")
    expect(!files.isEmpty)
    let root = rates.home.appendingPathComponent("cache")
    let before = try files.map { try Data(contentsOf: root.appendingPathComponent($0)) }

    hostile.fail(with: .dropConnection)
    let stale = await rates.run(["history", "BTC", "EUR", "--refresh", "--json"])
    expectEqual(stale.status, 0, "\(stale.stderr)")
    expectEqual(try stale.json()["stale"] as? Bool, true)
    expect(stale.stderr.contains("CoinGecko") && stale.stderr.contains("cached data"))
    expect(!stale.stdout.contains("e+308") && !stale.stdout.contains("inf"))
    let after = try files.map { try Data(contentsOf: root.appendingPathComponent($0)) }
    expectEqual(after, before, "the store is unchanged")
    let text = await rates.run(["history", "BTC", "EUR", "--refresh"])
    expectEqual(text.status, 0)
    expectContains(text.stdout, "stale")
  }

  @Test func aChartStampedInSecondsIsRefusedAndNothingStored() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(environment: Self.pinned) { fake in
      { request in
        let reply = fake(request)
        guard Self.isChart(request) else { return reply }
        return Self.chart(reply) { $0.map { [$0[0] / 1000, $0[1]] } }
      }
    }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(["history", "BTC", "EUR"])
    expectEqual(result.status, 69, "\(result.stderr)")
    expect(result.stderr.contains("CoinGecko") && result.stderr.contains("in seconds"))
    expect(Self.stored(rates, "bitcoin-eur").isEmpty)
  }

  @Test func duplicateAndUnsortedHourlyPointsGiveWhatACleanAnswerGives() async throws {
    let arguments = ["history", "BTC", "EUR", "--interval", "hourly", "--days", "3", "--json"]
    let (clean, _) = try CLIHarness.withFakeAPI()
    defer { try? FileManager.default.removeItem(at: clean.home) }
    let expected = await clean.run(arguments)
    expectEqual(expected.status, 0, "\(expected.stderr)")
    let (doubled, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        let reply = fake(request)
        guard Self.isChart(request) else { return reply }
        // Every instant twice, the copies first and reversed: 132 points for 66 instants.
        return Self.chart(reply) { Array($0.reversed()) + $0 }
      }
    }
    defer { try? FileManager.default.removeItem(at: doubled.home) }
    let result = await doubled.run(arguments)
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(result.stdout, expected.stdout)
    let csv = await doubled.run(
      ["history", "BTC", "EUR", "--interval", "hourly", "--days", "3", "--format", "csv"])
    let cleanCSV = await clean.run(
      ["history", "BTC", "EUR", "--interval", "hourly", "--days", "3", "--format", "csv"])
    expectEqual(csv.stdout, cleanCSV.stdout)
  }

  /// The fake APIs with every Frankfurter range answer's days changed by `change`.
  static func ecbDays(
    firstOnly: Bool = false, _ change: @escaping @Sendable ([String: Any]) -> [String: Any]
  ) throws -> CLIHarness {
    try CLIHarness.withFakeAPI { fake in
      { request in
        let reply = fake(request)
        guard request.path.contains(".."), !firstOnly || request.index == 0 else { return reply }
        return Self.rewriting(reply) { object in
          var copy = object
          copy["rates"] = change(object["rates"] as? [String: Any] ?? [:])
          return copy
        }
      }
    }.0
  }

  @Test func anECBDayOutsideTheAskedRangeIsDroppedAndTheRestKept() async throws {
    let rates = try Self.ecbDays(firstOnly: true) { days in days.merging(["2020-01-02": ["USD": 1.12]]) { $1 } }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(["history", "EUR", "USD", "--days", "7", "--provider", "frankfurter", "--json"])
    let points = try require(try result.json()["points"] as? [[String: Any]], "\(result.stderr)")
    expectEqual(points.count, 7)
    expect(!points.contains { $0["date"] as? String == "2020-01-02" })
    // Never stored: a range reaching 2020 asks for it, and gets the fake's own rate.
    let old = await rates.run(
      ["history", "EUR", "USD", "--from", "2020-01-02", "--to", "2020-01-02", "--provider", "frankfurter", "--json"])
    let day = try require(try old.json()["points"] as? [[String: Any]], "\(old.stderr)")
    expect(day.first?["rate"] as? Double != 1.12, "\(day)")
  }

  @Test func anECBAnswerWithNothingAskedInItIsRefusedNamingFrankfurter() async throws {
    let rates = try Self.ecbDays { _ in ["2020-01-02": ["USD": 1.12]] }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(["history", "EUR", "USD", "--days", "7", "--provider", "frankfurter"])
    expectEqual(result.status, 69, "\(result.stderr)")
    expect(result.stderr.contains("Frankfurter") && result.stderr.contains("2020-01-02"))
    expect(Self.stored(rates, "history").allSatisfy { !$0.lowercased().contains("usd") })
    // Not pinned, the refused answer passes the question to the ECB itself.
    let fallback = await rates.run(["history", "EUR", "USD", "--days", "7", "--json"])
    expectEqual(fallback.status, 0, "\(fallback.stderr)")
    expectEqual(try fallback.json()["source"] as? String, "ecb")
  }

  @Test func currentAndWatchRefuseAnAbsurdPrice() async throws {
    let environment = Self.pinned.merging(["RATES_WATCH_FLOOR": "1"]) { $1 }
    let (rates, _) = try CLIHarness.withFakeAPI(environment: environment) { fake in
      { request in
        guard request.path.hasSuffix("/simple/price") else { return fake(request) }
        return .json(#"{"bitcoin":{"eur":1e308,"eur_24h_change":1.0,"last_updated_at":1718000000}}"#)
      }
    }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let current = await rates.run(["current", "BTC", "--in", "EUR", "--json"])
    expectEqual(current.status, 69, "\(current.stderr)")
    expectContains(current.stderr, "CoinGecko")
    let watch = await rates.run(["watch", "BTC", "--in", "EUR", "--every", "1", "--count", "1", "--json"])
    expect(!watch.stdout.contains("e+308") && !watch.stdout.contains("1e308"), "\(watch.stdout)")
    expectContains(watch.stderr, "CoinGecko")
  }
}

/// Two small defects of issue 22: `old` on market rows, and 10005 without a key.
@Suite struct MarketRowOldAndPaidPlanTests {
  @Test func marketRowsUpdatedTwoHoursAgoAreOld() async throws {
    let twoHoursAgo = ISO8601.format(fixedNow.addingTimeInterval(-7200))
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        let reply = fake(request)
        guard request.path.hasSuffix("/coins/markets"),
          case .response(let status, let headers, let body) = reply,
          let rows = try? JSONSerialization.jsonObject(with: body) as? [[String: Any]],
          let data = try? JSONSerialization.data(
            withJSONObject: rows.map { $0.merging(["last_updated": twoHoursAgo]) { $1 } })
        else { return reply }
        return .response(status: status, headers: headers, body: data)
      }
    }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let top = try await rates.run(["top", "--limit", "3", "--json"]).json()
    let coins = try require(top["coins"] as? [[String: Any]])
    let quotes = coins.compactMap { ($0["quotes"] as? [[String: Any]])?.first }
    expectEqual(quotes.count, 3)
    expect(quotes.allSatisfy { $0["old"] as? Bool == true })
    let info = try await rates.run(["info", "BTC", "--json"]).json()
    expectEqual((info["quote"] as? [String: Any])?["old"] as? Bool, true)
  }

  @Test func freshMarketRowsAreNotOld() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let top = try await rates.run(["top", "--limit", "3", "--json"]).json()
    let coins = try require(top["coins"] as? [[String: Any]])
    let quotes = coins.compactMap { ($0["quotes"] as? [[String: Any]])?.first }
    expect(!quotes.isEmpty && quotes.allSatisfy { $0["old"] as? Bool == false })
  }

  @Test func aPaidPlanEndpointWithoutAKeySaysSoNotThatTheKeyWasRejected() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        request.path.hasSuffix("/coins/markets")
          ? .fixture("coingecko/synthetic_error_10005_not_in_plan.json", status: 403)
          : fake(request)
      }
    }
    defer { try? FileManager.default.removeItem(at: rates.home) }
    let result = await rates.run(["top"])
    expectEqual(result.status, 78, "\(result.stderr)")
    expectContains(result.stderr, "only on its paid plans")
    expect(!result.stderr.contains("rejected the API key"))
    let keyed = await rates.run(["top"], environment: ["COINGECKO_API_KEY": "CG-demo0000000000"])
    expectContains(keyed.stderr, "does not serve /coins/markets on your key's plan (Demo")
  }
}
