import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates doctor` reads each source's answer as the commands do (its client's decoding and
/// the gate): an HTML page with status 200 is a failing source, not `ok`; and a 2xx answer
/// the gate refused is never recorded as the source's last success.
@Suite struct DoctorGateTests {
  static let html = LoopbackReply.fixture("coingecko/error_cloudflare.html", status: 200)

  @Test func anHTMLPageWithStatus200FailsTheSourcesCheck() async throws {
    let (rates, _) = try CoinFallbackTests.harness(
      ReplySwitch(), exchanges: CoinFallbackTests.failing(Self.html))
    let result = await rates.run(["doctor", "--json"])
    expectEqual(result.status, 2, "\(result.stderr)")
    let checks = try require(try result.json()["checks"] as? [[String: Any]])
    let coinbase = try require(checks.first { $0["name"] as? String == "coinbase" })
    expectEqual(coinbase["status"] as? String, "fail")
    expectEqual((coinbase["detail"] as? String)?.hasPrefix("answered HTML, not JSON (HTTP 200 in "), true)
    let gecko = try require(checks.first { $0["name"] as? String == "coingecko" })
    expectEqual(gecko["status"] as? String, "ok", "a good answer still passes: \(gecko)")
  }

  @Test func aRefusedAnswerIsNoLastSuccess() async throws {
    let (rates, _) = try CoinFallbackTests.harness(
      CoinFallbackTests.failing(.text("upstream down", status: 503)),
      exchanges: CoinFallbackTests.failing(Self.html))
    let result = await rates.run(["current", "BTC", "--in", "USD"])
    expectEqual(result.status, 69, "\(result.stderr)")
    let pauses = ProviderPauses(cacheFolder: RatesPaths(environment: rates.environment).cache)
    expectEqual(pauses.lastSuccess(Provider.coinbase), nil)
    expectEqual(pauses.lastSuccess(Provider.kraken), nil)
  }

  @Test func anAnswerThatPassedIsTheLastSuccess() async throws {
    let (rates, _) = try CoinFallbackTests.harness(
      CoinFallbackTests.failing(.text("upstream down", status: 503)))
    expectEqual(await rates.run(["current", "BTC", "--in", "USD"]).status, 0)
    let pauses = ProviderPauses(cacheFolder: RatesPaths(environment: rates.environment).cache)
    expectEqual(pauses.lastSuccess(Provider.coinbase), rates.clock.now)
    expectEqual(pauses.lastSuccess(Provider.coinGecko), nil)
  }
}
