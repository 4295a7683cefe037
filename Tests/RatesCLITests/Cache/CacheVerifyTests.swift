import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates cache clear PAIR` and `rates cache verify [PAIR] [--fix]` through the command line,
/// against the fake Frankfurter.
@Suite struct CacheVerifyTests {
  func contents(under directory: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: directory.path)
    for case let path as String in enumerator?.allObjects ?? [] {
      if let data = FileManager.default.contents(atPath: directory.appendingPathComponent(path).path) {
        files[path] = data
      }
    }
    return files
  }

  @Test func clearPairRemovesThatPairOnlyAndLeavesEveryOtherFileAsItWas() async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    defer { try? FileManager.default.removeItem(at: cli.home) }
    for pair in [["GBP", "USD"], ["EUR", "USD"], ["BTC", "EUR"]] {
      expectEqual(await cli.run(["history"] + pair + ["--days", "10"]).status, 0)
    }
    let cache = cli.home.appendingPathComponent("cache/rates")
    let before = contents(under: cache)
    expect(before.keys.contains("days/frankfurter/gbp-usd.days"))
    let result = await cli.run(["cache", "clear", "GBP/USD"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expect(result.stdout.hasPrefix("Removed GBP-USD: "))
    let after = contents(under: cache)
    let gone = Set(before.keys).subtracting(after.keys)
    expect(!gone.isEmpty && gone.allSatisfy { $0.contains("gbp-usd") })
    expect(!after.keys.contains { $0.contains("gbp-usd") })
    for (path, data) in after { expectEqual(before[path], data, "\(path) changed") }
    // A coin's symbol finds the pair of its id.
    expect(after.keys.contains("days/coingecko/bitcoin-eur.days"))
    let coin = await cli.run(["cache", "clear", "BTC-EUR"])
    expectEqual(coin.status, 0, "\(coin.stderr)")
    expect(coin.stdout.hasPrefix("Removed BITCOIN-EUR: "))
    expect(!contents(under: cache).keys.contains { $0.contains("bitcoin-eur") })
    let again = await cli.run(["cache", "clear", "gbp-usd"])
    expectEqual(again.status, 0, "already as asked")
    expectEqual(again.stderr, "note: nothing is cached for GBP-USD; 'rates cache' lists the stored pairs\n")
    expect(again.stdout.isEmpty)
  }

  @Test func verifyReportsAPoisonedDayExitsTwoAndFixRepairsIt() async throws {
    let (cli, api) = try CLIHarness.withFakeAPI()
    defer { try? FileManager.default.removeItem(at: cli.home) }
    expectEqual(await cli.run(["history", "GBP", "USD", "--days", "10"]).status, 0)
    let store = DayStore(directory: cli.home.appendingPathComponent("cache/rates"))
    let key = "frankfurter/gbp-usd"
    let clean = store.load(key: key).0
    let day = try require(clean.values.first?.day)
    var poison = DayStore.Days()
    poison.set(day, 9.99)
    try store.save(poison, key: key, replacing: true)
    let requests = api.requestCount
    let found = await cli.run(["cache", "verify"])
    expectEqual(found.status, 2, "\(found.stderr)")
    expectEqual(api.requestCount, requests + 1)
    expectContains(found.stdout, "frankfurter GBP-USD: ")
    expectContains(found.stdout, "1 differs")
    expectContains(found.stdout, "\(day)  9.9900    1.2968")
    expectContains(found.stdout, "unknown, before v2")
    expectContains(found.stdout, "rates cache verify GBP-USD --fix")
    let fixed = await cli.run(["cache", "verify", "GBP-USD", "--fix", "--json"])
    expectEqual(fixed.status, 0, "\(fixed.stderr)")
    expectContains(fixed.stdout, "\"storedRate\" : 9.99")
    expectContains(fixed.stdout, "\"fixed\" : true")
    let repaired = store.load(key: key).0
    expectEqual(repaired.value(day), clean.value(day))
    expectEqual(repaired.values.map(\.value), clean.values.map(\.value))
    let agrees = await cli.run(["cache", "verify", "gbp-usd"])
    expectEqual(agrees.status, 0)
    expectContains(agrees.stdout, "all agree.")
    let offline = await cli.run(["cache", "verify", "--offline"])
    expectEqual(offline.status, 64)
    expectEqual(api.requestCount, requests + 3, "nothing asked offline")
    let unknown = await cli.run(["cache", "verify", "EUR-JPY"])
    expectEqual(unknown.status, 0, "nothing to verify")
    expectContains(unknown.stderr, "note: no days are stored for EUR-JPY")
  }
}
