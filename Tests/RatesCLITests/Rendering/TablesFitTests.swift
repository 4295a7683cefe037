import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// Every table a command prints, at every width from 40 to 200: no line is wider than
/// the terminal, and every number in it appears whole (no `…` after a digit, and each
/// number is one the table shows at full width).
@Suite struct TablesFitTests {
  static let tables: [[String]] = [
    ["top", "--in", "EUR,USD,GBP"], ["favorites", "--in", "EUR,USD"],
    ["current", "BTC", "ETH", "--in", "EUR,USD"], ["current", "GBP-USD"], ["pairs"],
    ["search", "eth"], ["info", "BTC"], ["ledger", "list"], ["currencies"],
    ["currencies", "--crypto"], ["cache", "info"], ["history", "BTC", "EUR", "--table"],
    ["history", "GBP", "USD", "--table"], ["stats", "BTC", "EUR"],
    ["convert", "100", "EUR", "BTC,USD,JPY"],
  ]

  static let setUp: [[String]] =
    GoldenOutputTests.pairs + GoldenOutputTests.ledger + [
      ["favorites", "add", "BTC", "SOL", "ethereum-wormhole"], ["history", "BTC", "EUR"],
    ]

  // A regex literal is parsed again each time it is evaluated: each is made once here (in a
  // loop, parsing them was a fifth of the suite's time). Regex is not Sendable, but its one
  // shared state, the compiled program, is made once atomically.
  nonisolated(unsafe) static let number = /[+-]?[0-9][0-9,]*(\.[0-9]+)?%?/
  nonisolated(unsafe) static let historyHeader = /^[A-Z0-9]+\/[A-Z0-9]+  [0-9]+ days/
  nonisolated(unsafe) static let cutNumber = /[0-9](…|\.\.\.)/

  /// Numbers as a person reads them: `-1,164.95`, `+2.51%`, `2024-05-30`, `0.00163312`.
  static func numbers(in text: String) -> [String] {
    text.matches(of: number).map { String($0.output.0) }
  }

  /// Lines around the tables that are sentences, not table rows: the history header, a
  /// footnote, the cache's path. The width rule is the tables'; these are checked for whole
  /// numbers only.
  static func isProse(_ line: String) -> Bool {
    line.firstMatch(of: historyHeader) != nil
      || ["Cache: ", "Settled days", "* symbol", "Size: "].contains { line.hasPrefix($0) }
      || line.contains("exchanges, newest first") || line.contains("days without data")
  }

  @Test(arguments: tables)
  func fitsEveryWidth(_ arguments: [String]) async throws {
    let (cli, _) = try CLIHarness.withFakeAPI(width: 200)
    for step in Self.setUp {
      let result = await cli.run(step)
      try require(result.status == 0, "set-up \(step): \(result.stderr)")
    }
    let wide = await cli.run(arguments, width: 200)
    try require(wide.status == 0, "\(wide.stderr)")
    let whole = Set(Self.numbers(in: wide.stdout))
    var checked = ""
    for width in 40...200 {
      let result = await cli.run(arguments, width: width)
      // The same lines as one column narrower passed there, a stricter width: nothing new.
      guard result.stdout != checked else { continue }
      checked = result.stdout
      let lines = result.stdout.split(separator: "\n").map(String.init)
      let tooWide = lines.filter { !Self.isProse($0) && TerminalText.displayWidth($0) > width }
      expect(tooWide.isEmpty, "\(arguments) at \(width): \(tooWide)")
      let cut = lines.filter { line in
        // A chart's scale caption (`1 column ≈ 1.5 days`) depends on the width.
        line.firstMatch(of: Self.cutNumber) != nil
          || Self.numbers(in: line).contains { !whole.contains($0) && !line.contains(" column ") }
      }
      expect(cut.isEmpty, "\(arguments) at \(width): numbers cut in \(cut)")
    }
  }
}
