import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates history --interactive` refusals in process. (On a real pseudo-terminal, and
/// without one, in EndToEndTests.)
@Suite struct ExplorerCommandTests {
  @Test func withoutATerminalItSaysSoAndExits64BeforeFetching() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI(isTTY: false)
    let result = await rates.run(["history", "BTC", "EUR", "--interactive"])
    expectEqual(result.status, 64)
    expect(
      result.stderr.contains(
        "error: --interactive needs a terminal: run it in one, or drop --interactive"))
    expectContains(result.stderr, "usage: rates history")
    expect(result.stdout.isEmpty)
    expectEqual(server.requestCount, 0)
  }

  @Test(arguments: [["--json"], ["--chart"], ["--table"], ["--format", "csv"]])
  func cannotBeCombinedWithAnotherOutput(option: [String]) async throws {
    let result = try await CLIHarness.run(["history", "BTC", "EUR", "--interactive"] + option)
    expectEqual(result.status, 64)
    expect(
      result.stderr.contains("--interactive cannot be used with \(option.joined(separator: " "))"))
  }
}
