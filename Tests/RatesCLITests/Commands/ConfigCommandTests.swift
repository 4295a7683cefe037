import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates config` in process: precedence, masking, file safety.
@Suite struct ConfigCommandTests {
  func settings(_ result: CommandResult) throws -> [String: (value: Any, source: String)] {
    let list = try require(try result.json()["settings"] as? [[String: Any]])
    var table: [String: (value: Any, source: String)] = [:]
    for item in list {
      table[item["key"] as? String ?? ""] = (item["value"] ?? NSNull(), item["origin"] as? String ?? "")
    }
    return table
  }

  @Test func precedenceIsFlagThenEnvironmentThenFileThenDefault() async throws {
    let rates = try CLIHarness()
    let initial = try settings(await rates.run(["config", "--json"]))
    expectEqual(initial["currency"]?.value as? String, "USD")
    expectEqual(initial["currency"]?.source, "default")

    expectEqual(await rates.run(["config", "set", "currency", "eur"]).status, 0)
    expectEqual(await rates.run(["config", "set", "provider", "coingecko"]).status, 0)
    let fromFile = try settings(await rates.run(["config", "--json"]))
    expectEqual(fromFile["currency"]?.value as? String, "EUR")
    expectEqual(fromFile["currency"]?.source, "config file")

    let fromEnv = try settings(
      await rates.run(["config", "--json"], environment: ["RATES_CURRENCY": "GBP", "RATES_PROVIDER": "coindesk"]))
    expectEqual(fromEnv["currency"]?.value as? String, "GBP")
    expectEqual(fromEnv["currency"]?.source, "environment (RATES_CURRENCY)")
    let fromFlag = try settings(
      await rates.run(["config", "--json", "--provider", "frankfurter"], environment: ["RATES_PROVIDER": "coindesk"]))
    expectEqual(fromFlag["provider"]?.value as? String, "frankfurter")
    expectEqual(fromFlag["provider"]?.source, "flag (--provider)")
  }

  @Test func setAndUnsetChangeOnlyTheirKey() async throws {
    let rates = try CLIHarness()
    let directory = rates.home.appendingPathComponent("config/rates")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("config.json")
    // A key from a newer rates survives.
    try Data(#"{"version":1,"settings":{"timeout":"20","future-key":"kept"}}"#.utf8).write(to: file)
    expectEqual(await rates.run(["config", "set", "currency", "CHF"]).status, 0)
    expectEqual(await rates.run(["config", "unset", "timeout"]).status, 0)
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
    let stored = try require(object?["settings"] as? [String: String])
    expectEqual(stored, ["currency": "CHF", "future-key": "kept"])
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
    expectEqual(mode?.intValue, 0o600)
  }

  @Test func refusals() async throws {
    let rates = try CLIHarness()
    let cases: [([String], String)] = [
      (["config", "set", "colour", "red"], "unknown setting 'colour'"),
      (["config", "set", "currency", "euro!"], "invalid for 'currency'"),
      (["config", "set", "timeout", "0"], "whole seconds from 1 to 120"),
      (["config", "set", "api-key", "CG-on-the-command-line"], "not taken as an argument"),
      (["config", "set", "provider"], "missing argument <value>"),
    ]
    for (arguments, message) in cases {
      let result = await rates.run(arguments)
      expectEqual(result.status, 64, "\(arguments)")
      expectContains(result.stderr, message, "\(arguments): \(result.stderr)")
    }
  }

  /// Issue 15: a value no command could use is refused with the valid ones, never stored.
  @Test func invalidValuesAreRefusedWithTheValidOnesAndNeverWritten() async throws {
    let rates = try CLIHarness()
    let cases: [([String], [String])] = [
      (["config", "set", "currency", "XYZ"], ["'XYZ' is invalid for 'currency'", "EUR", "SATS", "USD"]),
      (["config", "set", "provider", "binance"], ["coingecko, coindesk, frankfurter, coinbase, kraken"]),
      (["config", "set", "api-plan", "gold"], ["demo or pro"]),
      (["config", "set", "timeout", "500"], ["1 to 120"]),
    ]
    for (arguments, parts) in cases {
      let result = await rates.run(arguments)
      expectEqual(result.status, 64, "\(arguments)")
      for part in parts { expectContains(result.stderr, part, "\(arguments): \(result.stderr)") }
    }
    let file = rates.home.appendingPathComponent("config/rates/config.json")
    expect(!FileManager.default.fileExists(atPath: file.path))
    expectEqual(await rates.run(["config", "set", "currency", "lbp"]).status, 64)
    expectEqual(await rates.run(["config", "set", "currency", "sats"]).status, 0)
  }

  @Test func apiKeyFromStdinIsUsedMaskedAndNeverPrinted() async throws {
    let secret = "CG-from-stdin-9f8e7d"
    let (rates, server) = try CLIHarness.withFakeAPI()
    let set = await rates.run(["config", "set", "api-key"], stdin: secret + "\n")
    expectEqual(set.status, 0, "\(set.stderr)")
    let show = await rates.run(["config"])
    expectContains(show.stdout, "CG-…8e7d")
    let history = await rates.run(["history", "BTC", "EUR", "--json"])
    expectEqual(history.status, 0)
    expectEqual(server.requests.first?.headers["x-cg-demo-api-key"], secret)
    for text in [set.stdout, set.stderr, show.stdout, show.stderr, history.stdout, history.stderr] {
      expect(!text.contains(secret))
    }
    // Only the config file holds it.
    let holders = allFileContents(under: rates.home).filter { $0.text.contains(secret) }.map(\.path)
    expect(holders.count == 1 && holders.first?.hasSuffix("config/rates/config.json") == true)
  }

  @Test func anInvalidValueCanStillBeRepairedWithConfig() async throws {
    let rates = try CLIHarness()
    let directory = rates.home.appendingPathComponent("config/rates")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data(#"{"version":1,"settings":{"currency":"€€"}}"#.utf8)
      .write(to: directory.appendingPathComponent("config.json"))
    let blocked = await rates.run(["currencies"])
    expectEqual(blocked.status, 64)
    expectContains(blocked.stderr, "rates config unset currency")
    expectEqual(await rates.run(["config"]).status, 0)
    expectEqual(await rates.run(["config", "set", "currency", "CHF"]).status, 0)
    expectEqual(await rates.run(["currencies"]).status, 0)
  }

  @Test func aCorruptConfigFileStopsWithItsName() async throws {
    let rates = try CLIHarness()
    let directory = rates.home.appendingPathComponent("config/rates")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("config.json")
    try Data("{nope".utf8).write(to: file)
    let result = await rates.run(["config", "set", "currency", "EUR"])
    expectEqual(result.status, 74)
    expectContains(result.stderr, file.path)
    expectEqual(try Data(contentsOf: file), Data("{nope".utf8))
  }
}
