import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Twenty `rates` processes writing one data file at once: the file lock must lose nothing.
@Suite struct ConcurrencyEndToEndTests {
  static let twentyCoins = [
    "bitcoin", "ethereum", "tether", "solana", "ripple", "dogecoin", "cardano", "tron",
    "chainlink", "polkadot", "litecoin", "bitcoin-cash", "stellar", "monero", "cosmos",
    "uniswap", "near", "aptos", "filecoin", "algorand",
  ]

  /// Runs every argument list at once and returns the results.
  static func concurrently(_ rates: BinaryRunner, _ runs: [[String]]) async throws
    -> [CommandResult]
  {
    try await withThrowingTaskGroup(of: CommandResult.self) { group in
      for arguments in runs {
        group.addTask { try await rates.run(arguments) }
      }
      var all: [CommandResult] = []
      for try await result in group { all.append(result) }
      return all
    }
  }

  static func mode(_ file: URL) throws -> Int? {
    try (FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?
      .intValue
  }

  @Test func twentyConcurrentFavoriteAddsLoseNothing() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let results = try await Self.concurrently(
      rates, Self.twentyCoins.map { ["favorites", "add", $0] })
    for result in results { expectEqual(result.status, 0, "\(result.stderr)") }
    let file = rates.home.appendingPathComponent("data/rates/favorites.json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
    let stored = try require(object?["favorites"] as? [[String: Any]])
    expectEqual(Set(stored.compactMap { $0["id"] as? String }), Set(Self.twentyCoins))
    expectEqual(object?["version"] as? Int, 1)
    expectEqual(try Self.mode(file), 0o600)
  }

  /// Twenty processes add a coin each to your coins right after the upgrade: the old
  /// favorites are copied once (one backup, one notice) and no coin is lost.
  @Test func twentyConcurrentCoinAddsMigrateOnceAndLoseNothing() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL)
    let data = rates.home.appendingPathComponent("data/rates")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let old = Data(
      #"{"version":1,"favorites":[{"id":"kaspa","symbol":"KAS","addedAt":"2026-01-01T00:00:00Z"}]}"#.utf8)
    try old.write(to: data.appendingPathComponent("favorites.json"))
    let results = try await Self.concurrently(rates, Self.twentyCoins.map { ["coins", "add", $0] })
    for result in results { expectEqual(result.status, 0, "\(result.stderr)") }
    expectEqual(results.filter { $0.stderr.contains("copied your favorite") }.count, 1)
    let file = data.appendingPathComponent("coins.json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
    let stored = try require(object?["coins"] as? [[String: Any]]).compactMap { $0["id"] as? String }
    expectEqual(stored.first, "kaspa")
    expectEqual(stored.count, 21)
    expectEqual(Set(stored), Set(Self.twentyCoins + ["kaspa"]))
    expectEqual(try Data(contentsOf: data.appendingPathComponent("favorites.json.before-coins")), old)
    expectEqual(try Data(contentsOf: data.appendingPathComponent("favorites.json")), old)
  }

  @Test func twentyConcurrentLedgerAddsLoseNothing() async throws {
    let rates = try BinaryRunner(server: nil)
    let results = try await Self.concurrently(
      rates,
      (1...20).map { ["ledger", "add", "\($0)", "USD", "\($0 * 90_000)", "LBP", "--sell"] })
    for result in results { expectEqual(result.status, 0, "\(result.stderr)") }
    let file = rates.home.appendingPathComponent("data/rates/ledger.json")
    // Format 2: a header line, then one JSON object per appended record.
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
    let entries = try lines.dropFirst().map { line in
      try require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    expectEqual(entries.compactMap { $0["id"] as? Int }, Array(1...20), "appended in id order")
    expectEqual(Set(entries.compactMap { $0["amount"] as? Double }), Set((1...20).map(Double.init)))
    expectEqual(try Self.mode(file), 0o600)
  }
}
