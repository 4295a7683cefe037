import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates doctor` in process, with a stub transport answering by path.
@Suite struct DoctorTests {
  static let demoKey = "CG-abcdefghijklmnopa1b2"

  struct Run {
    var result: CommandResult
    var requests: [HTTPRequest]

    var status: Int32 { result.status }
    var stdout: String { result.stdout }
    var stderr: String { result.stderr }

    func checks() throws -> [String: [String: Any]] {
      let list = try require(try result.json()["checks"] as? [[String: Any]])
      var byName: [String: [String: Any]] = [:]
      for check in list { byName[check["name"] as? String ?? "?"] = check }
      return byName
    }

    func json() throws -> [String: Any] { try result.json() }
  }

  /// Runs `rates doctor` in `harness` (a fresh one by default), `reply` answering
  /// each request by its path.
  static func doctor(
    _ arguments: [String] = ["doctor", "--json"], environment: [String: String] = [:],
    in harness: CLIHarness? = nil,
    reply: @escaping @Sendable (String) -> StubTransport.Reply = { good($0) }
  ) async throws -> Run {
    let stub = StubTransport { request, _ in reply(request.url.path) }
    var cli = try harness ?? CLIHarness()
    cli.makeTransport = { _ in stub.transport }
    let result = await cli.run(arguments, environment: environment)
    return Run(result: result, requests: stub.requests.all)
  }

  /// A good answer of each provider's probe (the commands' validation reads them: `{}` no
  /// longer passes), by the request's path.
  static func good(_ path: String) -> StubTransport.Reply {
    let now = Date(timeIntervalSince1970: 1_717_760_000)  // 2024-06-07T11:33:20Z
    if path.hasSuffix("/ping") { return (200, [:], #"{"gecko_says":"(V3) To the Moon!"}"#) }
    if path.hasSuffix("/latest") {
      return (200, [:], #"{"amount":1.0,"base":"EUR","date":"2024-06-07","rates":{"USD":1.0801}}"#)
    }
    if path.hasSuffix(".xml") { return (200, [:], FakeECB.dailyXML(day: Day(containing: now))) }
    if path.contains("currentprice") {
      return (200, [:], FakeCoinDesk.currentPrice(codes: ["USD"], now: now, full: false))
    }
    if path.hasSuffix("/ticker") {
      return (200, [:], FakeCoinbase.answer(path: "/products/BTC-USD/ticker", query: [:], now: now).body)
    }
    if path.hasSuffix("/Ticker") {
      return (200, [:], FakeKraken.answer(path: "/0/public/Ticker", query: ["pair": "XBTUSD"], now: now).body)
    }
    return (200, [:], "{}")
  }

  @Test func masksKeepAtMostTheLastFourCharacters() {
    expectEqual(Doctor.mask("CG-abcdefghijklmnopa1b2"), "CG-…a1b2")
    expectEqual(Doctor.mask("abcdefghijklmnop9z9z"), "…9z9z")
    expectEqual(Doctor.mask("CG-short"), "CG-…")
    expectEqual(Doctor.mask(""), "…")
  }

  @Test func allWellIsExitZeroWithOneRequestPerProvider() async throws {
    let run = try await Self.doctor(environment: ["COINGECKO_API_KEY": Self.demoKey])
    expectEqual(run.status, 0, "\(run.stdout)\(run.stderr)")
    let checks = try run.checks()
    for name in [
      "coingecko", "coingecko-key", "frankfurter", "ecb", "coindesk", "coinbase", "kraken", "cache",
      "favorites", "pairs", "ledger", "config", "terminal",
    ] {
      expectEqual(checks[name]?["status"] as? String, "ok", "\(name): \(checks[name] ?? [:])")
    }
    expect(checks["coingecko"]?["latencyMs"] is Int)
    expectEqual(checks["coingecko-key"]?["key"] as? String, "CG-…a1b2")
    expectEqual(checks["coingecko-key"]?["kind"] as? String, "demo")
    expectEqual(checks["terminal"]?["width"] as? Int, 80)
    expectEqual(
      checks["favorites"]?["detail"] as? String ?? "",
      "none yet (\(try #require(checks["favorites"]?["path"] as? String)))")
    expect(!run.stdout.contains(Self.demoKey))
    expectEqual(
      Set(run.requests.map { $0.url.path }),
      [
        "/api/v3/ping", "/v1/latest", "/stats/eurofxref/eurofxref-daily.xml",
        "/v1/bpi/currentprice/USD.json",
        "/products/BTC-USD/ticker", "/0/public/Ticker",
      ])
    let ping = try require(run.requests.first { $0.url.path == "/api/v3/ping" })
    expectEqual(ping.headers["x-cg-demo-api-key"], Self.demoKey)
    let latest = try require(run.requests.first { $0.url.path == "/v1/latest" })
    expectEqual(latest.url.query, "from=EUR&to=USD")
  }

  @Test func proKeyOnThePublicHostFailsNamingTheVariable() async throws {
    let body = try Fixtures.string("coingecko/error_10010_wrong_host.json")
    let run = try await Self.doctor(environment: ["COINGECKO_API_KEY": Self.demoKey]) { path in
      path.hasSuffix("/ping") ? (400, [:], body) : Self.good(path)
    }
    expectEqual(run.status, ExitCode.doctorFailed.rawValue)
    let checks = try run.checks()
    let key = try require(checks["coingecko-key"])
    expectEqual(key["status"] as? String, "fail")
    expect((key["detail"] as? String ?? "").contains("COINGECKO_PRO_API_KEY"))
    expect(!run.stdout.contains(Self.demoKey))
    expectEqual(try run.json()["ok"] as? Bool, false)
  }

  @Test func failuresAreNotRetriedAndCoinDeskOnlyWarns() async throws {
    let run = try await Self.doctor { path in
      path.contains("currentprice") ? (503, [:], "down") : Self.good(path)
    }
    expectEqual(run.status, 0)
    expectEqual(run.requests.count, 6, "one request each, no retries")
    expectEqual(try run.checks()["coindesk"]?["status"] as? String, "warn")

    let forced = try await Self.doctor(["doctor", "--json", "--provider", "coindesk"]) { path in
      path.contains("currentprice") ? (503, [:], "down") : (200, [:], "{}")
    }
    expectEqual(forced.status, ExitCode.doctorFailed.rawValue)
    expectEqual(try forced.checks()["coindesk"]?["status"] as? String, "fail")
  }

  @Test func wideDataFileModeWarnsAndTextOutputHasOneLinePerCheck() async throws {
    let cli = try CLIHarness()
    let data = cli.home.appendingPathComponent("data/rates")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let pairs = data.appendingPathComponent("pairs.json")
    try Data(
      #"{"version":1,"pairs":[{"base":"GBP","quote":"USD","addedAt":"2026-01-01T00:00:00Z"}]}"#.utf8
    ).write(to: pairs)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: pairs.path)
    let run = try await Self.doctor(["doctor"], in: cli)
    expectEqual(run.status, 0, "\(run.stdout)")
    let line = try require(run.stdout.split(separator: "\n").first { $0.contains(" pairs ") })
    expect(line.hasPrefix("warn"))
    expectContains(line, "0644")
    expectContains(line, "chmod 600")
    expectContains(run.stdout, "No problems; 1 warning.")
  }

  @Test func offlineMakesNoRequest() async throws {
    let run = try await Self.doctor(["doctor", "--json", "--offline"])
    expectEqual(run.status, 0)
    expect(run.requests.isEmpty)
  }
}

/// `rates doctor`'s lines fit a terminal: a long detail wraps under itself (review of
/// issue 15: lines of 131 columns at 40, 60 and 80). Piped, it keeps one line per check.
@Suite struct DoctorFitsTests {
  @Test(arguments: [40, 60, 80])
  func everyLineFitsTheWidth(_ width: Int) async throws {
    let run = try await DoctorTests.doctor(
      ["doctor", "--no-color"], in: try CLIHarness(width: width, isTTY: true))
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    // A line may only overflow when it is one word that cannot be broken (a long path).
    for line in lines where TerminalText.displayWidth(String(line)) > width {
      expect(!line.trimmingCharacters(in: .whitespaces).contains(" "), "\(line)")
    }
    // The key advice is whole, only broken at spaces.
    let joined = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    expectContains(joined, "no key set: the public host's lower rate limit applies", "\(run.stdout)")
  }
}
