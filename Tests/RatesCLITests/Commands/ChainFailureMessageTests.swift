import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// When every coin source fails, the message names each source asked and what it said (not
/// only the first), and the exit code is the decisive failure's (the first of a source that
/// was really asked), against the fake APIs in process.
@Suite struct ChainFailureMessageTests {
  static let down = LoopbackReply.text("upstream down", status: 503)

  /// A coin no exchange lists with CoinGecko down: before, "CoinGecko is having trouble"
  /// alone, as if the exchanges had not been considered.
  @Test func aCoinNoExchangeListsWithCoinGeckoDownNamesEverySource() async throws {
    let (rates, _) = try CoinFallbackTests.harness(CoinFallbackTests.failing(Self.down))
    let result = await rates.run(["current", "PEPE", "--in", "USD"])
    expectEqual(result.status, 69)
    expectEqual(
      result.stderr,
      "error: no price for PEPE/USD: CoinGecko unavailable (HTTP 503), Coinbase"
        + " Exchange and Kraken do not list it; CoinGecko is having trouble (HTTP 503): try again"
        + " in a few minutes\n")
    let json = await rates.run(["history", "PEPE", "USD", "--days", "7", "--json"])
    expectEqual(json.status, 69)
    let error = try require(try json.errorJSON()["error"] as? [String: Any])
    expectEqual(error["code"] as? String, "server_error")
    expectEqual((error["message"] as? String)?.hasPrefix("no daily closes for PEPE/USD: CoinGecko"), true)
  }

  /// Every source asked and failing differently: each is named, the first decides (75).
  @Test func aRateLimitThenOutagesNamesEachAndTheFirstDecides() async throws {
    let (rates, _) = try CoinFallbackTests.harness(
      CoinFallbackTests.failing(CoinFallbackTests.limited),
      exchanges: CoinFallbackTests.failing(Self.down))
    let result = await rates.run(["current", "BTC", "--in", "USD", "--json"])
    expectEqual(result.status, 75)
    let error = try require(try result.errorJSON()["error"] as? [String: Any])
    expectEqual(error["code"] as? String, "rate_limited")
    expectEqual(
      error["message"] as? String,
      "no price for BTC/USD: CoinGecko rate limited (for 120 s), Coinbase Exchange and"
        + " Kraken unavailable (HTTP 503); CoinGecko rate limit reached: retry in 120 s (a free"
        + " Demo key raises it: 'rates config set api-key')")
  }

  /// In a partial answer the missing pair's line names the sources once, without repeating
  /// "no price for".
  @Test func aPartialAnswerNamesEverySourceOfTheMissingPair() async throws {
    let (rates, _) = try CoinFallbackTests.harness(CoinFallbackTests.failing(Self.down))
    let result = await rates.run(["current", "BTC", "PEPE", "--in", "USD"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(
      result.stderr,
      "warning: no price for PEPE/USD: CoinGecko unavailable (HTTP 503),"
        + " Coinbase Exchange and Kraken do not list it; CoinGecko is having trouble (HTTP 503):"
        + " try again in a few minutes; showing the prices that arrived\n")
  }

  /// A Kraken-only list never blames CoinGecko, nor tells to drop a --provider not given.
  @Test func aKrakenOnlyListNamesKrakenAndTheSetting() async throws {
    let (rates, server) = try CoinFallbackTests.harness(ReplySwitch())
    expectEqual(await rates.run(["config", "set", "providers", "kraken"]).status, 0)
    let result = await rates.run(["current", "PEPE", "--in", "USD"])
    expectEqual(result.status, 64)
    expect(result.stderr.hasPrefix("error: Kraken does not list PEPE"), "\(result.stderr)")
    expectContains(result.stderr, "put coingecko in 'rates config set providers'")
    expect(!result.stderr.contains("CoinGecko has"))
    expectEqual(CoinFallbackTests.count(server, "/api/v3/"), 0)
  }

  @Test func theDecisiveFailureIsTheFirstOfASourceThatWasAsked() {
    let unlisted = ProviderError.notCovered(provider: .provider(.coinbase), what: "PEPE")
    let down = ProviderError.serverError(provider: .provider(.kraken), status: 502)
    let both = ProviderError.noSourceAnswered(pairs: "PEPE/USD", closes: false, failures: [unlisted, down])
    expectEqual(both.decisive, down)
    expect(both.isUnavailable && both.allowsStaleFallback)
    expectEqual(ErrorReport(both).exitCode, .unavailable)
    let skipsOnly = ProviderError.noSourceAnswered(
      pairs: "PEPE/USD", closes: false,
      failures: [.historyTooOld(provider: .provider(.coinGecko)), unlisted])
    expectEqual(skipsOnly.decisive, .historyTooOld(provider: .provider(.coinGecko)))
    expectEqual(ErrorReport(skipsOnly).exitCode, .usage)
  }
}

/// `watch` with every coin source down and nothing cached says so, not "last values kept".
@Suite struct WatchNothingKeptTests {
  @Test func everySourceDownWithAnEmptyCacheNamesThePairsWithoutAValue() async throws {
    let down = LoopbackReply.text("upstream down", status: 503)
    let (rates, _) = try CoinFallbackTests.harness(
      CoinFallbackTests.failing(down), exchanges: CoinFallbackTests.failing(down),
      environment: ["RATES_WATCH_FLOOR": "1"])
    let result = await rates.run(
      ["watch", "BTC", "ETH", "--in", "EUR", "--every", "1", "--count", "1", "--json"])
    expectContains(result.stderr, "(no value yet for BTC/EUR, ETH/EUR)")
    expect(!result.stderr.contains("last values kept"), "\(result.stderr)")
  }
}
