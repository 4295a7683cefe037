import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``RatesCLI/runOnThisThread(_:context:)``, the executable's way in: the command runs on
/// the calling thread, answers as ``RatesCLI/run(_:context:)`` does, and a command answered
/// from the cache leaves that thread for nothing.
@Suite struct SynchronousRunTests {
  /// Runs `arguments` through ``CLIHarness/runOnThisThread(_:onClockRead:)`` on a thread of
  /// its own: the result, and for each read of the clock whether the calling thread made it.
  func runHere(_ cli: CLIHarness, _ arguments: [String]) async -> (CommandResult, [Bool]) {
    await onThreadOfItsOwn {
      let caller = pthread_self()
      let places = Recorder<Bool>()
      let result = cli.runOnThisThread(arguments) {
        places.append(pthread_equal(pthread_self(), caller) != 0)
      }
      return (result, places.all)
    }
  }

  @Test(arguments: [["history", "BTC", "EUR"], ["convert", "100", "USD", "EUR", "--json"]])
  func aWarmCommandAnswersFromTheCacheOnTheCallingThread(_ arguments: [String]) async throws {
    let (cli, api) = try CLIHarness.withFakeAPI()
    let fetched = await cli.run(arguments)
    expectEqual(fetched.status, 0)
    let requests = api.requestCount
    let (warm, places) = await runHere(cli, arguments)
    expectEqual(warm, fetched)
    expectEqual(api.requestCount, requests)
    expect(!places.isEmpty)
    expect(places.allSatisfy { $0 })
  }

  @Test func aCommandThatFetchesAnswersAsTheAsynchronousRunDoes() async throws {
    let (cli, api) = try CLIHarness.withFakeAPI()
    let (fetched, places) = await runHere(cli, ["history", "ETH", "USD", "--json"])
    expect(api.requestCount > 0)
    let (other, _) = try CLIHarness.withFakeAPI()
    expectEqual(fetched, (await other.run(["history", "ETH", "USD", "--json"])))
    expect(places.allSatisfy { $0 })
  }

  @Test func aUsageErrorEndsWithItsExitCode() async throws {
    let cli = try CLIHarness()
    let (result, _) = await runHere(cli, ["history", "--days", "0", "BTC"])
    expectEqual(result, (await cli.run(["history", "--days", "0", "BTC"])))
    expectEqual(result.status, ExitCode.usage.rawValue)
  }
}

/// The live context's environment, read from `environ` rather than through `ProcessInfo`.
@Suite struct ProcessEnvironmentTests {
  @Test func itHoldsWhatProcessInfoHolds() {
    expectEqual(CommandContext.processEnvironment(), ProcessInfo.processInfo.environment)
  }
}
