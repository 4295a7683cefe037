import Foundation
import Testing
@testable import RateCore
@testable import RatesCLI
import RatesTestSupport

/// `favorites` and `top` through the built binary, with real data files.
@Suite struct FavoritesEndToEndTests {
  static let clock: @Sendable () -> Date = { Date() }
  static let twentyCoins = [
    "bitcoin", "ethereum", "tether", "solana", "ripple", "dogecoin", "cardano", "tron",
    "chainlink", "polkadot", "litecoin", "bitcoin-cash", "stellar", "monero", "cosmos",
    "uniswap", "near", "aptos", "filecoin", "algorand",
  ]

  @Test func twentyConcurrentAddsLoseNothing() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: Self.clock))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let results = try await withThrowingTaskGroup(of: CommandResult.self) { group in
      for coin in Self.twentyCoins {
        group.addTask { try await rates.run(["favorites", "add", coin]) }
      }
      var all: [CommandResult] = []
      for try await result in group { all.append(result) }
      return all
    }
    for result in results { #expect(result.status == 0, "\(result.stderr)") }
    let file = rates.home.appendingPathComponent("data/rates/favorites.json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
    let stored = try #require(object?["favorites"] as? [[String: Any]])
    #expect(Set(stored.compactMap { $0["id"] as? String }) == Set(Self.twentyCoins))
    #expect(object?["version"] as? Int == 1)
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
    #expect(mode?.intValue == 0o600)
  }

  @Test func addListRemoveAndRefusals() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: Self.clock))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let empty = try await rates.run(["favorites"])
    #expect(empty.status == 0)
    #expect(empty.stdout.contains("No favorites yet"))

    let add = try await rates.run(["favorites", "add", "BTC", "ethereum-wormhole"])
    #expect(add.status == 0, "\(add.stderr)")
    #expect(add.stdout.contains("Added BTC (bitcoin)"))
    let twice = try await rates.run(["favorites", "add", "btc"])
    #expect(twice.status == 0)
    #expect(twice.stdout.contains("already a favorite"))
    let unknown = try await rates.run(["favorites", "add", "nosuchcoin"])
    #expect(unknown.status == 64)

    let before = server.requestCount
    let list = try await rates.run(["favorites", "--in", "EUR", "--json"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(server.requestCount - before == 1, "all favorites in one request")
    let coins = try #require(try list.json()["coins"] as? [[String: Any]])
    #expect(coins.map { $0["id"] as? String } == ["bitcoin", "ethereum-wormhole"])
    let eur = (coins.first?["quotes"] as? [String: Any])?["EUR"] as? [String: Any]
    #expect(eur?["price"] as? Double == FakeCoinGecko.nowValue(id: "bitcoin", currency: "eur"))

    let remove = try await rates.run(["favorites", "remove", "BTC"])
    #expect(remove.status == 0)
    let missing = try await rates.run(["favorites", "remove", "BTC"])
    #expect(missing.status == 64)
    #expect(missing.stderr.contains("not a favorite"))
  }

  @Test func corruptDataFileIsNeverOverwritten() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: Self.clock))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let directory = rates.home.appendingPathComponent("data/rates")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("favorites.json")
    let garbage = Data(#"{"version":1,"favorites":[{"id":"bitcoin""#.utf8)
    try garbage.write(to: file)
    for arguments in [["favorites", "add", "ETH"], ["favorites"], ["top"]] {
      let result = try await rates.run(arguments)
      #expect(result.status == 74, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(file.path))
      #expect(result.stderr.contains("mv "))
    }
    #expect(try Data(contentsOf: file) == garbage)
  }

  @Test func topShowsTheTopThenFavoritesAndBothCurrencies() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: Self.clock))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    _ = try await rates.run(["favorites", "add", "litecoin", "BTC"])
    let before = server.requestCount
    let result = try await rates.run(["top", "--limit", "3", "--in", "EUR,USD", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(server.requestCount - before == 2, "one per currency: the top 100 covers the favorites")
    let coins = try #require(try result.json()["coins"] as? [[String: Any]])
    #expect(coins.map { $0["id"] as? String } == ["bitcoin", "ethereum", "tether", "litecoin"])
    #expect(coins.first?["favorite"] as? Bool == true)
    #expect(coins.last?["inTop"] as? Bool == false)
    let quotes = try #require(coins.first?["quotes"] as? [String: Any])
    #expect(Set(quotes.keys) == ["EUR", "USD"])

    let text = try await rates.run(["top", "--limit", "3", "--in", "EUR,USD"])
    #expect(text.stdout.contains("favorites"))
    #expect(text.stdout.contains("LTC"))
    #expect(server.requestCount - before == 2, "a minute's cache")
  }
}
