import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// What every in-process test relies on: the harness is hermetic and its terminal,
/// clock and input are the ones it was given.
@Suite struct CLIHarnessTests {
  @Test func theEnvironmentIsItsOwn() throws {
    let cli = try CLIHarness()
    expectEqual(
      Set(cli.environment.keys),
      [
        "HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "LANG",
      ],
      "nothing from the test process: no COLUMNS, NO_COLOR, RATES_*, TERM or real HOME")
    expectEqual(cli.environment["HOME"], cli.home.path)
    expect(cli.home.path.hasPrefix(FileManager.default.temporaryDirectory.path))
  }

  @Test func theTerminalHasTheGivenWidth() async throws {
    let cli = try CLIHarness(width: 60)
    func terminal(_ result: CommandResult) throws -> [String: Any] {
      let checks = try require(try result.json()["checks"] as? [[String: Any]])
      return try require(checks.first { $0["name"] as? String == "terminal" })
    }
    let pipe = try terminal(await cli.run(["doctor", "--json", "--offline"]))
    expectEqual(pipe["width"] as? Int, 60)
    expectEqual(pipe["tty"] as? Bool, false)
    expectEqual(pipe["color"] as? Bool, false)
    let tty = try terminal(
      await cli.run(["doctor", "--json", "--offline"], width: 160, isTTY: true))
    expectEqual(tty["width"] as? Int, 160)
    expectEqual(tty["color"] as? Bool, true)
    let noColor = try terminal(
      await cli.run(["doctor", "--json", "--offline"], environment: ["NO_COLOR": "1"], isTTY: true))
    expectEqual(noColor["color"] as? Bool, false)
  }

  @Test func sleepingMovesTheClockAtOnce() async throws {
    let clock = TestClock()
    try await clock.sleep(.seconds(90))
    try await clock.sleep(.milliseconds(500))
    expectEqual(clock.now, fixedNow.addingTimeInterval(90.5))
    expectEqual(clock.sleeps, [.seconds(90), .milliseconds(500)])
    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(.seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    expectEqual(clock.sleeps.count, 2, "a cancelled sleep is not recorded")
  }

  @Test func stdinFeedsOneSecretPerLine() async throws {
    let cli = try CLIHarness()
    let set = await cli.run(["config", "set", "api-key"], stdin: "CG-abcdefghijklmnop1234\n")
    expectEqual(set.status, 0, "\(set.stderr)")
    let show = await cli.run(["config"])
    expectContains(show.stdout, "CG-…1234")
    let none = await cli.run(["config", "set", "api-key"])
    expect(none.status != 0, "no input: no key")
  }

  @Test func requestsToTheRealHostsReachTheFakes() async throws {
    let (cli, api) = try CLIHarness.withFakeAPI()
    expectEqual(await cli.run(["current", "GBP-USD", "BTC"]).status, 0)
    expectEqual(
      Set(api.requests.map { $0.headers["host"] ?? "" }),
      [
        "api.frankfurter.dev", "api.coingecko.com",
      ])
    expect(api.requests.contains { $0.path.hasPrefix("/frankfurter/") })
  }
}
