import Foundation
import RateCore
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

/// Issue 24, "partial answers never blank the rest": one pair no source serves (GBP/KRW
/// against a Frankfurter mirror without KRW), or one provider or currency that fails, leaves
/// every other figure on screen; what is missing is named in one `warning:` line and in
/// `--json` as `missing`, exit 0; when nothing arrives, the failure's own exit code.
@Suite struct PartialBoardTests {
  /// The fake APIs, with a Frankfurter that answers 404 `not found` (its real body) to any
  /// request naming KRW, and `reply` deciding first.
  static func harness(
    reply: @escaping @Sendable (RecordedRequest) -> LoopbackReply? = { _ in nil }
  ) throws -> (CLIHarness, InProcessServer) {
    try CLIHarness.withFakeAPI(environment: ["RATES_WATCH_FLOOR": "1"]) { fake in
      { request in
        if let answer = reply(request) { return answer }
        if request.path.hasPrefix("/frankfurter/"), request.target.contains("KRW") {
          return .json(#"{"message":"not found"}"#, status: 404)
        }
        return fake(request)
      }
    }
  }

  static func isFrankfurter(_ request: RecordedRequest) -> Bool {
    request.path.hasPrefix("/frankfurter/")
  }

  /// Adds `pairs` in order; GBP/KRW, which `pairs add` now refuses against this harness (no
  /// source serves it), is written to `pairs.json` directly, as a list made earlier holds it.
  static func add(_ pairs: [[String]], to rates: CLIHarness) async {
    for pair in pairs {
      guard pair != ["GBP", "KRW"] else {
        // The list's top is its end: appended, as `pairs add` does.
        let data = UserData(directory: rates.home.appendingPathComponent("data/rates"))
        #expect(throws: Never.self) {
          try data.addPairAtTop(ConfiguredPair(base: "GBP", quote: "KRW", addedAt: fixedNow))
        }
        continue
      }
      let added = await rates.run(["pairs", "add"] + pair)
      expectEqual(added.status, 0, "\(added.stderr)")
    }
  }

  /// Before: exit 66, no pair shown.
  @Test func pairsWithOneUnservablePairListTheOthersAndNameIt() async throws {
    let (rates, server) = try Self.harness()
    await Self.add([["GBP", "USD"], ["GBP", "KRW"], ["EUR", "JPY"], ["BTC", "USD"]], to: rates)
    // `pairs add` checks each ECB pair with one request; counted from here.
    let added = server.requests.filter(Self.isFrankfurter).count
    let text = await rates.run(["pairs"])
    // The refused set, then each ECB pair alone; the next run asks only what is not cached.
    expectEqual(server.requests.filter(Self.isFrankfurter).count, added + 4)
    expectEqual(text.status, 0, "\(text.stderr)")
    for shown in ["GBP/USD", "EUR/JPY", "BTC/USD"] { expectContains(text.stdout, shown) }
    expect(!text.stdout.contains("GBP/KRW"))
    let lines = text.stderr.split(separator: "\n")
    expectEqual(lines.count, 1, "\(text.stderr)")
    expect(text.stderr.hasPrefix("warning: no price for GBP/KRW: "), "\(text.stderr)")
    expect(text.stderr.hasSuffix("; showing the prices that arrived\n"))

    let json = await rates.run(["pairs", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    expectEqual(server.requests.filter(Self.isFrankfurter).count, added + 6)
    let document = try json.json()
    expectEqual(document["missing"] as? [String], ["GBP/KRW"])
    let listed = (document["pairs"] as? [[String: Any]])?.compactMap { $0["quote"] as? String }
    expectEqual(listed, ["USD", "JPY", "USD"])
  }

  @Test func pairsWithNothingArrivingKeepTheFailuresExitCode() async throws {
    let (rates, _) = try Self.harness()
    await Self.add([["GBP", "KRW"]], to: rates)
    let result = await rates.run(["pairs"])
    expectEqual(result.status, 66, "\(result.stderr)")
    expect(result.stdout.isEmpty)
    expect(result.stderr.hasPrefix("error: "))
    let complete = try Self.harness()
    await Self.add([["GBP", "USD"]], to: complete.0)
    let whole = await complete.0.run(["pairs", "--json"])
    expectEqual(try whole.json()["missing"] as? [String], [])
    expect(whole.stderr.isEmpty, "\(whole.stderr)")
  }

  /// Before: the ECB pairs of a down Frankfurter took the coin pairs with them (exit 69).
  @Test func pairsWithADownProviderKeepTheOtherProvidersPairs() async throws {
    let (rates, _) = try Self.harness()
    await Self.add([["GBP", "USD"], ["BTC", "EUR"]], to: rates)
    // The whole currency chain down: Frankfurter and the ECB behind it.
    let (down, _) = try Self.harness {
      Self.isFrankfurter($0) || $0.path.hasPrefix("/ecb/") ? .text("down", status: 503) : nil
    }
    try FileManager.default.copyItem(
      at: rates.home.appendingPathComponent("data"), to: down.home.appendingPathComponent("data"))
    let result = await down.run(["pairs", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(try result.json()["missing"] as? [String], ["GBP/USD"])
    expectEqual(result.stderr.split(separator: "\n").count, 1, "\(result.stderr)")
  }

  /// Before: `current GBP-USD GBP-KRW BTC` failed as a whole (exit 66).
  @Test func currentShowsEveryPairThatArrived() async throws {
    let (rates, server) = try Self.harness()
    let text = await rates.run(["current", "GBP-USD", "GBP-KRW", "BTC-USD"])
    expectEqual(text.status, 0, "\(text.stderr)")
    expectContains(text.stdout, "GBP/USD")
    expectContains(text.stdout, "BTC/USD")
    expect(text.stderr.hasPrefix("warning: no price for GBP/KRW: "), "\(text.stderr)")
    expectEqual(text.stderr.split(separator: "\n").count, 1)
    let json = await rates.run(["current", "GBP-USD", "GBP-KRW", "BTC-USD", "--json"])
    let document = try json.json()
    expectEqual(document["missing"] as? [String], ["GBP/KRW"])
    expectEqual((document["quotes"] as? [[String: Any]])?.count, 2)
    // CoinGecko is asked once a run: only Frankfurter's refused set is asked pair by pair.
    expect(server.requests.filter { $0.path.hasSuffix("/simple/price") }.count <= 2)
  }

  /// Before: two lines, the provider's notice for ETH and the failure (no line for GBP/KRW
  /// even, the whole command failed).
  @Test func currentNamesWhatWasLeftOutAndWhatFailedInOneLine() async throws {
    let (rates, _) = try Self.harness { request in
      request.path.hasSuffix("/simple/price")
        ? .json(#"{"bitcoin":{"usd":60000.5,"last_updated_at":1718000000}}"#) : nil
    }
    let result = await rates.run(["current", "BTC-USD", "ETH-USD", "GBP-KRW", "GBP-USD"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expect(result.stdout.contains("BTC/USD") && result.stdout.contains("GBP/USD"))
    expectEqual(result.stderr.split(separator: "\n").count, 1, "\(result.stderr)")
    expect(result.stderr.hasPrefix("warning: no price for GBP/KRW: "), "\(result.stderr)")
    // The pair CoinGecko's answer left out is asked of the exchanges, and Coinbase has it.
    expectContains(result.stdout, "ETH/USD")
  }

  @Test func currentWithADownProviderShowsTheOther() async throws {
    let (rates, _) = try Self.harness { request in
      // Both currency sources rate-limit: the ECB would answer for Frankfurter.
      Self.isFrankfurter(request) || request.path.hasPrefix("/ecb/")
        ? .json(#"{"message":"slow down"}"#, status: 429) : nil
    }
    let result = await rates.run(["current", "GBP-USD", "BTC-USD", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(try result.json()["missing"] as? [String], ["GBP/USD"])
    let alone = await rates.run(["current", "GBP-USD"])
    expectEqual(alone.status, 75, "\(alone.stderr)")
  }

  /// Before: one currency's failed listing failed `top --in USD,EUR` (exit 69).
  @Test func topWithOneFailingCurrencyShowsTheOthers() async throws {
    let (rates, _) = try Self.harness { request in
      request.path.hasSuffix("/coins/markets") && request.query["vs_currency"] == "eur"
        ? .text("oops", status: 500) : nil
    }
    let json = await rates.run(["top", "--in", "USD,EUR", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    let document = try json.json()
    expectEqual(document["missing"] as? [String], ["the top 5 coins in EUR"])
    expectEqual((document["coins"] as? [[String: Any]])?.count, 5)
    let text = await rates.run(["top", "--in", "USD,EUR"])
    expectEqual(text.status, 0)
    expectContains(text.stdout, "BTC")
    expect(text.stderr.hasPrefix("warning: no price for the top 5 coins in EUR: "), "\(text.stderr)")
  }

  @Test func coinsWithOneFailingCurrencyShowTheOthers() async throws {
    let (rates, _) = try Self.harness { request in
      request.path.hasSuffix("/coins/markets") && request.query["vs_currency"] == "eur"
        ? .text("oops", status: 500) : nil
    }
    let added = await rates.run(["coins", "add", "BTC", "ETH", "--in", "USD"])
    expectEqual(added.status, 0, "\(added.stderr)")
    let json = await rates.run(["coins", "--in", "USD,EUR", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    let document = try json.json()
    expectEqual(document["missing"] as? [String], ["BTC/EUR", "ETH/EUR"])
    let quotes = (document["coins"] as? [[String: Any]])?.map { ($0["quotes"] as? [Any])?.count }
    expectEqual(quotes, [1, 1])
    let favorites = await rates.run(["favorites", "add", "BTC"])
    expectEqual(favorites.status, 0, "\(favorites.stderr)")
    let text = await rates.run(["favorites", "--in", "EUR,USD"])
    expectEqual(text.status, 0, "\(text.stderr)")
    expect(text.stderr.hasPrefix("warning: no price for BTC/EUR: "), "\(text.stderr)")
  }

  /// Before: the ECB feed failed as a whole every update, GBP/USD with it.
  @Test func watchKeepsThePairsThatArriveWhenOneFails() async throws {
    let (rates, _) = try Self.harness()
    let result = await rates.run(
      ["watch", "GBP-USD", "GBP-KRW", "BTC", "--every", "1", "--count", "2", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let objects = try result.jsonLines()
    expectEqual(objects.filter { $0["quote"] as? String == "USD" && $0["base"] as? String == "GBP" }.count, 2)
    expectEqual(objects.filter { $0["base"] as? String == "BTC" }.count, 2)
    expect(!objects.contains { $0["quote"] as? String == "KRW" })
    // Named once: ECB rates are asked at most once an hour, so the second update asks nothing.
    expect(result.stderr.hasPrefix("warning: no price for GBP/KRW: "), "\(result.stderr)")
    expectEqual(result.stderr.split(separator: "\n").count, 1, "\(result.stderr)")
  }
}

/// Issue 23: `watch` picks its stream form from the output layer, and its "nothing to watch"
/// is an ordinary error, so `--json` gets the error document every other command prints.
@Suite struct WatchOutputLayerTests {
  /// Before: a hand-written error document without `"version": 2`.
  @Test func nothingToWatchWithJSONIsTheVersionedErrorDocument() async throws {
    let rates = try CLIHarness()
    let result = await rates.run(["watch", "--json"])
    expectEqual(result.status, 66)
    expect(result.stdout.isEmpty)
    let document = try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any]
    expectEqual(document?["version"] as? Int, 2, "\(result.stderr)")
    let error = document?["error"] as? [String: Any]
    expectEqual(error?["code"] as? String, "no_data")
    expectEqual((error?["message"] as? String)?.hasPrefix("nothing to watch: "), true)
  }
}
