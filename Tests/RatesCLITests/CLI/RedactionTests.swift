import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The API key never reaches output: an error body that echoes it, a
/// stale-cache warning quoting that error, `--json` errors.
@Suite struct RedactionTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  static let key = "CG-abcdefghijklmnop1234"

  @Test func secretsAndTheirPercentEncodingAreReplaced() {
    let redaction = Redaction(secrets: [Self.key, "", "ab"])
    expectEqual(redaction.secrets, [Self.key])
    expectEqual(redaction.apply("bad request with key \(Self.key)."), "bad request with key [redacted].")
    expectEqual(Redaction(secrets: ["a+b/c=d"]).apply("x=a%2Bb%2Fc%3Dd"), "x=[redacted]")
    expectEqual(Redaction(secrets: []).apply("plain"), "plain")
  }

  func run(_ arguments: [String], key variable: String) async throws -> (Int32, String, String) {
    let out = Recorder<String>()
    let err = Recorder<String>()
    let home = try scratch.folder()
    let echo = StubTransport { request, _ in
      (400, ["Content-Type": "application/json"], #"{"error":"bad request with key \#(Self.key)"}"#)
    }
    let context = CommandContext(
      environment: [
        "HOME": home.path, variable: Self.key,
        "RATES_COINGECKO_URL": "https://gecko.test/api/v3",
      ],
      now: { fixedNow }, sleep: { _ in }, makeTransport: { _ in echo.transport },
      writeOut: { out.append($0) }, writeErr: { err.append($0) },
      terminal: { noColor, ascii in
        TerminalCapabilities.decide(
          isTTY: false, windowWidth: nil, environment: [:], noColorFlag: noColor, asciiFlag: ascii)
      })
    let status = await RatesCLI.run(arguments, context: context)
    return (status, out.all.joined(), err.all.joined())
  }

  @Test(arguments: [
    (["current", "BTC"], "COINGECKO_API_KEY"), (["current", "BTC", "--json"], "COINGECKO_API_KEY"),
    (["history", "BTC", "EUR"], "COINGECKO_PRO_API_KEY"), (["info", "BTC", "--json"], "COINGECKO_API_KEY"),
  ])
  func anEchoedKeyNeverReachesOutput(_ arguments: [String], _ variable: String) async throws {
    let (status, stdout, stderr) = try await run(arguments, key: variable)
    expect(status != 0)
    expect(!stdout.contains(Self.key) && !stderr.contains(Self.key))
    expectContains(stderr, "[redacted]")
  }
}
