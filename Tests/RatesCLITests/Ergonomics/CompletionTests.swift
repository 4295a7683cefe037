import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates completions` and the hidden `rates __complete`, in process.
@Suite struct CompletionTests {
  /// A harness whose transport fails the test if used: completion is local only.
  static func harness() throws -> CLIHarness {
    try CLIHarness(transport: .unexpected("completion must not touch the network"))
  }

  @Test func helpListsTheCommandsButNotTheHiddenOne() async throws {
    let help = try await Self.harness().run(["--help"])
    for name in ["completions", "doctor", "cache"] { expectContains(help.stdout, "  \(name) ") }
    expect(!help.stdout.contains("__complete"))
  }

  @Test func scriptsNameEveryCommandAndFlag() async throws {
    let cli = try Self.harness()
    for shell in CompletionsCommand.shells {
      let result = await cli.run(["completions", shell])
      expectEqual(result.status, 0)
      expect(result.stderr.isEmpty)
      for type in RatesCLI.commands { expectContains(result.stdout, type.name, "\(shell)") }
      for path in CommandTree.leaves {
        for flag in path.last.options.flatMap(\.names) {
          expect(result.stdout.contains(flag.dropFirst(2)), "\(shell): \(flag)")
        }
      }
      expectContains(result.stdout, "__complete")
    }
    let bad = await cli.run(["completions", "tcsh"])
    expectEqual(bad.status, 64)
  }

  @Test func completeWordsComeFromLocalDataOnly() async throws {
    let cli = try Self.harness()
    let data = cli.home.appendingPathComponent("data/rates")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    try Data(
      #"{"version":1,"favorites":[{"id":"kaspa","symbol":"KAS","addedAt":"2026-01-01T00:00:00Z"}]}"#
        .utf8
    ).write(to: data.appendingPathComponent("favorites.json"))
    try Data(
      #"{"version":1,"pairs":[{"base":"GBP","quote":"USD","addedAt":"2026-01-01T00:00:00Z"}]}"#.utf8
    ).write(to: data.appendingPathComponent("pairs.json"))
    let cache = JSONFileCache(directory: cli.home.appendingPathComponent("cache/rates"))
    try cache.save(
      CoinResolver.CachedResolution(id: "pepecoin-x", symbol: "PEPX", alternatives: []),
      key: "coingecko/resolve/pepx", source: "coingecko", fetchedAt: fixedNow)
    try cache.save(
      ["x": 1], key: "coingecko/history/ethereum-wormhole-EUR", source: "coingecko",
      fetchedAt: fixedNow)

    let coins = await cli.run(["__complete", "coins"])
    expectEqual(coins.status, 0)
    let words = coins.stdout.split(separator: "\n").map(String.init)
    for word in ["BTC", "ETH", "KAS", "PEPX", "ethereum-wormhole"] { expect(words.contains(word)) }
    expectEqual(words, words.sorted())

    let lower = await cli.run(["__complete", "coins", "bt"])
    expectEqual(lower.stdout, "btc\n")
    let upper = await cli.run(["__complete", "currencies", "GB"])
    expectEqual(upper.stdout, "GBP\n")
    let pairs = await cli.run(["__complete", "pairs"])
    expectEqual(pairs.stdout, "GBP-USD\n")
    let favorites = await cli.run(["__complete", "favorites"])
    expectEqual(favorites.stdout, "KAS\n")
    let both = await cli.run(["__complete", "coins,currencies", "BC"])
    expectEqual(both.stdout, "BCH\n", "one word per line, no duplicates")
  }

  @Test func completeIsSilentOnEveryProblem() async throws {
    let cli = try Self.harness()
    let data = cli.home.appendingPathComponent("data/rates")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    try Data("{not json".utf8).write(to: data.appendingPathComponent("favorites.json"))
    try FileManager.default.createDirectory(
      at: data.appendingPathComponent("pairs.json"), withIntermediateDirectories: true)
    for arguments in [
      ["__complete"], ["__complete", "favorites"], ["__complete", "pairs"],
      ["__complete", "nonsense"], ["__complete", "coins", "zzzz"],
    ] {
      let result = await cli.run(arguments)
      expectEqual(result.status, 0, "\(arguments)")
      expect(result.stdout.isEmpty, "\(arguments)")
      expect(result.stderr.isEmpty, "\(arguments)")
    }
    // Even a broken environment (a relative XDG path, no HOME) is no error.
    var odd = cli
    odd.environment = ["XDG_DATA_HOME": "rel"]
    expectEqual(await odd.run(["__complete", "coins", "b"]).status, 0)
  }
}
