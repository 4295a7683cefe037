import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Issue 34: every command reads the same words the same way. Days are `YYYY-MM-DD`, `today`
/// or `yesterday` for every option that takes one; adding, removing and clearing what is
/// already so is a note and exit 0; a name given many times counts once.
@Suite struct ArgumentGrammarTests {
  /// Every option declared as a day, by the command that declares it (from the declarations,
  /// so an option added later is covered).
  static let dayOptions: [(words: String, option: String)] = CommandTree.leaves.flatMap { path in
    path.last.options.filter(\.takesDay).map { (path.words, $0.name) }
  }

  /// An option whose value reads like a day is declared as one, so the list above is whole.
  @Test func everyDateLikeOptionIsDeclaredAsADay() {
    for path in CommandTree.leaves {
      for option in path.last.options where option.valueName?.contains("YYYY") == true {
        expect(option.takesDay, "\(path.fullName) \(option.name)")
      }
    }
    expect(Self.dayOptions.count >= 9, "\(Self.dayOptions)")
  }

  /// A command line of `words` with `option yesterday`: the first example that parses with it
  /// (and with the day options it needs, also `yesterday`).
  static func commandLine(_ words: String, _ option: String) throws -> [String] {
    let path = try DeclarationAgreementTests.path(words)
    let needed = path.last.requirements.filter { $0.option.spec.name == option }
      .flatMap(\.others).filter(\.spec.takesDay).flatMap { [$0.spec.name, "yesterday"] }
    let candidates = path.last.examples.map {
      DeclarationAgreementTests.arguments(ofExample: $0)
        .filter { $0 != "--chart" && $0 != "--interactive" } + [option, "yesterday"] + needed
    }
    // One that parses; else the first, so that the run shows how it is refused.
    return candidates.first { (try? DeclarationAgreementTests.parse($0)) != nil } ?? candidates[0]
  }

  @Test(arguments: dayOptions.map { "\($0.words)|\($0.option)" })
  func everyDayOptionTakesYesterday(_ pair: String) async throws {
    let parts = pair.split(separator: "|").map(String.init)
    let arguments = try Self.commandLine(parts[0], parts[1])
    let (cli, _) = try CLIHarness.withFakeAPI()
    let result = await cli.run(arguments)
    expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
    // The same words in any case, and today, are the same day everywhere.
    let shouted = await cli.run(arguments.map { $0 == "yesterday" ? "YESTERDAY" : $0 })
    expectEqual(shouted.status, 0, "\(arguments): \(shouted.stderr)")
  }

  @Test func aBadDayNamesTheFormsEveryDayOptionTakes() async throws {
    let (cli, api) = try CLIHarness.withFakeAPI()
    for arguments in [
      ["history", "BTC", "EUR", "--date", "tomorow"], ["convert", "1", "EUR", "USD", "--date", "x"],
    ] {
      let result = await cli.run(arguments)
      expectEqual(result.status, 64)
      expectContains(result.stderr, "a date written YYYY-MM-DD, or 'today' or 'yesterday'")
    }
    expectEqual(api.requestCount, 0)
  }

  /// Each change run twice: the second finds it already so, says so in one note, exits 0.
  @Test(arguments: [
    ["coins", "add", "BTC"], ["coins", "remove", "BTC"], ["favorites", "add", "ETH"],
    ["favorites", "remove", "ETH"], ["pairs", "add", "GBP", "USD"], ["pairs", "remove", "GBP-USD"],
    ["cache", "clear"], ["cache", "clear", "EUR-USD"], ["cache", "verify", "EUR-USD", "--fix"],
    ["ledger", "remove", "1"], ["config", "unset", "currency"],
  ])
  func changingTwiceExitsZeroWithOneNote(_ arguments: [String]) async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    // Something to remove first, for the removes.
    for setup in [
      ["coins", "add", "BTC"], ["favorites", "add", "ETH"], ["pairs", "add", "GBP", "USD"],
      ["ledger", "add", "1", "USD", "2", "EUR", "--sell"], ["config", "set", "currency", "EUR"],
    ] {
      expectEqual(await cli.run(setup).status, 0, "\(setup)")
    }
    let first = await cli.run(arguments)
    expectEqual(first.status, 0, "\(arguments): \(first.stderr)")
    let second = await cli.run(arguments)
    expectEqual(second.status, 0, "\(arguments) again: \(second.stderr)")
    let notes = second.stderr.split(separator: "\n")
    expect(notes.count <= 1 && notes.allSatisfy { $0.hasPrefix("note: ") }, "\(second.stderr)")
  }

  /// A name given many times is one name: one change, one line.
  @Test func aRepeatedNameIsReportedOnce() async throws {
    let (cli, api) = try CLIHarness.withFakeAPI()
    expectEqual(await cli.run(["coins", "add", "BTC"]).status, 0)
    let requests = api.requestCount
    let removed = await cli.run(["coins", "remove"] + Array(repeating: "BTC", count: 2_000) + ["btc"])
    expectEqual(removed.status, 0)
    expectEqual(removed.stdout, "Removed BTC (bitcoin) from your coins.\n")
    expect(removed.stderr.isEmpty)
    let again = await cli.run(["coins", "remove"] + Array(repeating: "BTC", count: 2_000))
    expectEqual(again.stderr, "note: 'btc' is not one of your coins (you have none)\n")
    let added = await cli.run(["favorites", "add"] + Array(repeating: "ETH", count: 50))
    expectEqual(added.stdout, "Added ETH (ethereum) to your favorites.\n")
    expect(api.requestCount - requests <= 2, "one check for ETH, not fifty")
    let ledger = await cli.run(["ledger", "remove", "7", "7", "#7"])
    expectEqual(ledger.stderr, "note: #7 is not in your ledger (see 'rates ledger list')\n")
  }

  /// Importing your own export adds nothing, and says how many it skipped.
  @Test func exportThenImportAddsNothing() async throws {
    let cli = try CLIHarness()
    for entry in [
      ["ledger", "add", "100", "USD", "8950000", "LBP", "--sell", "--with", "Abu Ali"],
      ["ledger", "add", "100", "USD", "8950000", "LBP", "--sell", "--with", "Abu Ali"],
      ["ledger", "add", "0.5", "BTC", "--deposit", "--cost", "20000 USD", "--date", "yesterday"],
      ["ledger", "add", "0.1", "BTC", "--withdraw", "--note", "to cold storage"],
    ] {
      expectEqual(await cli.run(entry).status, 0, "\(entry)")
    }
    let export = await cli.run(["ledger", "export"])
    expectEqual(export.status, 0, "CSV is the default: \(export.stderr)")
    expect(export.stdout.hasPrefix("id,date,side,amount,currency,"))
    expectEqual(await cli.run(["ledger", "export", "--csv"]).stdout, export.stdout)
    let file = cli.home.appendingPathComponent("mine.csv")
    try Data(export.stdout.utf8).write(to: file)
    let before = await cli.run(["ledger", "list", "--json"]).stdout
    let imported = await cli.run(["ledger", "import", file.path, "--json"])
    expectEqual(imported.status, 0, "\(imported.stderr)")
    expectEqual(imported.stderr, "note: skipped 4 exchanges already in the ledger\n")
    let document = try imported.json()
    expectEqual((document["added"] as? [Any])?.isEmpty, true)
    expectEqual((document["unchanged"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }.sorted(), [1, 2, 3, 4])
    expectEqual(await cli.run(["ledger", "list", "--json"]).stdout, before)
  }

  /// `config unset --json` is docs/json.md's `configChange`, the key named and its value null.
  @Test func configUnsetPrintsAConfigChange() async throws {
    let cli = try CLIHarness()
    expectEqual(await cli.run(["config", "set", "currency", "EUR"]).status, 0)
    for result in ["unset currency", "currency was not set"] {
      let unset = await cli.run(["config", "unset", "currency", "--json"])
      let document = try unset.json()
      expectEqual(document["key"] as? String, "currency")
      expectEqual(document["result"] as? String, result)
      expect(document.keys.contains("value") && document["value"] is NSNull)
    }
  }

  /// `--ascii` means ASCII: the dash of a missing value too, and the list's filters name the
  /// counterparty as its entries do.
  @Test func ledgerListIsASCIIAndNamesTheCounterpartyOnce() async throws {
    let cli = try CLIHarness()
    expectEqual(await cli.run(["ledger", "add", "1", "USD", "2", "EUR", "--sell"]).status, 0)
    let list = await cli.run(["ledger", "list", "--ascii"])
    expectEqual(list.status, 0)
    expect(list.stdout.utf8.allSatisfy { $0 < 0x80 }, "\(list.stdout)")
    let named = try await cli.run(["ledger", "list", "--with", "Abu Ali", "--json"]).json()
    let filters = try require(named["filters"] as? [String: Any])
    expectEqual(filters["counterparty"] as? String, "Abu Ali")
    expectEqual(filters["anyCounterparty"] as? Bool, false)
    expect(filters["with"] == nil)
  }

  /// `base` is the upper-case symbol whatever the user typed (a coin by its id, a symbol in
  /// lower case), the same in every command (docs/json.md).
  @Test(arguments: [
    ["convert", "1", "solana", "USD"], ["convert", "1", "sol", "USD"], ["current", "solana"],
    ["history", "solana", "USD"],
  ])
  func aCoinGivenByIdIsShownByItsSymbol(_ arguments: [String]) async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    let result = await cli.run(arguments + ["--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let document = try result.json()
    let base = document["base"] ?? (document["quotes"] as? [[String: Any]])?.first?["base"]
    expectEqual(base as? String, "SOL", "\(arguments)")
  }
}

/// A currency code is taken as typed on the command line: one with spaces around it is
/// refused, with the word quoted as typed, whichever command reads it; a comma list of codes
/// (`--in 'EUR, GBP'`) is split and each item trimmed. And a second word where one is
/// expected is named as such before the first is judged.
@Suite struct TypedCodeTests {
  @Test(arguments: [
    (["history", "BTC", " EUR "], "' EUR ' is not a currency code"),
    (["stats", "BTC", " EUR"], "' EUR' is not a currency code"),
    (["pairs", "add", "CHF", " usd"], "' usd' is not a currency code"),
    (["cache", "clear", "EUR", "USD"], "unexpected argument 'USD'"),
    (["cache", "verify", "EUR", "USD"], "unexpected argument 'USD'"),
  ])
  func aWordIsJudgedAsTyped(arguments: [String], message: String) async throws {
    let (cli, api) = try CLIHarness.withFakeAPI()
    let result = await cli.run(arguments)
    expectEqual(result.status, 64, "\(result.stdout)")
    expectContains(result.stderr, message, "\(result.stderr)")
    expectEqual(api.requestCount, 0)
  }

  @Test func aListOfCodesIsTrimmedItemByItem() async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    let result = await cli.run(["top", "--in", "eur, gbp", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
  }
}
