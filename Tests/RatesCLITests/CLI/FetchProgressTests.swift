import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Issue 15: a slow fetch says so on a terminal's stderr, and erases the line when done;
/// nothing when stderr is piped, with `--json`, or when the answer comes in time.
@Suite struct FetchProgressTests {
  /// A harness on the fake API whose requests answer only once `release` holds.
  static func harness(
    until release: @escaping @Sendable () -> Bool
  ) throws -> CLIHarness {
    let server = InProcessServer.fakeAPI()
    return try CLIHarness(
      makeTransport: { seconds in
        let inner = server.transport(timeoutSeconds: seconds)
        return HTTPTransport { request in
          _ = await eventually(release)
          return try await inner.send(request)
        }
      }, clock: server.clock)
  }

  @Test func aSlowFetchOnATerminalShowsALineAndErasesIt() async throws {
    let stderr = Recorder<String>()
    let rates = try Self.harness { stderr.all.joined().contains("fetching from CoinGecko") }
    let result = await rates.run(
      ["current", "BTC"], errorIsTTY: true, onStderr: { stderr.append($0) })
    expectEqual(result.status, 0, "\(result.stderr)")
    expect(result.stderr.hasPrefix("fetching from CoinGecko…" + FetchProgress.erase), "\(result.stderr)")
    expectContains(result.stdout, "BTC")
  }

  @Test func aQuickFetchShowsNothing() async throws {
    // The progress timer never fires before the answer: the line never shows.
    let rates = try Self.harness { true }
    let result = await rates.run(
      ["current", "BTC"], errorIsTTY: true,
      sleep: { duration in
        if duration == FetchProgress.delay { try await Task.sleep(for: .seconds(3600)) }
      })
    expectEqual(result.status, 0, "\(result.stderr)")
    expect(!result.stderr.contains("fetching"), "\(result.stderr)")
  }

  @Test(arguments: [(false, ["current", "BTC"]), (true, ["current", "BTC", "--json"])])
  func pipedOrJSONShowsNothing(errorIsTTY: Bool, arguments: [String]) async throws {
    let slept = Recorder<Duration>()
    let rates = try Self.harness { true }
    let result = await rates.run(
      arguments, errorIsTTY: errorIsTTY, sleep: { slept.append($0) })
    expectEqual(result.status, 0, "\(result.stderr)")
    expect(!result.stderr.contains("fetching"), "\(result.stderr)")
    expect(!slept.all.contains(FetchProgress.delay), "no progress timer at all")
  }

  /// Other stderr text while the line shows: the line is erased first, and not again at the end.
  @Test func otherTextErasesTheLineFirst() async throws {
    let written = Recorder<String>()
    let progress = FetchProgress(
      write: { written.append($0) }, sleep: { _ in }, unicode: false)
    progress.begin("CoinGecko")
    expect(await eventually { written.all == ["fetching from CoinGecko..."] })
    progress.interrupt()
    written.append("warning: something\n")
    progress.end()
    expectEqual(written.all, ["fetching from CoinGecko...", FetchProgress.erase, "warning: something\n"])
  }
}
