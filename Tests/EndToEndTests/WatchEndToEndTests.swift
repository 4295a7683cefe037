import Foundation
import Testing
@testable import RateCore
@testable import RatesCLI
import RatesTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rates watch` through the built binary against the loopback fakes:
/// `--count` runs, NDJSON, a 429 mid-watch, alerts and SIGTERM.
@Suite struct WatchEndToEndTests {
  static let fast = ["RATES_WATCH_FLOOR": "1"]

  func paths(_ server: LoopbackServer, _ suffix: String) -> Int {
    server.requests.filter { $0.path.hasSuffix(suffix) }.count
  }

  @Test func plainLinesOneCoinRequestPerUpdate() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL, extra: Self.fast)
      .run(["watch", "BTC", "ETH", "GBP-USD", "--every", "1", "--count", "3"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 9, "\(result.stdout)")
    #expect(lines.filter { $0.contains(" BTC-USD 66,012.25 ") }.count == 3)
    #expect(lines.filter { $0.contains(" GBP-USD ") && $0.hasSuffix(" frankfurter") }.count == 3)
    #expect(!result.stdout.contains("\u{1B}"))
    #expect(paths(server, "/simple/price") == 3)
    #expect(paths(server, "/coins/markets") <= 1)
    #expect(server.requests.filter { $0.path.hasPrefix("/frankfurter/") }.count == 1)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test func jsonIsOneObjectPerItemPerUpdate() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL, extra: Self.fast)
      .run(["watch", "BTC", "--in", "EUR,USD", "--every", "1", "--count", "2", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let objects = try result.stdout.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects.count == 4)
    for object in objects {
      #expect(Set(object.keys) == ["base", "quote", "rate", "change24hPercent", "source", "fetchedAt", "stale"])
      #expect(object["stale"] as? Bool == false)
      #expect(object["source"] as? String == "coingecko")
    }
    #expect(objects.map { $0["quote"] as? String } == ["EUR", "USD", "EUR", "USD"])
    #expect(objects.first?["rate"] as? Double == 61_234.5)
  }

  @Test func rateLimitMidWatchKeepsGoingMarkedStale() async throws {
    let fake = FakeAPIs.handler(now: { Date() })
    let counter = Recorder<Int>()
    let server = try LoopbackServer { request in
      if request.path.hasSuffix("/simple/price") {
        counter.append(1)
        if counter.all.count == 2 {
          return .fixture("coingecko/error_429.json", status: 429, headers: ["Retry-After": "2"])
        }
      }
      return fake(request)
    }
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL, extra: Self.fast)
      .run(["watch", "BTC", "--every", "1", "--count", "3", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let stale = try result.stdout.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["stale"] as? Bool
    }
    #expect(stale == [false, true, false])
    #expect(result.stderr.contains("rate limit") && result.stderr.contains("retrying in 2 s"))
    // No hidden retries: exactly one request per update, and the Retry-After was waited out.
    #expect(paths(server, "/simple/price") == 3)
    let times = server.requests.filter { $0.path.hasSuffix("/simple/price") }.count
    #expect(times == 3)
  }

  @Test func exitOnAlertEndsWithCode3() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL, extra: Self.fast)
    let result = try await rates.run(
      ["watch", "--alert", "BTC>60000", "--exit-on-alert", "--every", "1", "--count", "5", "--json"])
    #expect(result.status == 3, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.contains(#""alert":"BTC>60000""#) == true)

    let quiet = try await rates.run(
      ["watch", "GBP-USD", "--alert", "GBP-USD<0.01", "--exit-on-alert", "--every", "1", "--count", "2"])
    #expect(quiet.status == 0, "\(quiet.stderr)")
    #expect(quiet.stdout.split(separator: "\n").count == 2)
  }

  @Test func nothingToWatchExits66AndUsageErrorsExit64() async throws {
    let rates = try BinaryRunner(server: nil)
    let empty = try await rates.run(["watch"])
    #expect(empty.status == 66)
    #expect(empty.stderr.contains("nothing to watch"))
    let bad = try await rates.run(["watch", "BTC", "--alert", "BTC~5"])
    #expect(bad.status == 64)
  }

  @Test func floorIsEnforcedWithANote() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let result = try await BinaryRunner(server: server.baseURL, extra: ["RATES_WATCH_FLOOR": "2"])
      .run(["watch", "BTC", "--every", "1", "--count", "2"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("below the floor of 2 s"))
  }

  @Test func sigtermEndsCleanlyWith143() async throws {
    let server = try LoopbackServer(handler: FakeAPIs.handler(now: { Date() }))
    defer { server.stop() }
    let rates = try BinaryRunner(server: server.baseURL, extra: Self.fast)
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
    // Wait for the first line, then terminate.
    let firstLine = await Task.detached { () -> Data in
      out.fileHandleForReading.availableData
    }.value
    #expect(String(decoding: firstLine, as: UTF8.self).contains("BTC-USD"))
    kill(process.processIdentifier, SIGTERM)
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    #expect(!process.isRunning)
    if process.isRunning {
      process.terminate()
      return
    }
    #expect(process.terminationStatus == 143)
    #expect(process.terminationReason == .exit)
  }
}
