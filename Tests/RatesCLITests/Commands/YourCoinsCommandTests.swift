import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates coins` (your coins) beside `rates favorites` (starred coins), the upgrade of an
/// older favorites file, and what follows your coins (`watch`, completion, `doctor`,
/// `currencies`), in process against the fake APIs with real data files.
@Suite struct YourCoinsCommandTests {
  /// A favorites file as a `rates` from before the split wrote it: the one merged list.
  static let oldFavorites = Data(
    #"{"version":1,"favorites":[{"id":"bitcoin","symbol":"BTC","name":"Bitcoin","addedAt":"2026-01-01T00:00:00Z"},{"id":"solana","symbol":"SOL","addedAt":"2026-01-02T00:00:00Z"}]}"#
      .utf8)

  static func dataDirectory(_ rates: CLIHarness) throws -> URL {
    let data = rates.home.appendingPathComponent("data/rates")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    return data
  }

  static func ids(_ result: CommandResult) throws -> [String?] {
    try require(try result.json()["coins"] as? [[String: Any]]).map { $0["id"] as? String }
  }

  @Test func addListRemoveKeepYourCoinsApartFromFavorites() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let empty = await rates.run(["coins"])
    expectContains(empty.stdout, "No coins yet. Add some with 'rates coins add BTC ETH'.")

    let add = await rates.run(["coins", "add", "BTC", "solana"])
    expectEqual(add.status, 0, "\(add.stderr)")
    expectEqual(add.stdout, "Added BTC (bitcoin) to your coins.\nAdded SOL (solana) to your coins.\n")
    let twice = await rates.run(["coins", "add", "btc"])
    expectEqual(twice.status, 0)
    expectContains(twice.stderr, "note: BTC (bitcoin) is already one of your coins")
    expectEqual(await rates.run(["coins", "add", "nosuchcoin"]).status, 64)
    expectEqual(await rates.run(["favorites", "add", "SOL", "ETH"]).status, 0)

    let before = server.requestCount
    let list = await rates.run(["coins", "--in", "EUR", "--json"])
    expectEqual(list.status, 0, "\(list.stderr)")
    expectEqual(server.requestCount - before, 1, "all your coins in one request")
    let coins = try require(try list.json()["coins"] as? [[String: Any]])
    expectEqual(coins.map { $0["id"] as? String }, ["bitcoin", "solana"])
    expectEqual(coins.map { $0["favorite"] as? Bool }, [false, true], "starred coins say so")
    expectEqual(try Self.ids(await rates.run(["favorites", "--json"])), ["solana", "ethereum"])
    let table = await rates.run(["coins", "--in", "EUR"])
    expectContains(table.stdout, "SOL ★")

    expectEqual(await rates.run(["coins", "remove", "SOL"]).stdout, "Removed SOL (solana) from your coins.\n")
    let missing = await rates.run(["coins", "remove", "SOL"])
    expectEqual(missing.status, 0)
    expectContains(missing.stderr, "note: 'sol' is not one of your coins (your coins: BTC)")
    expectEqual(try Self.ids(await rates.run(["favorites", "--json"])), ["solana", "ethereum"], "still starred")
    let unstar = await rates.run(["favorites", "remove", "ETH"])
    expectEqual(unstar.stdout, "Removed ETH (ethereum) from your favorites.\n")
    expectEqual(try Self.ids(await rates.run(["coins", "--json"])), ["bitcoin"])
  }

  /// The first run after the upgrade copies the favorites into your coins, says so once on
  /// stderr, and keeps the old file's bytes.
  @Test func upgradeMakesEveryFavoriteOneOfYourCoins() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let data = try Self.dataDirectory(rates)
    try Self.oldFavorites.write(to: data.appendingPathComponent("favorites.json"))

    let first = await rates.run(["top", "--limit", "1", "--json"])
    expectEqual(first.status, 0, "\(first.stderr)")
    expectEqual(try Self.ids(first), ["bitcoin", "solana"], "top follows your coins: the old favorites")
    let notes = first.stderr.split(separator: "\n").filter { $0.contains("copied your") }
    expectEqual(notes.count, 1, "\(first.stderr)")
    let backup = data.appendingPathComponent("favorites.json.before-coins")
    expectEqual(notes.first?.hasPrefix("note: copied your 2 favorites to your coins ("), true)
    expectEqual(notes.first?.contains(backup.path), true)
    expectEqual(try Data(contentsOf: backup), Self.oldFavorites)

    let again = await rates.run(["coins", "--json"])
    expectEqual(try Self.ids(again), ["bitcoin", "solana"])
    expect(!again.stderr.contains("copied"), "once")
    expectEqual(try Self.ids(await rates.run(["favorites", "--json"])), ["bitcoin", "solana"], "still starred")
  }

  /// An unstar as the first command after the upgrade still leaves the coin among yours.
  @Test func unstarringFirstAfterTheUpgradeLosesNothing() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let data = try Self.dataDirectory(rates)
    try Self.oldFavorites.write(to: data.appendingPathComponent("favorites.json"))
    expectEqual(await rates.run(["favorites", "remove", "BTC"]).status, 0)
    expectEqual(try Self.ids(await rates.run(["coins", "--json"])), ["bitcoin", "solana"])
    expectEqual(try Self.ids(await rates.run(["favorites", "--json"])), ["solana"])
  }

  @Test func corruptFavoritesStopTheUpgradeWithTheFileNamed() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let data = try Self.dataDirectory(rates)
    let file = data.appendingPathComponent("favorites.json")
    let garbage = Data(#"{"version":1,"favorites":[{"id":"bitcoin""#.utf8)
    try garbage.write(to: file)
    for arguments in [["coins"], ["coins", "add", "ETH"], ["watch", "--count", "1"]] {
      let result = await rates.run(arguments)
      expectEqual(result.status, 74, "\(arguments): \(result.stderr)")
      expectContains(result.stderr, file.path)
    }
    expectEqual(try Data(contentsOf: file), garbage)
    expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("coins.json").path))
  }

  /// Before the split, `watch` with no arguments watched the favorites.
  @Test func watchWatchesYourCoinsAndPairsByDefault() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI(environment: ["RATES_WATCH_FLOOR": "1"])
    expectEqual(await rates.run(["coins", "add", "BTC"]).status, 0)
    expectEqual(await rates.run(["favorites", "add", "ETH"]).status, 0)
    expectEqual(await rates.run(["pairs", "add", "GBP", "USD"]).status, 0)
    let result = await rates.run(["watch", "--count", "1", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let watched = try result.jsonLines().map { "\($0["base"] as? String ?? "?")/\($0["quote"] as? String ?? "?")" }
    expectEqual(watched, ["BTC/USD", "GBP/USD"])

    let fresh = try CLIHarness()
    let nothing = await fresh.run(["watch"])
    expectEqual(nothing.status, 66)
    expectContains(nothing.stderr, "add coins (rates coins add BTC)")
  }

  @Test func completionOffersYourCoinsForCoinsRemove() async throws {
    let rates = try CLIHarness(transport: .unexpected("completion must not touch the network"))
    let data = try Self.dataDirectory(rates)
    try Self.oldFavorites.write(to: data.appendingPathComponent("favorites.json"))
    // Before the upgrade ran: the favorites that will be your coins; nothing written.
    expectEqual(await rates.run(["__complete", "own-coins"]).stdout, "BTC\nSOL\n")
    expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("coins.json").path))
    try Data(
      #"{"version":1,"coins":[{"id":"kaspa","symbol":"KAS","addedAt":"2026-01-01T00:00:00Z"}]}"#.utf8
    ).write(to: data.appendingPathComponent("coins.json"))
    expectEqual(await rates.run(["__complete", "own-coins"]).stdout, "KAS\n")
    expectEqual(await rates.run(["__complete", "coins", "ka"]).stdout, "kas\n")
    expectEqual(await rates.run(["__complete", "favorites"]).stdout, "BTC\nSOL\n")
    let remove = try require(CoinListActions<CoinsCommand.Words>.Remove.arguments.first?.completion)
    expectEqual(remove, .local([.ownCoins]))
  }

  @Test func doctorAndCurrenciesKnowYourCoins() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let data = try Self.dataDirectory(rates)
    try Self.oldFavorites.write(to: data.appendingPathComponent("favorites.json"))
    let before = await rates.run(["doctor", "--offline", "--json"])
    let check = try require(
      (try before.json()["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "coins" })
    expectEqual((check["detail"] as? String)?.hasSuffix("your 2 favorites become your coins on first use"), true)
    expect(
      !FileManager.default.fileExists(atPath: data.appendingPathComponent("coins.json").path), "doctor changes nothing")

    expectEqual(await rates.run(["coins", "add", "dogecoin"]).status, 0)
    let after = await rates.run(["doctor", "--offline"])
    expectContains(after.stdout, "coins.json: version 1, 3 entries")
    let crypto = await rates.run(["currencies", "--crypto", "--json"])
    let symbols = try require(try crypto.json()["currencies"] as? [[String: Any]]).map { $0["id"] as? String }
    expect(symbols.contains("dogecoin"))
  }
}
