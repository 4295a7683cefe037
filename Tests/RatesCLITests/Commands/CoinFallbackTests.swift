import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The coin chain (CoinGecko → Coinbase → Kraken) through the commands, against the fake
/// APIs in process: which source answers and is named, how many requests each gets, 429
/// pauses across runs, pinned providers, `config set providers`, and coin history past the
/// free plan from Coinbase candles.
@Suite struct CoinFallbackTests {
  /// A harness whose CoinGecko answers `gecko`'s failure once it is set (the others stay up,
  /// unless `exchanges` fails too).
  static func harness(
    _ gecko: ReplySwitch, exchanges: ReplySwitch = ReplySwitch(),
    environment: [String: String] = [:]
  ) throws -> (CLIHarness, InProcessServer) {
    try CLIHarness.withFakeAPI(environment: environment) { fake in
      { request in
        if request.path.hasPrefix("/api/v3/") { return gecko.wrapping(fake)(request) }
        if request.path.hasPrefix("/coinbase/") || request.path.hasPrefix("/kraken/") {
          return exchanges.wrapping(fake)(request)
        }
        return fake(request)
      }
    }
  }

  /// How many requests went to the fake under `prefix` (`/api/v3/`, `/coinbase/`, `/kraken/`).
  static func count(_ server: InProcessServer, _ prefix: String) -> Int {
    server.requests.filter { $0.path.hasPrefix(prefix) }.count
  }

  static func failing(_ reply: LoopbackReply) -> ReplySwitch {
    let toggle = ReplySwitch()
    toggle.fail(with: reply)
    return toggle
  }

  static let limited = LoopbackReply.fixture(
    "coingecko/error_429.json", status: 429, headers: ["Retry-After": "120"])

  // MARK: - Falling through

  @Test func aRateLimitedCoinGeckoIsAnsweredByCoinbaseAndItsPauseHonouredByTheNextRun()
    async throws
  {
    let (rates, server) = try Self.harness(Self.failing(Self.limited))
    let first = await rates.run(["current", "BTC", "--in", "USD", "--json"])
    expectEqual(first.status, 0, "\(first.stderr)")
    let quote = try require((try first.json()["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["source"] as? String, "coinbase")
    expectEqual(quote["rate"] as? Double, FakeCoinbase.price(base: "BTC", quote: "USD", at: rates.clock.now))
    expect(Self.count(server, "/api/v3/") == 1 && Self.count(server, "/coinbase/") == 1)

    let second = await rates.run(["current", "BTC", "--in", "USD", "--json", "--refresh"])
    expectEqual(second.status, 0, "\(second.stderr)")
    expectEqual(Self.count(server, "/api/v3/"), 1, "the pause is remembered: CoinGecko not asked")
    expectEqual(Self.count(server, "/coinbase/"), 2)
  }

  @Test(arguments: [
    LoopbackReply.text("upstream down", status: 503),
    LoopbackReply.fixture("coingecko/error_cloudflare.html", status: 200),
    LoopbackReply.delayed(seconds: 600, .json("{}")),
  ])
  func aDownCoinGeckoIsAnsweredByCoinbaseWithinTheTimeout(_ failure: LoopbackReply) async throws {
    let (rates, server) = try Self.harness(Self.failing(failure))
    let start = rates.clock.now
    let result = await rates.run(["history", "BTC", "USD", "--days", "7", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let document = try result.json()
    expectEqual(document["source"] as? String, "coinbase")
    expectEqual((document["points"] as? [[String: Any]])?.count, 7)
    expect(Self.count(server, "/coinbase/") >= 1)
    expect(rates.clock.now.timeIntervalSince(start) <= 60, "within the command's deadline")
  }

  /// A listed coin an exchange lacks (the fake Coinbase has no SOL product: 404) leaves that
  /// pair out alone: BTC still comes from Coinbase, SOL is named missing (before: exit 69).
  @Test func aCoinTheExchangeLacksIsMissingAloneAndTheOthersArrive() async throws {
    let (rates, _) = try Self.harness(Self.failing(.text("upstream down", status: 503)))
    let result = await rates.run(["current", "BTC", "SOL", "--in", "USD", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let document = try result.json()
    let quotes = try require(document["quotes"] as? [[String: Any]])
    expectEqual(quotes.compactMap { $0["base"] as? String }, ["BTC"])
    expectEqual(quotes.first?["source"] as? String, "coinbase")
    expectEqual(document["missing"] as? [String], ["SOL/USD"])
    expectEqual(result.stderr.split(separator: "\n").count, 1, "\(result.stderr)")
  }

  @Test func watchAnswersFromCoinbaseWhileCoinGeckoIsRateLimited() async throws {
    let (rates, server) = try Self.harness(
      Self.failing(Self.limited), environment: ["RATES_WATCH_FLOOR": "1"])
    let result = await rates.run(["watch", "BTC", "--in", "USD", "--every", "1", "--count", "2", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let lines = try result.jsonLines()
    expectEqual(lines.count, 2)
    expect(
      lines.allSatisfy { $0["source"] as? String == "coinbase" && $0["stale"] as? Bool == false },
      "\(result.stdout)")
    let prices = server.requests.filter { $0.path.hasSuffix("/simple/price") }
    expectEqual(prices.count, 1, "paused after its 429")
  }

  @Test func convertAnswersFromCoinbaseWhenCoinGeckoIsDown() async throws {
    let (rates, server) = try Self.harness(Self.failing(.text("upstream down", status: 503)))
    let result = await rates.run(["convert", "2", "BTC", "USD", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let conversion = try require((try result.json()["conversions"] as? [[String: Any]])?.first)
    expectEqual(conversion["source"] as? String, "coinbase")
    let price = FakeCoinbase.price(base: "BTC", quote: "USD", at: rates.clock.now)
    expectEqual(conversion["amount"] as? Double, 2 * price)
    expectEqual(Self.count(server, "/api/v3/"), 1, "asked once: a source with another behind it")
  }

  @Test func krakenAnswersWhenCoinbaseIsDownToo() async throws {
    let down = LoopbackReply.text("upstream down", status: 503)
    let coinbase = ReplySwitch()
    let (rates, server) = try CLIHarness.withFakeAPI { fake in
      { request in
        if request.path.hasPrefix("/api/v3/") { return down }
        if request.path.hasPrefix("/coinbase/") { return coinbase.wrapping(fake)(request) }
        return fake(request)
      }
    }
    coinbase.fail(with: .text("bad gateway", status: 502))
    let result = await rates.run(["current", "BTC", "--in", "EUR", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let quote = try require((try result.json()["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["source"] as? String, "kraken")
    expectEqual(Self.count(server, "/kraken/"), 1)
  }

  @Test func theTableNamesTheAnsweringSource() async throws {
    let (rates, _) = try Self.harness(Self.failing(.text("upstream down", status: 503)))
    let result = await rates.run(["current", "BTC", "--in", "USD"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectContains(result.stdout, "Coinbase")
  }

  @Test func withEverySourceDownTheCacheIsShownStale() async throws {
    let gecko = ReplySwitch()
    let exchanges = ReplySwitch()
    let (rates, _) = try Self.harness(gecko, exchanges: exchanges)
    expectEqual(await rates.run(["current", "BTC", "--in", "USD"]).status, 0)
    gecko.fail(with: .text("upstream down", status: 503))
    exchanges.fail(with: .text("upstream down", status: 503))
    let result = await rates.run(["current", "BTC", "--in", "USD", "--json", "--refresh"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let quote = try require((try result.json()["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["stale"] as? Bool, true)
    expectEqual(quote["source"] as? String, "coingecko")
  }

  @Test func aCoinTheExchangesDoNotListIsNeverAskedThere() async throws {
    let (rates, server) = try Self.harness(Self.failing(.text("upstream down", status: 503)))
    let result = await rates.run(["current", "DOGE", "--in", "JPY"])
    expect(result.status != 0)
    expect(Self.count(server, "/coinbase/") == 0 && Self.count(server, "/kraken/") == 0)
  }

  @Test func pairsShowACoinPairFromCoinbaseWhenCoinGeckoIsDown() async throws {
    let gecko = ReplySwitch()
    let (rates, _) = try Self.harness(gecko)
    expectEqual(await rates.run(["pairs", "add", "BTC", "USD"]).status, 0)
    expectEqual(await rates.run(["pairs", "add", "EUR", "USD"]).status, 0)
    gecko.fail(with: .text("upstream down", status: 503))
    let result = await rates.run(["pairs", "--json", "--refresh"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let rows = try require(try result.json()["pairs"] as? [[String: Any]])
    let btc = try require(rows.first { $0["base"] as? String == "BTC" })
    expectEqual(btc["source"] as? String, "coinbase", "\(btc)")
    expectEqual(btc["stale"] as? Bool, false)
    expectEqual(btc["rate"] as? Double, FakeCoinbase.price(base: "BTC", quote: "USD", at: rates.clock.now))
    expectEqual(rows.first { $0["base"] as? String == "EUR" }?["source"] as? String, "frankfurter")
  }

  @Test func doctorShowsEachSourcesPauseAndLastAnswer() async throws {
    let gecko = Self.failing(Self.limited)
    let (rates, _) = try Self.harness(gecko)
    expectEqual(await rates.run(["current", "BTC", "--in", "USD"]).status, 0)
    gecko.fail(with: nil)
    let result = await rates.run(["doctor", "--json"])
    let checks = try require(try result.json()["checks"] as? [[String: Any]])
    let byName = Dictionary(
      uniqueKeysWithValues: checks.compactMap { check in
        (check["name"] as? String).map { ($0, check) }
      })
    let paused = try require(byName["coingecko"])
    let end = ISO8601.format(rates.clock.now.addingTimeInterval(120))
    expectEqual(paused["pausedUntil"] as? String, end)
    expectEqual(paused["status"] as? String, "warn")
    expect((paused["detail"] as? String ?? "").contains("rate limited, skipped until \(end)"))
    let coinbase = try require(byName["coinbase"])
    expectEqual(coinbase["lastSuccess"] as? String, ISO8601.format(rates.clock.now))
    expectEqual(coinbase["status"] as? String, "ok")
    expect(byName["kraken"]?["lastSuccess"] == nil, "never asked")
    let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    let problems = try JSONShapes.documented().check(document, against: .shape("doctor"), at: "doctor")
    expect(problems.isEmpty, "\(problems)")
  }

  // MARK: - Pinning and ordering

  @Test(arguments: [["--provider", "coinbase"], ["RATES_PROVIDER=coinbase"]])
  func aPinnedExchangeNeverAsksCoinGecko(_ how: [String]) async throws {
    let (rates, server) = try Self.harness(ReplySwitch())
    let flag = how.first?.hasPrefix("--") == true ? how : []
    let environment = flag.isEmpty ? ["RATES_PROVIDER": "coinbase"] : [:]
    let result = await rates.run(
      ["current", "BTC", "--in", "USD", "--json"] + flag, environment: environment)
    expectEqual(result.status, 0, "\(result.stderr)")
    let quote = try require((try result.json()["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["source"] as? String, "coinbase")
    expect(Self.count(server, "/api/v3/") == 0 && Self.count(server, "/coinbase/") == 1)
  }

  /// The chain's cached answer is Coinbase's: pinned to CoinGecko within the minute, the
  /// pin asks CoinGecko (before: Coinbase's cached figure, labelled coinbase, exit 0).
  @Test func aPinnedCoinGeckoNeverShowsAFallbacksCachedPrice() async throws {
    let gecko = Self.failing(.text("upstream down", status: 503))
    let (rates, server) = try Self.harness(gecko)
    let chained = await rates.run(["current", "BTC", "--in", "USD", "--json"])
    expectEqual(
      try chained.json()["quotes"].flatMap { ($0 as? [[String: Any]])?.first?["source"] as? String }, "coinbase")
    let asked = Self.count(server, "/api/v3/")
    gecko.fail(with: nil)
    let pinned = await rates.run(["current", "BTC", "--in", "USD", "--json", "--provider", "coingecko"])
    expectEqual(pinned.status, 0, "\(pinned.stderr)")
    let quote = try require((try pinned.json()["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["source"] as? String, "coingecko")
    expectEqual(Self.count(server, "/api/v3/"), asked + 1)
  }

  @Test func aPinnedCoinGeckoNeverFallsBack() async throws {
    let (rates, server) = try Self.harness(Self.failing(Self.limited))
    let result = await rates.run(["current", "BTC", "--in", "USD", "--provider", "coingecko"])
    expectEqual(result.status, 75, "\(result.stderr)")
    expect(Self.count(server, "/coinbase/") == 0 && Self.count(server, "/kraken/") == 0)
  }

  @Test func aPinnedKrakenAnswersHistoryFromItsCandles() async throws {
    let (rates, server) = try Self.harness(ReplySwitch())
    let result = await rates.run(["history", "BTC", "USD", "--days", "5", "--json", "--provider", "kraken"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(try result.json()["source"] as? String, "kraken")
    expect(Self.count(server, "/api/v3/") == 0 && Self.count(server, "/kraken/") >= 1)
  }

  @Test func configuredProvidersReorderAndLimitTheCoinChain() async throws {
    let (rates, server) = try Self.harness(Self.failing(.text("upstream down", status: 503)))
    let set = await rates.run(["config", "set", "providers", "coingecko, KRAKEN"])
    expectEqual(set.status, 0, "\(set.stderr)")
    let shown = try await rates.run(["config", "--json"]).json()
    let settings = try require(shown["settings"] as? [[String: Any]])
    expect(settings.contains { $0["key"] as? String == "providers" && $0["value"] as? String == "coingecko,kraken" })

    let result = await rates.run(["current", "BTC", "--in", "USD", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let quote = try require((try result.json()["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["source"] as? String, "kraken")
    expectEqual(Self.count(server, "/coinbase/"), 0)
  }

  @Test(arguments: ["frankfurter", "coinbase,binance", "kraken,kraken", ""])
  func providersTakesOnlyCoinSourcesEachOnce(_ value: String) async throws {
    let rates = try CLIHarness()
    let result = await rates.run(["config", "set", "providers", value])
    expectEqual(result.status, 64)
    let first = result.stderr.split(separator: "\n").first ?? ""
    expect(first.hasPrefix("error: ") && first.contains("providers"), "\(result.stderr)")
  }

  // MARK: - History past the free plan

  @Test func bitcoinIn2016ComesFromCoinbaseCandlesAndIsStored() async throws {
    let (rates, server) = try Self.harness(ReplySwitch())
    let range = ["history", "BTC", "USD", "--from", "2016-01-01", "--to", "2016-12-31"]
    let result = await rates.run(range + ["--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let document = try result.json()
    expectEqual(document["source"] as? String, "coinbase")
    let points = try require(document["points"] as? [[String: Any]])
    expectEqual(points.count, 366)
    let candles = points.allSatisfy { point in
      guard let day = (point["date"] as? String).flatMap(Day.init), let rate = point["rate"] as? Double
      else { return false }
      return rate == FakeCoinbase.price(base: "BTC", quote: "USD", at: day.end)
    }
    expect(candles, "each close is that UTC day's candle close")
    expectEqual(Self.count(server, "/api/v3/"), 0, "CoinGecko's free plan is skipped up front")
    let candleRequests = server.requests.filter { $0.path.hasSuffix("/candles") }
    expectEqual(candleRequests.count, 2)

    let again = await rates.run(range + ["--json"])
    expectEqual(again.status, 0)
    expectEqual(server.requestCount, 2, "a second run makes no request")
    expectEqual(try again.json()["source"] as? String, "coinbase")
    let cache = RatesPaths(environment: rates.environment).cache
    let (store, problem) = DayStore(directory: cache).load(key: "coingecko/bitcoin-USD")
    expectEqual(problem, nil)
    expectEqual(store.origin(try require(Day("2016-06-01")))?.provider, "coinbase")

    let stats = await rates.run(["stats", "BTC", "USD", "--from", "2016-01-01", "--to", "2016-12-31", "--json"])
    expectEqual(stats.status, 0, "\(stats.stderr)")
    let csv = await rates.run(range + ["--format", "csv"])
    expectEqual(csv.status, 0, "\(csv.stderr)")
    let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    expectEqual(rows.count, 367)
    expect(rows.dropFirst().allSatisfy { $0.hasSuffix(",coinbase") }, "\(rows.prefix(3))")
    expectEqual(server.requestCount, 2)
  }

  @Test func aProKeyStillAsksCoinGeckoForAnOldRange() async throws {
    let (rates, server) = try Self.harness(
      ReplySwitch(), environment: ["COINGECKO_PRO_API_KEY": "CG-pro-test-key-1234"])
    _ = await rates.run(["history", "BTC", "USD", "--from", "2016-01-01", "--to", "2016-01-31", "--json"])
    expect(Self.count(server, "/api/v3/") >= 1)
  }
}
