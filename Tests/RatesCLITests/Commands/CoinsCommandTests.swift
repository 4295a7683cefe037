import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `search` and `info` in process, against the fake APIs at a fixed time.
@Suite struct CoinsCommandTests {
  @Test func searchPutsExactMatchesFirstFlagsSharedSymbolsAndCaches() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["search", "eth", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let results = try require(try result.json()["results"] as? [[String: Any]])
    expectEqual(results.first?["id"] as? String, "ethereum")
    expectEqual(results.first?["sharedSymbol"] as? Bool, true)
    let wormhole = try require(results.first { $0["id"] as? String == "ethereum-wormhole" })
    expect(wormhole["rank"] is NSNull)
    let text = await rates.run(["search", "eth"])
    expectContains(text.stdout, "ETH*")
    expectEqual(server.requestCount, 1, "cached for 15 minutes")

    let evil = await rates.run(["search", "evil"])
    expectContains(evil.stdout, "EvilCoin")
    expect(!evil.stdout.contains("\u{1B}"))

    let none = await rates.run(["search", "zzzz"])
    expectEqual(none.status, 0)
    expectContains(none.stdout, "No coins match 'zzzz'")
  }

  @Test func infoShowsMarketDataAndHistoryInTwoRequests() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["info", "BTC", "--in", "EUR", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(server.requestCount, 2)
    let json = try result.json()
    let market = try require(json["market"] as? [String: Any])
    let quote = try require(json["quote"] as? [String: Any])
    expectEqual(quote["rate"] as? Double, FakeCoinGecko.nowValue(id: "bitcoin", currency: "eur"))
    expectEqual(quote["changePeriod"] as? String, "24h")
    expectEqual(market["maxSupply"] as? Double, 21_000_000)
    let history = try require(json["history"] as? [String: Any])
    expectEqual((history["points"] as? [Any])?.count, 30)

    let text = await rates.run(["info", "solana", "--in", "EUR", "--days", "7"])
    expectEqual(text.status, 0, "\(text.stderr)")
    expectContains(text.stdout, "Solana (SOL)")
    expectContains(text.stdout, "max supply")
    expectContains(text.stdout, "—", "null max supply shows a dash")
    expectContains(text.stdout, "7 days")

    let unknown = await rates.run(["info", "nosuchcoin"])
    expectEqual(unknown.status, 64)
  }
}

/// A `/coins/markets` answer with nothing for the coins asked names them as
/// the user knows them (`BTC`), never by CoinGecko id, in every command (issue 14).
@Suite struct MarketsMissingCoinsTests {
  /// A harness whose `/coins/markets?ids=…` answers are empty once `empty` holds something.
  static func harness() throws -> (CLIHarness, Recorder<Bool>) {
    let empty = Recorder<Bool>()
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        guard request.path.hasSuffix("/coins/markets"), request.query["ids"] != nil,
          empty.count > 0
        else { return fake(request) }
        return .json("[]")
      }
    }
    return (rates, empty)
  }

  static func expectNamesWhatWasTyped(_ result: CommandResult, _ names: [String]) {
    for name in names { expectContains(result.stderr, name, "\(result.stderr)") }
    expect(!result.stderr.contains("bitcoin"), "\(result.stderr)")
    expect(!result.stderr.contains("unknown coin"), "\(result.stderr)")
  }

  /// Before: "unknown coin 'bitcoin, ethereum' at CoinGecko".
  @Test func favoritesListNamesTheSymbols() async throws {
    let (rates, empty) = try Self.harness()
    expectEqual(await rates.run(["favorites", "add", "BTC", "ETH"]).status, 0)
    empty.append(true)
    Self.expectNamesWhatWasTyped(await rates.run(["favorites", "--refresh"]), ["BTC, ETH"])
  }

  /// Before: "unknown coin 'bitcoin' at CoinGecko".
  @Test func pairsAddNamesTheSymbol() async throws {
    let (rates, empty) = try Self.harness()
    empty.append(true)
    Self.expectNamesWhatWasTyped(await rates.run(["pairs", "add", "BTC", "USD"]), ["BTC"])
  }

  /// Before: `top` failed as a whole (exit 64 "unknown coin 'bitcoin'", then 66 "no
  /// data"): one of your coins outside the top that the ids answer lacks shows with dashes.
  @Test func topShowsACoinTheAnswerLacksAsMissing() async throws {
    let outside = Recorder<Bool>()
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        let reply = fake(request)
        guard request.path.hasSuffix("/coins/markets"), outside.count > 0 else { return reply }
        if request.query["ids"] != nil { return .json("[]") }
        // BTC is not among the top coins of this answer.
        guard case .response(let status, let headers, let body) = reply,
          let rows = try? JSONSerialization.jsonObject(with: body) as? [[String: Any]],
          let trimmed = try? JSONSerialization.data(
            withJSONObject: rows.filter { $0["id"] as? String != "bitcoin" })
        else { return reply }
        return .response(status: status, headers: headers, body: trimmed)
      }
    }
    expectEqual(await rates.run(["coins", "add", "BTC"]).status, 0)
    outside.append(true)
    // In EUR: nothing cached for BTC (coins add asked in USD) to stand in.
    let result = await rates.run(["top", "--limit", "3", "--in", "EUR"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let btc = result.stdout.split(separator: "\n").first { $0.contains("BTC") }
    expectEqual(btc?.contains("—"), true, "\(result.stdout)")
    expect(!result.stderr.contains("bitcoin"), "\(result.stderr)")
  }
}
