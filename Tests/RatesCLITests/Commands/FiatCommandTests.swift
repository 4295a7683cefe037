import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// ECB rates, routing, inverse pairs, `pairs` and `currencies` in process, against the fake
/// APIs at a fixed time.
@Suite struct FiatCommandTests {
  @Test func fiatHistoryCarriesWeekendsInOneRequest() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "GBP", "USD", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(server.requestCount, 1)
    expectEqual(server.requests.first?.path.hasPrefix("/frankfurter/"), true)
    let json = try result.json()
    expectEqual(json["source"] as? String, "frankfurter")
    let points = try require(json["points"] as? [[String: Any]])
    expectEqual(points.count, 28)
    for point in points {
      let day = try require(Day(point["date"] as? String ?? ""))
      // Today's rate is not published before 16:00 UTC: Friday's stands on Monday morning.
      let published = FakeFrankfurter.workingDay(
        onOrBefore: min(day, UpdateRhythm.newestECBDay(at: fixedNow)))
      expectEqual((point["carried"] as? Bool), (published != day), "\(day)")
      // The EUR-based fake, triangulated to GBP→USD.
      let expected =
        FakeFrankfurter.eurRate("USD", day: published)
        / FakeFrankfurter.eurRate("GBP", day: published)
      expect(abs((point["rate"] as? Double ?? 0) - expected) < 1e-3, "\(day)")
    }

    let table = await rates.run(["history", "GBP-USD", "--table"])
    expectEqual(table.status, 0)
    expectContains(table.stdout, "carried")
    expectEqual(server.requestCount, 1, "the ECB series is cached")
  }

  @Test func fiatCoinPairIsTheInverse() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["history", "EUR", "BTC", "--days", "7", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let json = try result.json()
    expectEqual(json["base"] as? String, "EUR")
    expectEqual(json["quote"] as? String, "BTC")
    let last = try require((json["points"] as? [[String: Any]])?.last?["rate"] as? Double)
    expect(abs(last - 1 / FakeCoinGecko.nowValue(id: "bitcoin", currency: "eur")) < 1e-15)
    expectEqual(server.requests.first?.path, "/api/v3/coins/bitcoin/market_chart")
  }

  @Test func currentMixesPairsAndCoinsWithOneRequestPerProvider() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["current", "GBP-USD", "EUR-AUD", "BTC", "--in", "EUR", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(server.requestCount, 2)
    let quotes = try require(try result.json()["quotes"] as? [[String: Any]])
    expectEqual(quotes.map { "\($0["base"]!)-\($0["quote"]!)" }, ["GBP-USD", "EUR-AUD", "BTC-EUR"])
    expectEqual(quotes.map { $0["source"] as? String }, ["frankfurter", "frankfurter", "coingecko"])
    let ecbDay = UpdateRhythm.newestECBDay(at: fixedNow)
    expect(
      abs((quotes[1]["rate"] as? Double ?? 0) - FakeFrankfurter.eurRate("AUD", day: ecbDay)) < 1e-9)
  }

  @Test func unsupportedPairsAreExplained() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let lbp = await rates.run(["history", "USD", "LBP"])
    expectEqual(lbp.status, 64)
    expectContains(lbp.stderr, "no provider has USD/LBP")
    // Issue 15: the hint names a command that works, not a flag history rejects.
    for arguments in [["history", "USD", "LBP"], ["current", "USD-LBP"]] {
      let result = await rates.run(arguments)
      expectEqual(result.status, 64)
      expectContains(result.stderr, "'rates ledger rate USD LBP'")
      expect(!result.stderr.contains("use --ledger"), "\(result.stderr)")
    }
    let forced = await rates.run(["history", "BTC", "EUR", "--provider", "frankfurter"])
    expectEqual(forced.status, 64)
    expectEqual(server.requestCount, 0)
  }

  @Test func pairsAddListRemoveWithRefusals() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let none = await rates.run(["pairs"])
    expectEqual(none.status, 0)
    expectContains(none.stdout, "rates pairs add GBP USD")

    for arguments in [
      ["pairs", "add", "GBP", "USD"], ["pairs", "add", "eur-aud"], ["pairs", "add", "BTC", "EUR"],
      ["pairs", "add", "CHF", "JPY"], ["pairs", "add", "USD", "CAD"], ["pairs", "add", "SEK-NOK"],
    ] {
      let added = await rates.run(arguments)
      expectEqual(added.status, 0, "\(arguments): \(added.stderr)")
    }
    let refusals: [([String], String)] = [
      (["pairs", "add", "GBP", "GBP"], "always 1"),
      (["pairs", "add", "GBP", "XQZ"], "XQZ"),
      (["pairs", "add", "USD", "LBP"], "no provider"),
    ]
    for (arguments, message) in refusals {
      let refused = await rates.run(arguments)
      expectEqual(refused.status, 64, "\(arguments)")
      expectContains(refused.stderr, message, "\(arguments): \(refused.stderr)")
    }
    // What is already so is a note and exit 0 (issue 34).
    let notes: [([String], String)] = [
      (["pairs", "add", "USD", "GBP"], "note: GBP-USD is already one of your pairs\n"),
      (["pairs", "remove", "GBP-JPY"], "note: GBP-JPY is not one of your pairs (pairs: "),
    ]
    for (arguments, note) in notes {
      let already = await rates.run(arguments)
      expectEqual(already.status, 0, "\(arguments)")
      expect(already.stderr.hasPrefix(note), "\(arguments): \(already.stderr)")
      expect(already.stdout.isEmpty)
    }

    let before = server.requestCount
    let list = await rates.run(["pairs", "--json"])
    expectEqual(list.status, 0, "\(list.stderr)")
    expectEqual(server.requestCount - before, 2, "one ECB series for five fiat pairs, one CoinGecko call")
    let pairs = try require(try list.json()["pairs"] as? [[String: Any]])
    expectEqual(
      pairs.map { "\($0["base"]!)-\($0["quote"]!)" },
      ["SEK-NOK", "USD-CAD", "CHF-JPY", "BTC-EUR", "EUR-AUD", "GBP-USD"], "newest first")
    for pair in pairs {
      expect(pair["rate"] is Double)
      expect((pair["sparkline"] as? [Double])?.count ?? 0 >= 7)
    }
    let text = await rates.run(["pairs"])
    expectContains(text.stdout, "GBP/USD")
    expectEqual(server.requestCount - before, 2, "cached")

    let removed = await rates.run(["pairs", "remove", "usd-gbp"])
    expectEqual(removed.status, 0)
    expectContains(removed.stdout, "Removed GBP-USD")
  }

  @Test func currenciesPutGBPEURUSDFirst() async throws {
    let rates = try CLIHarness()
    let result = await rates.run(["currencies", "--json"])
    expectEqual(result.status, 0)
    let codes = try require(try result.json()["currencies"] as? [[String: Any]]).compactMap { $0["symbol"] as? String }
    expectEqual(Array(codes.prefix(3)), ["GBP", "EUR", "USD"])
    expectEqual(Array(codes.dropFirst(3)), codes.dropFirst(3).sorted())
    expectEqual(codes.count, FiatCurrencies.ecb.count - 1)
    expect(!codes.contains("BGN"), "a currency that ended is left out")
    let crypto = await rates.run(["currencies", "--crypto"])
    expectContains(crypto.stdout, "bitcoin")
  }
}
