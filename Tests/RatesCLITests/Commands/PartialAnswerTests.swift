import RateCore
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

/// Answers that arrive in part (a failed page, coins the provider left out):
/// what arrived is shown, and what did not is named, on stderr and in
/// `--json` as `missing` (review of issue 14, items 2, 3, 4, 12).
@Suite struct PartialAnswerTests {
  /// A harness whose `/coins/markets` is ``FakeManyCoins`` over 2,000 coins,
  /// with `reply` deciding first (`nil`: the fake answers).
  static func harness(
    favorites count: Int = 0, reply: @escaping @Sendable (RecordedRequest) -> LoopbackReply? = { _ in nil }
  ) throws -> (CLIHarness, InProcessServer) {
    let (rates, server) = try CLIHarness.withFakeAPI { fake in
      { request in
        if let answer = reply(request) { return answer }
        return request.path.hasSuffix("/coins/markets")
          ? FakeManyCoins.reply(request.query, count: 2_000) : fake(request)
      }
    }
    if count > 0 {
      let data = rates.home.appendingPathComponent("data/rates")
      try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
      let favorites = (1...count).map { rank in
        #"{"id":"\#(FakeManyCoins.id(rank: rank))","symbol":"C\#(rank)","addedAt":"2026-01-01T00:00:00Z"}"#
      }
      try Data(#"{"version":1,"favorites":[\#(favorites.joined(separator: ","))]}"#.utf8)
        .write(to: data.appendingPathComponent("favorites.json"))
    }
    return (rates, server)
  }

  static func isMarkets(_ request: RecordedRequest) -> Bool { request.path.hasSuffix("/coins/markets") }

  /// Before: exit 75, nothing shown.
  @Test func aTopWhosePageFailsShowsTheOtherPagesAndNamesTheMissingRanks() async throws {
    let (rates, _) = try Self.harness { request in
      Self.isMarkets(request) && request.query["page"] == "3"
        ? .json(#"{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit."}}"#, status: 429)
        : nil
    }
    let json = await rates.run(["top", "--limit", "1000", "--in", "USD", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    let document = try json.json()
    let coins = try require(document["coins"] as? [[String: Any]])
    expectEqual(coins.count, 750)
    expectEqual(document["missing"] as? [String], ["ranks 501-750 in USD"])
    let text = await rates.run(["top", "--limit", "1000", "--in", "USD"])
    expectEqual(text.status, 0)
    expectContains(text.stdout, "Coin 1 ")
    expectEqual(
      text.stderr,
      "warning: CoinGecko sent no price for ranks 501-750 in USD; showing the prices that arrived\n")
  }

  /// Before: exit 69, nothing shown.
  @Test func favoritesWhoseSecondBatchFailsShowTheFirstAndNameTheRest() async throws {
    let (rates, _) = try Self.harness(favorites: 300) { request in
      guard Self.isMarkets(request), let ids = request.query["ids"] else { return nil }
      return ids.split(separator: ",").count < 250 ? .text("oops", status: 500) : nil
    }
    let json = await rates.run(["favorites", "--in", "USD", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    let document = try json.json()
    expectEqual((document["coins"] as? [[String: Any]])?.count, 300)
    expectEqual((document["missing"] as? [String])?.count, 50)
    expect(json.stderr.hasPrefix("warning: CoinGecko sent no price for "))
    expectContains(json.stderr, " and 47 more; showing the prices that arrived\n")
  }

  /// Before: the row showed dashes and nothing said why.
  @Test func aFavoriteTheAnswerLeavesOutIsNamed() async throws {
    let (rates, _) = try Self.harness(favorites: 5) { request in
      guard Self.isMarkets(request), let ids = request.query["ids"] else { return nil }
      let kept = ids.split(separator: ",").filter { $0 != "coin-0003" }.joined(separator: ",")
      var query = request.query
      query["ids"] = kept
      return FakeManyCoins.reply(query, count: 2_000)
    }
    let text = await rates.run(["favorites", "--in", "USD"])
    expectEqual(text.status, 0)
    expectEqual(text.stderr, "warning: CoinGecko sent no price for C3/USD; showing the prices that arrived\n")
    let json = await rates.run(["favorites", "--in", "USD", "--json"])
    expectEqual(try json.json()["missing"] as? [String], ["C3/USD"])
  }

  /// Before: `--json` had no trace of ETH.
  @Test func currentJSONNamesThePairsTheAnswerLacks() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        request.path.hasSuffix("/simple/price")
          // Updated at the harness's clock (a later stamp is refused: AnswerGate.isUpdateTime).
          ? .json(#"{"bitcoin":{"eur":60000.5,"last_updated_at":1718000000}}"#) : fake(request)
      }
    }
    let json = await rates.run(["current", "BTC", "ETH", "--in", "EUR", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    expectEqual(try json.json()["missing"] as? [String], ["ETH/EUR"])
    expectEqual(
      json.stderr,
      "warning: no price for ETH/EUR: CoinGecko sent no price for it, Coinbase Exchange and"
        + " Kraken do not list it; showing the prices that arrived\n")
    let whole = await rates.run(["current", "BTC", "--in", "EUR", "--json"])
    expectEqual(try whole.json()["missing"] as? [String], [])
  }

  /// Before: "no current BTC price in the answer", ETH unmentioned.
  @Test func anEmptyPriceAnswerNamesEveryCoinAsTyped() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { $0.path.hasSuffix("/simple/price") ? .json("{}") : fake($0) }
    }
    let result = await rates.run(["current", "ETH", "BTC"])
    expectEqual(result.status, 66)
    expectEqual(result.stderr, "error: CoinGecko has no data: no current ETH, BTC prices in the answer\n")
  }

  /// Item 3: a coin that exists is never unknown, even for an empty answer.
  @Test func addingAKnownCoinAnEmptyMarketsAnswerLacksIsNotUnknown() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { $0.path.hasSuffix("/coins/markets") ? .json("[]") : fake($0) }
    }
    let result = await rates.run(["favorites", "add", "ETH"])
    expectEqual(result.status, 66)
    expect(!result.stderr.contains("unknown coin"))
    expectContains(result.stderr, "ETH")
    expect(!result.stderr.contains("ethereum"))
  }

  /// Item 12. Before: a 3,000-character line naming all 300.
  @Test func offlineWithManyFavoritesAndNoCacheNamesAFew() async throws {
    let (rates, _) = try Self.harness(favorites: 300)
    let result = await rates.run(["favorites", "--offline", "--in", "USD"])
    expect(result.status != 0)
    expectContains(result.stderr, " and 297 more")
    expect(result.stderr.count < 300, "\(result.stderr)")
  }
}

/// Item 12, the same for an answer with nothing for any of many favorites.
@Suite struct ManyNamesTests {
  /// Before: every one of the 300 symbols on one line.
  @Test func anEmptyAnswerForManyFavoritesNamesAFew() async throws {
    let (rates, _) = try PartialAnswerTests.harness(favorites: 300) { request in
      PartialAnswerTests.isMarkets(request) ? .json("[]") : nil
    }
    let result = await rates.run(["favorites", "--in", "USD"])
    expect(result.status != 0)
    expectContains(result.stderr, " and 297 more")
    expect(result.stderr.count < 300, "\(result.stderr)")
  }
}
