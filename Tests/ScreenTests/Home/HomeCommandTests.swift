import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates ui` in process: it needs a terminal on both ends (the pseudo-terminal runs are
/// in `HomeEndToEndTests`), and its currencies.
@Suite struct HomeCommandTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  static let needsTerminal =
    "error: rates ui needs a terminal on stdin and stdout: run it in one"
    + " (in scripts: rates top, rates current or rates watch)\n"

  @Test(arguments: [false, true])
  func withoutATerminalOnStdinItSaysSoInOneLineAndExits64(stdoutIsTTY: Bool) async throws {
    let harness = try CLIHarness()
    let result = await harness.run(["ui"], isTTY: stdoutIsTTY)
    expectEqual(result.status, 64)
    expectEqual(result.stderr, Self.needsTerminal)
    expect(result.stdout.isEmpty)
  }

  @Test func bareRatesWithoutATerminalOnStdinStillPrintsHelp() async throws {
    let harness = try CLIHarness()
    let piped = await harness.run([], isTTY: false)
    expectEqual(piped.status, 0)
    expectContains(piped.stdout, "usage: rates [options] <command>")
    let onTerminal = await harness.run([], isTTY: true)
    expectEqual(onTerminal.status, 0)
    expectContains(onTerminal.stdout, "Exit codes:")
    expectContains(onTerminal.stdout, "  ui ")
  }

  @Test func helpListsTheKeysAndJSONIsRefused() async throws {
    let harness = try CLIHarness()
    let help = await harness.run(["ui", "--help"])
    expectEqual(help.status, 0)
    for part in ["Ctrl-C", "Ctrl-Z", "--in LIST", "rates ui --in EUR,USD,GBP", "Needs a terminal"] {
      expectContains(help.stdout, part, "\(part): \(help.stdout)")
    }
    let json = await harness.run(["ui", "--json"])
    expectEqual(json.status, 64)
    expectContains(json.stderr, "--json is not available for 'rates ui'")
  }

  @Test(arguments: [
    ([String](), "USD", ["USD", "EUR"]), ([], "EUR", ["EUR", "USD"]),
    ([], "GBP", ["GBP", "USD", "EUR"]),
    (["eur,gbp"], "USD", ["EUR", "GBP"]), (["JPY", "USD"], "GBP", ["JPY", "USD"]),
  ])
  func currenciesAreTheGivenOnesElseTheDefaultThenUSDAndEUR(
    given: [String], fallback: String, expected: [String]
  ) throws {
    expectEqual(try HomeCommand.currencyList(given: given, default: fallback), expected)
  }

  @Test func aBadCurrencyIsAUsageError() async throws {
    #expect(throws: UsageError.self) { try HomeCommand.currencyList(given: ["E1"], default: "USD") }
    let harness = try CLIHarness()
    let result = await harness.run(["ui", "--in", "12"])
    expectEqual(result.status, 64)
    expectContains(result.stderr, "--in")
  }

  @Test(arguments: ["0", "1001", "ten"])
  func aLimitOutside1To1000IsAUsageError(limit: String) async throws {
    let harness = try CLIHarness()
    let result = await harness.run(["ui", "--limit", limit], isTTY: true)
    expectEqual(result.status, 64)
    expectEqual(result.stderr.split(separator: "\n").first?.contains("--limit"), true, "\(result.stderr)")
  }

  @Test func theTraceWritesOneLinePerFrameToItsFileOnly() throws {
    let directory = try scratch.folder()
    let path = directory.appendingPathComponent("trace").path
    expect(HomeCommand.tracer(environment: [:]) == nil)
    let trace = try require(HomeCommand.tracer(environment: ["RATES_HOME_TRACE": path]))
    trace(.microseconds(1500))
    trace(.seconds(2))
    expectEqual(
      try String(contentsOfFile: path, encoding: .utf8),
      "key_to_frame_us 1500\nkey_to_frame_us 2000000\n")
  }
}
