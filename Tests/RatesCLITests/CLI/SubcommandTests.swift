import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Actions as nested commands, in process: dispatch, did-you-mean, help and the errors
/// that name the action. Nothing here reaches the network or a data file.
@Suite struct SubcommandTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  func run(_ arguments: [String]) async throws -> Run {
    let out = Recorder<String>()
    let err = Recorder<String>()
    let home = try scratch.folder()
    let context = CommandContext(
      environment: ["HOME": home.path, "XDG_DATA_HOME": home.path + "/data"],
      now: { fixedNow }, sleep: { _ in },
      makeTransport: { _ in
        HTTPTransport { _ in
          Issue.record("no request expected")
          throw HTTPError.cannotConnect(host: "nowhere")
        }
      },
      writeOut: { out.append($0) }, writeErr: { err.append($0) },
      terminal: { noColor, ascii in
        TerminalCapabilities.decide(
          isTTY: false, windowWidth: nil, environment: [:], noColorFlag: noColor, asciiFlag: ascii)
      })
    let status = await RatesCLI.run(arguments, context: context)
    return Run(status: status, stdout: out.all.joined(), stderr: err.all.joined())
  }

  @Test func anUnknownActionSuggestsTheClosestAndShowsTheUsage() async throws {
    let result = try await run(["ledger", "ad", "1", "USD", "2", "EUR", "--sell"])
    expectEqual(result.status, 64)
    expect(
      result.stderr.hasPrefix(
        "error: unknown action 'ad' for 'rates ledger' (did you mean 'add'?)\n"
          + "usage: rates ledger [list] "))
    expect(
      result.stderr.contains(
        "\n       rates ledger import <FILE> [<FILE> ...] [--from FORMAT] [--skip-unknown] [--dry-run]\n"))
    expect(result.stderr.hasSuffix("See 'rates ledger --help'.\n"))
    expect(result.stdout.isEmpty)

    let far = try await run(["cache", "frobnicate"])
    expectEqual(far.status, 64)
    expect(far.stderr.hasPrefix("error: unknown action 'frobnicate' for 'rates cache'\n"))
  }

  @Test func theActionMayFollowOptionsAndTheirValues() async throws {
    let typo = try await run(["ledger", "--days", "5", "rat", "USD", "LBP"])
    expect(
      typo.stderr.hasPrefix("error: unknown action 'rat' for 'rates ledger' (did you mean 'rate'?)")
    )
    let favorites = try await run(["favorites", "--in", "EUR", "ad", "BTC"])
    expectContains(favorites.stderr, "did you mean 'add'?")
  }

  @Test(arguments: [
    ["ledger", "add", "--help"], ["help", "ledger", "add"], ["ledger", "add", "-h", "1"],
  ])
  func anActionHasItsOwnHelp(_ arguments: [String]) async throws {
    let result = try await run(arguments)
    expectEqual(result.status, 0)
    expect(result.stdout.hasPrefix("rates ledger add: record an exchange"))
    expectContains(result.stdout, "\nusage: rates ledger add <AMOUNT> <CURRENCY>")
    expectContains(result.stdout, "\nOptions:\n  --sell ")
    expect(!result.stdout.contains("--with-anyone"))
  }

  @Test func aCommandWithActionsListsThem() async throws {
    for arguments in [["ledger", "--help"], ["help", "ledger"], ["ledger", "ad", "--help"]] {
      let result = try await run(arguments)
      expectEqual(result.status, 0, "\(arguments)")
      expect(result.stdout.hasPrefix("rates ledger: "))
      expectContains(result.stdout, "\nActions:\n  list, ls            your exchanges")
      expectContains(result.stdout, " default)\n")
      expectContains(result.stdout, "See 'rates ledger <action> --help'")
    }
    let unknown = try await run(["help", "ledger", "ad"])
    expectEqual(unknown.status, 64)
    expectContains(unknown.stderr, "did you mean 'add'?")
  }

  @Test func optionsOfAnotherActionAndFormatsItCannotWrite() async throws {
    let csv = try await run(["ledger", "add", "1", "USD", "2", "EUR", "--sell", "--csv"])
    expectEqual(csv.status, 64)
    expect(
      csv.stderr.hasPrefix(
        "error: '--csv' does not apply to 'rates ledger add': see 'rates ledger --help'\n"
          + "usage: rates ledger add "))
    expect(csv.stderr.hasSuffix("See 'rates ledger add --help'.\n"))
    let format = try await run(["ledger", "rate", "USD", "LBP", "--format", "csv"])
    expectEqual(format.status, 64)
    expect(format.stderr.hasPrefix("error: --format csv is only for 'rates ledger list'\n"))
    let other = try await run(["pairs", "add", "GBP", "USD", "--limit", "3"])
    expect(other.stderr.hasPrefix("error: unknown option '--limit'\n"))
  }
}
