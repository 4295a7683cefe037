import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `RatesCLI` in process: parsing, help, usage errors and exit codes, with
/// a transport that fails the test if it is ever used.
@Suite struct RatesCLITests {
  func run(_ arguments: [String], environment: [String: String] = [:]) async throws
    -> CommandResult
  {
    try await CLIHarness.run(arguments, environment: environment, transport: .unexpected())
  }

  @Test func versionAndHelpGoToStdout() async throws {
    let version = try await run(["--version"])
    expectEqual(version.status, 0)
    expectEqual(version.stdout, "rates \(RatesVersion.current)\n")

    let help = try await run(["--help"])
    expectEqual(help.status, 0)
    expectContains(help.stdout, "usage: rates")
    for code in ExitCode.allCases { expectContains(help.stdout, "\(code.rawValue)") }
    expect(help.stderr.isEmpty)

    for arguments in [["history", "--help"], ["help", "history"], ["history", "-h", "BTC"]] {
      let commandHelp = try await run(arguments)
      expectEqual(commandHelp.status, 0)
      expectContains(commandHelp.stdout, "usage: rates history <BASE>")
      expectContains(commandHelp.stdout, "Examples:")
    }
  }

  struct UsageCase: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let usageCases: [UsageCase] = [
    .init(arguments: ["history", "BTC", "--x"], message: "error: unknown option '--x'"),
    .init(arguments: ["histroy", "BTC"], message: "did you mean 'history'"),
    .init(arguments: ["history"], message: "missing argument <base>"),
    .init(arguments: ["history", "BTC", "--days", "0"], message: "expected a whole number from 1 to 365"),
    .init(arguments: ["history", "BTC", "--days", "abc"], message: "the value 'abc' is invalid for '--days'"),
    .init(arguments: ["history", "BTC", "--days"], message: "missing value for '--days'"),
    .init(arguments: ["history", "BTC", "EUR", "extra"], message: "unexpected argument 'extra'"),
    .init(arguments: ["history", "BTC", "BTC"], message: "BTC in BTC is always 1"),
    .init(arguments: ["history", "BTC", "E1"], message: "not a currency code"),
    .init(arguments: ["history", "BTC", "--chart", "--table"], message: "cannot be used together"),
    .init(arguments: ["history", "BTC", "--provider", "nope"], message: "expected coingecko, coindesk, frankfurter"),
    .init(arguments: ["current", "--in", "EURO!"], message: "invalid for '--in'"),
    .init(arguments: ["current", "--offline", "--refresh"], message: "cannot be used together"),
    .init(arguments: ["--json=1", "current"], message: "does not take a value"),
  ]

  @Test(arguments: usageCases)
  func usageErrorsExit64WithUsage(_ usageCase: UsageCase) async throws {
    let result = try await run(usageCase.arguments)
    expectEqual(result.status, 64)
    expectContains(result.stderr, usageCase.message, "\(result.stderr)")
    expectContains(result.stderr, "usage: rates")
    expect(result.stdout.isEmpty)
  }

  @Test func usageErrorsAsJSON() async throws {
    let result = try await run(["history", "BTC", "--days", "999", "--json"])
    expectEqual(result.status, 64)
    let object = try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any]
    let error = try require(object?["error"] as? [String: Any])
    expectEqual(error["code"] as? String, "usage")
    expectEqual((error["message"] as? String)?.contains("--days"), true)
  }

  @Test func badEnvironmentIsAUsageError() async throws {
    let url = try await run(["current"], environment: ["RATES_COINGECKO_URL": "ftp://x"])
    expectEqual(url.status, 64)
    expectContains(url.stderr, "RATES_COINGECKO_URL")
    let timeout = try await run(["current"], environment: ["RATES_TIMEOUT": "0.5"])
    expectEqual(timeout.status, 64)
  }

  @Test func everythingAfterDoubleDashIsPositional() async throws {
    // `--json` after `--` is the quote currency, not the flag.
    let result = try await run(["history", "BTC", "--", "--json"])
    expectEqual(result.status, 64)
    expect(result.stderr.hasPrefix("error: '--json' is not a currency code"))
  }

  @Test func defaultQuoteComesFromTheEnvironment() throws {
    func parse(_ scanner: inout ArgumentScanner, defaultQuote: String) throws -> PairArguments {
      try PairArguments(
        parsing: &scanner, base: HistoryCommand.declared.base, quote: HistoryCommand.declared.quote,
        defaultQuote: defaultQuote)
    }
    var scanner = ArgumentScanner(["BTC"])
    let pair = try parse(&scanner, defaultQuote: "gbp")
    expectEqual(pair, PairArguments(base: "BTC", quote: "GBP"))
    var dashed = ArgumentScanner(["eth-eur"])
    expectEqual(try parse(&dashed, defaultQuote: "USD"), .init(base: "eth", quote: "EUR"))
    for id in ["usd-coin", "binance-usd", "ethereum-wormhole"] {
      var scanner = ArgumentScanner([id])
      expectEqual(try parse(&scanner, defaultQuote: "EUR"), .init(base: id, quote: "EUR"))
    }
    var slashed = ArgumentScanner(["kaspa/usd"])
    expectEqual(try parse(&slashed, defaultQuote: "EUR"), .init(base: "kaspa", quote: "USD"))
    var id = ArgumentScanner(["ethereum-wormhole", "usd"])
    expectEqual(try parse(&id, defaultQuote: "EUR"), .init(base: "ethereum-wormhole", quote: "USD"))
  }
}
