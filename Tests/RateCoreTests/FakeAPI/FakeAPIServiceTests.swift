import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// What `fake-api` adds to the fakes for the scripts: options, counting, control endpoints.
@Suite struct FakeAPIServiceTests {
  typealias Options = FakeAPIService.Options

  @Test func parsesTheScriptsOptions() throws {
    let options = try Options(
      arguments: [
        "--port", "8123", "--port-file=/tmp/p", "--delay", "0.5", "--now", "1718000000",
        "--verbose",
      ])
    var expected = Options()
    expected.port = 8123
    expected.portFile = "/tmp/p"
    expected.delay = 0.5
    expected.now = fixedNow
    expected.verbose = true
    expectEqual(options, expected)
    expectEqual(try Options(arguments: []), Options())
    expect(try Options(arguments: ["--help"]).help)
  }

  @Test(arguments: [
    (["--bogus"], FakeAPIService.UsageError.unknownOption("--bogus")),
    (["--port"], .missingValue("--port")),
    (["--port", "70000"], .invalidValue("--port", "70000")),
    (["--delay", "-1"], .invalidValue("--delay", "-1")),
    (["--now", "soon"], .invalidValue("--now", "soon")),
  ])
  func refusesBadArguments(_ arguments: [String], _ error: FakeAPIService.UsageError) {
    #expect(throws: error) { try Options(arguments: arguments) }
  }

  @Test func countsAPIRequestsButNotControlOnes() throws {
    var options = Options()
    options.now = fixedNow
    let lines = Recorder<String>()
    options.verbose = true
    let service = FakeAPIService(options: options) { lines.append($0) }
    let reply = service.handle(
      RecordedRequest(target: "/api/v3/simple/price?ids=bitcoin&vs_currencies=eur"))
    guard case .response(200, _, let body) = reply else {
      Issue.record("unexpected \(reply)")
      return
    }
    expectEqual(String(decoding: body, as: UTF8.self), #"{"bitcoin":{"eur":61234.5}}"#)
    expectEqual(service.requestCount, 1)
    guard case .response(200, _, let count) = service.handle(RecordedRequest(target: "/__requests"))
    else { return }
    expectEqual(String(decoding: count, as: UTF8.self), "1")
    _ = service.handle(RecordedRequest(method: "POST", target: "/__reset"))
    expectEqual(service.requestCount, 0)
    guard case .response(405, _, _) = service.handle(RecordedRequest(target: "/__reset")) else {
      Issue.record("GET /__reset should be refused")
      return
    }
    expectEqual(lines.all.first, "GET /api/v3/simple/price?ids=bitcoin&vs_currencies=eur 200")
  }

  @Test func aDelayWrapsEveryAPIReply() {
    var options = Options()
    options.delay = 0.25
    let service = FakeAPIService(options: options)
    guard
      case .delayed(0.25, .response(200, _, _)) = service.handle(
        RecordedRequest(target: "/api/v3/ping"))
    else {
      Issue.record("expected a delayed reply")
      return
    }
    guard case .response = service.handle(RecordedRequest(target: "/__requests")) else {
      Issue.record("control endpoints are never delayed")
      return
    }
  }
}
