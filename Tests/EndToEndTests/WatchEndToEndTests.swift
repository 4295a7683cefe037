import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rates watch` as a process: each update reaches a pipe as it happens, and SIGTERM
/// ends it cleanly with 143. (What it prints and requests is tested in process, in
/// RatesCLITests/Commands/WatchCommandTests.)
@Suite struct WatchEndToEndTests {
  @Test(.timeLimit(.minutes(2))) func sigtermEndsCleanlyWith143() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL, extra: ["RATES_WATCH_FLOOR": "1"])
    let watch = try ChildProcess(
      try BinaryRunner.binary.path, ["watch", "BTC", "--every", "1"],
      environment: rates.environment, directory: rates.home.path)
    // Wait for the first line, then terminate.
    expect(await eventually { watch.outputText.contains("\n") })
    expectContains(watch.outputText, "BTC/USD")
    watch.signal(SIGTERM)
    // A hang guard only: the watch ends within its 2 s grace period.
    let ended = await watch.finished(timeout: 60)
    if ended == nil { watch.signal(SIGKILL) }
    expectEqual(ended, .exited(143))
  }
}
