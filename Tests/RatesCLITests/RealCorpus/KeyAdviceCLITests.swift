import RateCore
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

/// Key errors through `rates`, worded for the user's own key setup.
@Suite struct KeyAdviceCLITests {
  typealias Route = RealAPI.Route

  static func api(_ status: Int, _ file: String) -> RealAPI {
    RealAPI([Route(fragment: "/simple/price", status: status, file: file)])
  }

  static let tenThousandTen =
    "real/coingecko/error_10010_pro_key_on_public_host__unidentified-repo-id30895599367.json"
  static let tenThousandEleven =
    "real/coingecko/error_10011_demo_key_on_pro_host__unidentified-repo-id30387320500.json"

  @Test func aKeylessUserToldAKeyIsNeededLearnsHowToGetAndStoreOne() async throws {
    let api = Self.api(401, "coingecko/error_10002_key_missing.json")
    let result = try await api.harness(
      now: "2024-06-10T06:00:00Z",
      environment: ["RATES_COINGECKO_URL": "https://pro-api.coingecko.com/api/v3"]
    ).run(["current", "BTC"])
    expectEqual(result.status, 78)
    expectEqual(
      result.stderr,
      "error: CoinGecko needs an API key for this host: get a free Demo key at"
        + " https://www.coingecko.com/en/api and store it with 'rates config set api-key' (read from"
        + " stdin, never from the command line); without a key, use the public host (unset"
        + " RATES_COINGECKO_URL)\n")
    expect(!result.stderr.contains("COINGECKO_PRO_API_KEY"))
  }

  @Test func aProKeySentToThePublicHostIsToldToUseTheProHost() async throws {
    let api = Self.api(400, Self.tenThousandTen)
    let result = try await api.harness(
      now: "2024-06-10T06:00:00Z",
      environment: [
        "COINGECKO_PRO_API_KEY": "CG-pro000000000000",
        "RATES_COINGECKO_URL": "https://api.coingecko.com/api/v3",
      ]
    ).run(["current", "BTC"])
    expectEqual(result.status, 78)
    expectEqual(
      result.stderr,
      "error: CoinGecko rejected the API key (error 10010): a Pro key works only on"
        + " pro-api.coingecko.com, and this request went to the public host: unset"
        + " RATES_COINGECKO_URL; if it is a free Demo key, set it as COINGECKO_API_KEY instead of"
        + " COINGECKO_PRO_API_KEY\n")
  }

  @Test func aDemoKeySetAsProIsToldToStoreItAsDemo() async throws {
    let api = Self.api(400, Self.tenThousandEleven)
    let result = try await api.harness(
      now: "2024-06-10T06:00:00Z", environment: ["COINGECKO_PRO_API_KEY": "CG-demo00000000000"]
    ).run(["current", "BTC"])
    expectEqual(result.status, 78)
    expectEqual(
      result.stderr,
      "error: CoinGecko rejected the API key (error 10011): CoinGecko takes this key for a Demo"
        + " key, which works on the public host only: set it as COINGECKO_API_KEY instead of"
        + " COINGECKO_PRO_API_KEY\n")
    expect(!result.stderr.contains("[redacted]"))
  }

  @Test func aDemoKeyStoredAsProInTheConfigFileIsToldToChangeThePlan() async throws {
    let api = Self.api(400, Self.tenThousandEleven)
    let rates = try api.harness(now: "2024-06-10T06:00:00Z")
    expectEqual(await rates.run(["config", "set", "api-key"], stdin: "CG-demo00000000000\n").status, 0)
    expectEqual(await rates.run(["config", "set", "api-plan", "pro"]).status, 0)
    let result = await rates.run(["current", "BTC"])
    expectEqual(result.status, 78)
    expect(result.stderr.hasSuffix("run 'rates config set api-plan demo'\n"))
  }

  @Test func aDemoKeyOnAProURLIsToldAboutTheURL() async throws {
    let api = Self.api(400, Self.tenThousandEleven)
    let result = try await api.harness(
      now: "2024-06-10T06:00:00Z",
      environment: [
        "COINGECKO_API_KEY": "CG-demo00000000000",
        "RATES_COINGECKO_URL": "https://pro-api.coingecko.com/api/v3",
      ]
    ).run(["current", "BTC"])
    expectEqual(result.status, 78)
    expectEqual(
      result.stderr,
      "error: CoinGecko rejected the API key (error 10011): a Demo key works only on"
        + " api.coingecko.com, and this request went to the pro host: unset RATES_COINGECKO_URL\n")
  }

  @Test func aStaleFallbackAfterARateLimitSuggestsNoKeyToAUserWithOne() async throws {
    let price = try Fixtures.data("real/coingecko/simple_price_integer_usd__unidentified-repo-id47891616309.json")
    let limit = try Fixtures.data("real/coingecko/error_429_json__cryptgo-issue30.json")
    let sent = Recorder<Int>()
    let transport = HTTPTransport { _ in
      sent.append(sent.count)
      return sent.count == 1
        ? HTTPResponse(status: 200, body: price) : HTTPResponse(status: 429, body: limit)
    }
    let rates = try CLIHarness(
      transport: transport, clock: TestClock(now: try requireDate("2023-12-21T12:00:00Z")),
      environment: ["COINGECKO_API_KEY": "CG-demo00000000000"])
    expectEqual(await rates.run(["current", "BTC"]).status, 0)
    let stale = await rates.run(["current", "BTC", "--refresh"])
    expectEqual(stale.status, 0)
    expectEqual(
      stale.stderr,
      "warning: no price for BTC/USD: CoinGecko, Coinbase Exchange and Kraken rate limited;"
        + " CoinGecko rate limit reached: wait a minute and retry; showing cached data"
        + " from 0 s ago (stale)\n")
  }
}
