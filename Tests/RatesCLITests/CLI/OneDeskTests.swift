import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// One `RateDesk` per invocation: every use of `invocation.desk` in a run is the same desk,
/// sharing what the run asked (``AskedDays``), never a new one per access.
@Suite struct OneDeskTests {
  static func invocation(home: URL) throws -> Invocation {
    let environment = ["HOME": home.path]
    let context = CommandContext(
      environment: environment, now: { fixedNow }, sleep: { _ in },
      makeTransport: { _ in HTTPTransport { _ in throw HTTPError.cannotConnect(host: "nowhere") } },
      writeOut: { _ in }, writeErr: { _ in },
      terminal: { noColor, ascii in
        TerminalCapabilities.decide(
          isTTY: false, windowWidth: nil, environment: [:], noColorFlag: noColor, asciiFlag: ascii)
      })
    let options = GlobalOptions()
    let settings = try EnvironmentSettings(environment: environment, options: options)
    return Invocation(
      context: context, options: options, settings: settings,
      terminal: context.terminal(false, false))
  }

  /// Before: `desk` was a computed property building a new desk (and its asked days) on
  /// every access; `history` built two.
  @Test func everyAccessIsTheSameDesk() throws {
    let scratch = try TemporaryDirectory()
    let invocation = try Self.invocation(home: scratch.url)
    expect(invocation.desk.asked === invocation.desk.asked)
    // A narrower view of its notices is still the same desk.
    expect(invocation.desk.showing { _ in false }.asked === invocation.desk.asked)
  }
}
