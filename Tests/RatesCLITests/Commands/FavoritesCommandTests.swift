import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `favorites` and `top` in process, against the fake APIs at a fixed time, with real data
/// files. (Concurrent adds from separate processes are in EndToEndTests.)
@Suite struct FavoritesCommandTests {
  /// The quote in `currency` of a coin of a `top`/`favorites` document.
  static func quote(_ coin: [String: Any]?, in currency: String) -> [String: Any]? {
    (coin?["quotes"] as? [[String: Any]])?.first { $0["quote"] as? String == currency }
  }

  @Test func addListRemoveAndRefusals() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let empty = await rates.run(["favorites"])
    expectEqual(empty.status, 0)
    expectContains(empty.stdout, "No favorites yet")

    let add = await rates.run(["favorites", "add", "BTC", "ethereum-wormhole"])
    expectEqual(add.status, 0, "\(add.stderr)")
    expectContains(add.stdout, "Added BTC (bitcoin)")
    let twice = await rates.run(["favorites", "add", "btc"])
    expectEqual(twice.status, 0)
    expectContains(twice.stderr, "already a favorite")
    let unknown = await rates.run(["favorites", "add", "nosuchcoin"])
    expectEqual(unknown.status, 64)

    let before = server.requestCount
    let list = await rates.run(["favorites", "--in", "EUR", "--json"])
    expectEqual(list.status, 0, "\(list.stderr)")
    expectEqual(server.requestCount - before, 1, "all favorites in one request")
    let coins = try require(try list.json()["coins"] as? [[String: Any]])
    expectEqual(coins.map { $0["id"] as? String }, ["bitcoin", "ethereum-wormhole"])
    let eur = Self.quote(coins.first, in: "EUR")
    expectEqual(eur?["rate"] as? Double, FakeCoinGecko.nowValue(id: "bitcoin", currency: "eur"))

    let remove = await rates.run(["favorites", "remove", "BTC"])
    expectEqual(remove.status, 0)
    // Issue 15: remove of a non-favorite agrees with add of a favorite: a note, exit 0.
    let missing = await rates.run(["favorites", "remove", "BTC"])
    expectEqual(missing.status, 0, "\(missing.stderr)")
    expectContains(missing.stderr, "note: 'btc' is not a favorite (favorites: ")
    let missingJSON = await rates.run(["favorites", "remove", "BTC", "--json"])
    expectEqual(missingJSON.status, 0)
    expectEqual(try missingJSON.json()["unchanged"] as? [String], ["btc"])
  }

  @Test func corruptDataFileIsNeverOverwritten() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let directory = rates.home.appendingPathComponent("data/rates")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("favorites.json")
    let garbage = Data(#"{"version":1,"favorites":[{"id":"bitcoin""#.utf8)
    try garbage.write(to: file)
    for arguments in [["favorites", "add", "ETH"], ["favorites"], ["top"]] {
      let result = await rates.run(arguments)
      expectEqual(result.status, 74, "\(arguments): \(result.stderr)")
      expectContains(result.stderr, file.path)
      expectContains(result.stderr, "mv ")
    }
    expectEqual(try Data(contentsOf: file), garbage)
  }

  /// Before the split, `top` followed the favorites: litecoin came last because it was starred.
  @Test func topShowsTheTopThenYourCoinsAndBothCurrencies() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    _ = await rates.run(["coins", "add", "litecoin", "BTC"])
    _ = await rates.run(["favorites", "add", "BTC", "dogecoin"])
    let before = server.requestCount
    let result = await rates.run(["top", "--limit", "3", "--in", "EUR,USD", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(server.requestCount - before, 2, "one per currency: the top 100 covers the favorites")
    let coins = try require(try result.json()["coins"] as? [[String: Any]])
    expectEqual(coins.map { $0["id"] as? String }, ["bitcoin", "ethereum", "tether", "litecoin"])
    expectEqual(coins.first?["favorite"] as? Bool, true, "starred")
    expectEqual(coins.last?["favorite"] as? Bool, false, "one of your coins, not starred")
    expectEqual(coins.last?["inTop"] as? Bool, false)
    let quotes = try require(coins.first?["quotes"] as? [[String: Any]])
    expectEqual(quotes.map { $0["quote"] as? String }, ["EUR", "USD"], "an array in --in order")

    let text = await rates.run(["top", "--limit", "3", "--in", "EUR,USD"])
    expectContains(text.stdout, "your coins")
    expectContains(text.stdout, "LTC")
    expect(!text.stdout.contains("DOGE"), "a favorite that is not one of your coins")
    expectEqual(server.requestCount - before, 2, "a minute's cache")
  }
}

/// More coins than one CoinGecko page (250) holds.
@Suite struct ManyCoinsTests {
  static func harness(favorites count: Int) throws -> (CLIHarness, InProcessServer) {
    let (rates, server) = try CLIHarness.withFakeAPI { fake in
      { $0.path.hasSuffix("/coins/markets") ? FakeManyCoins.reply($0.query, count: 1_200) : fake($0) }
    }
    let data = rates.home.appendingPathComponent("data/rates")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let favorites = (1...count).map { index in
      let rank = 1_200 - index
      return #"{"id":"\#(FakeManyCoins.id(rank: rank))","symbol":"C\#(rank)","addedAt":"2026-01-01T00:00:00Z"}"#
    }
    try Data(#"{"version":1,"favorites":[\#(favorites.joined(separator: ","))]}"#.utf8)
      .write(to: data.appendingPathComponent("favorites.json"))
    return (rates, server)
  }

  /// Before: one request for all 500, of which 250 came back; the others showed "—".
  @Test func fiveHundredFavoritesAllHavePrices() async throws {
    let (rates, server) = try Self.harness(favorites: 500)
    let json = await rates.run(["favorites", "--in", "USD", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    let coins = try require(try json.json()["coins"] as? [[String: Any]])
    expectEqual(coins.count, 500)
    let priced = coins.filter {
      FavoritesCommandTests.quote($0, in: "USD")?["rate"] as? Double != nil
    }
    expectEqual(priced.count, 500)
    expectEqual(server.requestCount, 2)
    let text = await rates.run(["favorites", "--in", "USD"])
    expectEqual(text.status, 0)
    expect(!text.stdout.contains("—"))
  }

  /// Before: `--limit` stopped at 250, and favorites past the first 250 had no price.
  @Test func topOverAPageWithManyFavorites() async throws {
    let (rates, server) = try Self.harness(favorites: 500)
    let json = await rates.run(["top", "--limit", "300", "--in", "USD", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    let coins = try require(try json.json()["coins"] as? [[String: Any]])
    expectEqual(coins.count, 800)
    expectEqual(coins.prefix(300).map { $0["id"] as? String }, (1...300).map { FakeManyCoins.id(rank: $0) })
    let unpriced = coins.filter {
      FavoritesCommandTests.quote($0, in: "USD")?["rate"] as? Double == nil
    }
    expect(unpriced.isEmpty)
    // Two pages of 150 for the top 300, two of 250 for the 500 favorites beyond it.
    expectEqual(server.requestCount, 4)
    let text = await rates.run(["top", "--limit", "300", "--in", "USD"])
    expect(!text.stdout.contains("—"))
  }
}
