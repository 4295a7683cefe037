import Foundation
import RateCore
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

/// Every command's `--json` output checked against its shape in docs/json.md:
/// a renamed, retyped, missing or extra key fails here.
@Suite struct JSONContractTests {
  /// One command run and the shape (a ```shape block of docs/json.md) its output must have.
  struct Case: CustomTestStringConvertible, Sendable {
    var shape: String
    var arguments: [String]
    /// Commands run first in the same home (a favorite, a pair, a ledger entry).
    var setup: [[String]] = []
    /// NDJSON: every line is checked.
    var lines = false
    /// The document is on stderr (errors).
    var stderr = false
    var testDescription: String { shape }
  }

  static let ledgerEntry = ["ledger", "add", "100", "USD", "8950000", "LBP", "--sell", "--with", "Ali"]

  static let cases: [Case] = [
    Case(shape: "history", arguments: ["history", "BTC", "EUR", "--days", "5", "--json"]),
    Case(shape: "history", arguments: ["history", "GBP", "USD", "--days", "5", "--json"]),
    Case(shape: "day", arguments: ["history", "EUR", "USD", "--date", "2019-03-17", "--json"]),
    Case(shape: "hourly", arguments: ["history", "BTC", "EUR", "--days", "3", "--interval", "hourly", "--json"]),
    Case(shape: "hourly", arguments: ["stats", "BTC", "EUR", "--days", "3", "--interval", "hourly", "--json"]),
    Case(shape: "stats", arguments: ["stats", "BTC", "EUR", "--days", "30", "--json"]),
    Case(shape: "current", arguments: ["current", "BTC", "GBP-USD", "--in", "EUR", "--json"]),
    Case(shape: "convert", arguments: ["convert", "100", "USD", "EUR,BTC", "--json"]),
    Case(shape: "market", arguments: ["top", "--limit", "2", "--in", "EUR,USD", "--json"]),
    Case(
      shape: "market", arguments: ["favorites", "--in", "EUR", "--json"],
      setup: [["favorites", "add", "BTC"]]),
    Case(shape: "change", arguments: ["favorites", "add", "ETH", "--json"]),
    Case(shape: "market", arguments: ["coins", "--in", "EUR", "--json"], setup: [["coins", "add", "BTC"]]),
    Case(shape: "change", arguments: ["coins", "add", "ETH", "--json"]),
    Case(shape: "change", arguments: ["coins", "remove", "BTC", "--json"], setup: [["coins", "add", "BTC"]]),
    Case(
      shape: "change", arguments: ["favorites", "remove", "BTC", "--json"], setup: [["favorites", "add", "BTC"]]),
    Case(shape: "pairs", arguments: ["pairs", "--json"], setup: [["pairs", "add", "GBP", "USD"]]),
    Case(
      shape: "change", arguments: ["pairs", "remove", "GBP", "USD", "--json"], setup: [["pairs", "add", "GBP", "USD"]]),
    Case(shape: "change", arguments: ["pairs", "add", "GBP", "USD", "--json"]),
    Case(shape: "search", arguments: ["search", "eth", "--json"]),
    Case(shape: "info", arguments: ["info", "BTC", "--in", "EUR", "--days", "7", "--json"]),
    Case(shape: "currencies", arguments: ["currencies", "--json"]),
    Case(shape: "currencies", arguments: ["currencies", "--crypto", "--json"]),
    Case(
      shape: "watch", arguments: ["watch", "BTC", "GBP-USD", "--every", "1", "--count", "1", "--json"],
      lines: true),
    Case(shape: "ledgerList", arguments: ["ledger", "list", "--json"], setup: [ledgerEntry]),
    Case(shape: "ledgerChange", arguments: ledgerEntry + ["--json"]),
    Case(shape: "ledgerChange", arguments: ["ledger", "remove", "1", "--json"], setup: [ledgerEntry]),
    Case(
      shape: "ledgerImport",
      arguments: [
        "ledger", "import", "--from", "auto", "--json",
        Fixtures.url("real/exchanges/kraken/ledgers_old10_trade_buy_DOT_fee_on_both_legs__PP-Crypto-Parser-test.csv")
          .path,
      ]),
    Case(shape: "ledgerRate", arguments: ["ledger", "rate", "USD", "LBP", "--json"], setup: [ledgerEntry]),
    Case(
      shape: "ledgerStats", arguments: ["stats", "USD", "LBP", "--ledger", "--days", "7", "--json"],
      setup: [ledgerEntry]),
    Case(
      shape: "ledgerDailyStats", arguments: ["ledger", "stats", "USD", "LBP", "--json"],
      setup: [ledgerEntry]),
    Case(
      shape: "portfolio", arguments: ["portfolio", "--in", "EUR", "--json"],
      setup: [ledgerEntry, ["ledger", "add", "0.5", "BTC", "--deposit", "--cost", "20000 USD"]]),
    Case(
      shape: "ledgerList", arguments: ["ledger", "list", "--json"],
      setup: [["ledger", "add", "0.5", "BTC", "--deposit"]]),
    Case(
      shape: "portfolioHistory", arguments: ["portfolio", "history", "--days", "3", "--json"],
      setup: [["ledger", "add", "0.5", "BTC", "--deposit", "--date", "yesterday"]]),
    Case(
      shape: "portfolioGains", arguments: ["portfolio", "gains", "--in", "EUR", "--json"],
      setup: [
        ["ledger", "add", "0.5", "BTC", "--deposit", "--date", "2024-01-02"],
        ["ledger", "add", "0.1", "BTC", "6000", "EUR", "--sell", "--date", "2024-06-01"],
      ]),
    Case(shape: "doctor", arguments: ["doctor", "--json"]),
    Case(shape: "doctor", arguments: ["doctor", "--json"], setup: [["current", "BTC", "--json"]]),
    Case(
      shape: "history",
      arguments: ["history", "BTC", "USD", "--from", "2016-01-01", "--to", "2016-01-31", "--json"]),
    Case(shape: "cache", arguments: ["cache", "info", "--json"], setup: [["history", "GBP", "USD"]]),
    Case(shape: "cache", arguments: ["cache", "clear", "--json"], setup: [["history", "GBP", "USD"]]),
    Case(
      shape: "cache", arguments: ["cache", "clear", "GBP-USD", "--json"],
      setup: [["history", "GBP", "USD"]]),
    Case(
      shape: "cacheVerify", arguments: ["cache", "verify", "--json"],
      setup: [["history", "GBP", "USD", "--days", "10"]]),
    Case(shape: "config", arguments: ["config", "--json"]),
    Case(shape: "configPath", arguments: ["config", "path", "--json"]),
    Case(shape: "configChange", arguments: ["config", "set", "currency", "EUR", "--json"]),
    Case(shape: "help", arguments: ["help", "history", "--json"]),
    Case(shape: "version", arguments: ["--version", "--json"]),
    Case(shape: "error", arguments: ["history", "BTC", "EUX", "--json"], stderr: true),
    Case(shape: "error", arguments: ["history", "--bogus", "--json"], stderr: true),
  ]

  @Test(arguments: cases)
  func matchesTheDocumentedShape(_ test: Case) async throws {
    let shapes = try JSONShapes.documented()
    let (rates, _) = try CLIHarness.withFakeAPI()
    for step in test.setup { _ = await rates.run(step) }
    let result = await rates.run(test.arguments)
    expect((result.status == 0) != test.stderr, "\(result.stderr)")
    let output = test.stderr ? result.stderr : result.stdout
    let texts = test.lines ? output.split(separator: "\n").map(String.init) : [output]
    expect(!texts.isEmpty)
    for text in texts {
      let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
      let problems = shapes.check(value, against: .shape(test.shape), at: test.shape)
      expect(problems.isEmpty, "\(test.arguments.joined(separator: " ")):\n\(problems.joined(separator: "\n"))")
      expectEqual((value as? [String: Any])?["version"] as? Int, 2)
    }
  }

  /// The checker itself: a renamed, retyped, missing or extra key is reported.
  @Test func theCheckerCatchesARenamedOrRetypedKey() throws {
    let shapes = try JSONShapes.parse(
      "```shape Q\nrate: number|null\nchangePeriod: period\nold?: bool\n```\n")
    expect(shapes.check(["rate": 1.5, "changePeriod": "1d"], against: .shape("Q"), at: "").isEmpty)
    expect(shapes.check(["rate": NSNull(), "changePeriod": "24h", "old": true], against: .shape("Q"), at: "").isEmpty)
    expect(!shapes.check(["price": 1.5, "changePeriod": "1d"], against: .shape("Q"), at: "").isEmpty)
    expect(!shapes.check(["rate": "1.5", "changePeriod": "1d"], against: .shape("Q"), at: "").isEmpty)
    expect(!shapes.check(["rate": 1.5, "changePeriod": "7d"], against: .shape("Q"), at: "").isEmpty)
  }

  /// Every shape the tests name, and every shape a shape refers to, is in docs/json.md.
  @Test func everyCaseNamesADocumentedShape() throws {
    let shapes = try JSONShapes.documented()
    for test in Self.cases { expect(shapes.shapes[test.shape] != nil, "\(test.shape)") }
    expect(shapes.shapes.count > 30)
  }
}

/// The values the shapes cannot see: the true change period and `inTop`.
@Suite struct JSONVocabularyValueTests {
  /// Before: the ECB's one-working-day change was `change24hPercent`, with no period.
  @Test func everyChangeIsLabelledWithItsTruePeriod() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["current", "BTC", "GBP-USD", "--in", "EUR", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let quotes = try require(try result.json()["quotes"] as? [[String: Any]])
    let periods = Dictionary(
      uniqueKeysWithValues: quotes.map { ("\($0["base"] ?? "")-\($0["quote"] ?? "")", $0["changePeriod"] as? String) })
    expectEqual(periods, ["BTC-EUR": "24h", "GBP-USD": "1d"])
    let watch = await rates.run(["watch", "GBP-USD", "--every", "1", "--count", "1", "--json"])
    let line = try require(try watch.jsonLines().first)
    expectEqual(line["changePeriod"] as? String, "1d")
  }

  /// Before: `favorites --json` said `"inTop": false` for Bitcoin, rank 1.
  @Test func favoritesSaysTheRankOneCoinIsInTheTop() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    _ = await rates.run(["favorites", "add", "BTC"])
    let result = await rates.run(["favorites", "--in", "EUR", "--json"])
    let coins = try require(try result.json()["coins"] as? [[String: Any]])
    expectEqual(coins.first?["rank"] as? Int, 1)
    expectEqual(coins.first?["inTop"] as? Bool, true)
  }
}

/// Help text that names JSON keys names the version 2 ones (review of issue 15: `watch
/// --help` promised `change24hPercent` on every NDJSON line).
@Suite struct HelpNamesVersion2KeysTests {
  @Test func watchHelpNamesTheNDJSONKeys() async throws {
    let rates = try CLIHarness()
    let help = await rates.run(["watch", "--help"])
    expectEqual(help.status, 0)
    let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    expect(!text.contains("change24hPercent"), "\(text)")
    for key in ["changePercent", "changePeriod", "version"] {
      expectContains(text, key, "\(key): \(text)")
    }
  }
}
