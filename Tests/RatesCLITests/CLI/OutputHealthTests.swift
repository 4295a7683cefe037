import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every write to stdout is checked: a reader that closes the pipe ends the
/// command quietly (0), a full disk or closed stream fails it (73).
@Suite struct OutputHealthTests {
  @Test func aClosedPipeSettlesAsSuccessAndStopsWriting() throws {
    signal(SIGPIPE, SIG_IGN)
    var ends: [Int32] = [0, 0]
    expectEqual(pipe(&ends), 0)
    close(ends[0])
    defer { close(ends[1]) }
    let health = OutputHealth(output: ends[1], error: ends[1])
    health.writeOut("one line\n")
    expect(health.outputClosed)
    expectEqual(health.failure(of: ends[1])?.code, EPIPE)
    expectEqual(health.settle(0), 0)
    expectEqual(health.settle(64), 0)
  }

  @Test func aFullDiskIsAnOutputFailure() throws {
    let full = open("/dev/full", O_WRONLY)
    try require(full >= 0)
    let null = open("/dev/null", O_WRONLY)
    defer {
      close(full)
      close(null)
    }
    let health = OutputHealth(output: full, error: null)
    health.writeOut(String(repeating: "x", count: 100_000))
    expectEqual(health.failure(of: full)?.code, ENOSPC)
    expectEqual(health.settle(0), ExitCode.outputFailed.rawValue)
  }

  @Test func healthyOutputKeepsTheStatus() throws {
    let null = open("/dev/null", O_WRONLY)
    defer { close(null) }
    let health = OutputHealth(output: null, error: null)
    health.writeOut("fine\n")
    expect(!health.outputClosed)
    expectEqual(health.settle(66), 66)
  }
}
