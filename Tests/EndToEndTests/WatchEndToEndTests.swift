import Foundation
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
    let process = Process()
    process.executableURL = try BinaryRunner.binary
    process.arguments = ["watch", "BTC", "--every", "1"]
    process.environment = rates.environment
    process.currentDirectoryURL = rates.home
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let exited = watchExit(of: process)
    // Wait for the first line, then terminate.
    let firstLine = await Task.detached { () -> Data in
      out.fileHandleForReading.availableData
    }.value
    #expect(String(decoding: firstLine, as: UTF8.self).contains("BTC/USD"))
    kill(process.processIdentifier, SIGTERM)
    // A hang guard only: the watch ends within its 2 s grace period.
    #expect(await eventually(timeout: 60) { exited.count > 0 })
    guard exited.count > 0 else {
      process.terminate()
      return
    }
    #expect(process.terminationStatus == 143)
    #expect(process.terminationReason == .exit)
  }
}
