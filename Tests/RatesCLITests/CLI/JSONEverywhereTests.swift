import Foundation
import RateCore
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// `--json` prints one JSON document on stdout, or refuses with a usage error (64).
@Suite struct JSONEverywhereTests {
  static func document(_ text: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
  }

  /// Before: each printed plain text (a path, the help, `rates 1.x`) with exit 0.
  @Test(arguments: [
    ["config", "path", "--json"], ["help", "--json"], ["help", "history", "--json"],
    ["history", "--help", "--json"], ["--help", "--json"], ["--version", "--json"],
  ])
  func printsJSON(_ arguments: [String]) async throws {
    let result = try await CLIHarness.run(arguments)
    expectEqual(result.status, 0, "\(result.stderr)")
    let document = try require(Self.document(result.stdout), "\(arguments): \(result.stdout)")
    expectEqual(document["version"] as? Int, 2)
  }

  @Test func helpAndVersionDocumentsHoldTheirText() async throws {
    let help = try await CLIHarness.run(["help", "history", "--json"])
    let document = try require(Self.document(help.stdout))
    expectEqual(document["command"] as? String, "rates history")
    expectEqual((document["help"] as? String)?.contains("--days"), true)
    let version = try await CLIHarness.run(["--version", "--json"])
    expectEqual(Self.document(version.stdout)?["rates"] as? String, RatesVersion.current)
    let path = try await CLIHarness.run(["config", "path", "--json"])
    expectEqual((Self.document(path.stdout)?["path"] as? String)?.hasSuffix("rates/config.json"), true)
  }

  /// Before: `ledger export --csv --json` wrote CSV and `completions bash --json` a script,
  /// both with exit 0.
  @Test(arguments: [
    ["ledger", "export", "--csv", "--json"], ["completions", "bash", "--json"],
    ["completions", "zsh", "--json"],
  ])
  func refusesWithAUsageError(_ arguments: [String]) async throws {
    let result = try await CLIHarness.run(arguments)
    expectEqual(result.status, 64, "\(arguments)")
    expect(result.stdout.isEmpty, "\(result.stdout)")
    let error = try require(Self.document(result.stderr)?["error"] as? [String: Any])
    expectEqual((error["message"] as? String)?.contains("--json is not available"), true)
  }

  /// Before: each printed a plain-text error and the whole usage (the global options threw
  /// before `--json` was recorded).
  @Test(arguments: [
    ["--json", "--format", "csv", "current", "btc"],
    ["current", "btc", "--format", "ledger", "--json"],
    ["--json", "--offline", "--refresh", "current", "btc"],
    ["--format", "json", "--offline", "--refresh", "current", "btc"],
    ["current", "btc", "--refresh", "--offline", "--json"],
    ["--json", "--format", "xml", "current", "btc"],
    ["--json", "--provider", "nope", "current", "btc"],
    ["--json", "--no-color=yes", "current", "btc"],
    ["--json", "--ascii=1", "current", "btc"],
    ["--json", "--offline=1", "current", "btc"],
    ["--json", "--refresh=no", "current", "btc"],
    ["current", "btc", "--json", "--provider"],
  ])
  func globalOptionErrorsAreJSON(_ arguments: [String]) async throws {
    let result = try await CLIHarness.run(arguments)
    expectEqual(result.status, 64, "\(arguments): \(result.stderr)")
    expect(result.stdout.isEmpty, "\(result.stdout)")
    expect(!result.stderr.contains("usage:"), "\(arguments): \(result.stderr)")
    let document = try require(Self.document(result.stderr), "\(arguments): \(result.stderr)")
    let error = try require(document["error"] as? [String: Any])
    expectEqual(error["exitCode"] as? Int, 64)
    expectEqual((error["message"] as? String)?.isEmpty, false)
  }

  /// Before: the timeout was the string "10"; it is the number 10.
  @Test func configValuesKeepTheirTypes() async throws {
    let shown = try await CLIHarness.run(["config", "--json"], environment: ["RATES_TIMEOUT": "30"])
    let settings = try require(Self.document(shown.stdout)?["settings"] as? [[String: Any]])
    let timeout = try require(settings.first { $0["key"] as? String == "timeout" })
    expectEqual(timeout["value"] as? Int, 30)
    expect(!(timeout["value"] is String))
    let currency = try require(settings.first { $0["key"] as? String == "currency" })
    expect(currency["value"] is String || currency["value"] is NSNull)

    let harness = try CLIHarness()
    let set = await harness.run(["config", "set", "timeout", "25", "--json"])
    expectEqual(set.status, 0, "\(set.stderr)")
    expectEqual(Self.document(set.stdout)?["value"] as? Int, 25)
  }
}
