import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// Whole outputs, byte for byte, at fixed widths: what a person reads, pinned so any
/// change to it (a column, a space, a colour code, a word) shows up as a diff of a
/// file under `Golden/`. Everything is fixed: the clock (``fixedNow``, Monday
/// 2024-06-10 06:13:20 UTC), the fake APIs' data, the terminal (a pipe of the
/// given width, no colour unless the case says so), and a hermetic environment
/// (no `COLUMNS`, `NO_COLOR`, `RATES_*` or real `HOME` from the test process).
///
/// An intended change: `RATES_UPDATE_GOLDEN=1 swift test --filter Golden` rewrites the
/// files; review them with `git diff`.
@Suite struct GoldenOutputTests {
  /// One pinned run.
  struct Case: Sendable, CustomTestStringConvertible {
    /// The file name without extension, e.g. `history-chart.w80`.
    var name: String
    var arguments: [String]
    var width: Int
    var color = false
    /// Commands run first in the same home (pairs, favorites, a warm cache).
    var setUp: [[String]] = []
    /// Replies served instead of the fake's once set-up is done.
    var failure: LoopbackReply? = nil
    var status: Int32 = 0

    var testDescription: String { name }
  }

  static let widths = [60, 80, 160]

  /// Each case at 60, 80 and 160 columns.
  static func atEveryWidth(
    _ name: String, _ arguments: [String], setUp: [[String]] = []
  ) -> [Case] {
    widths.map { Case(name: "\(name).w\($0)", arguments: arguments, width: $0, setUp: setUp) }
  }

  static let pairs = [
    ["pairs", "add", "GBP", "USD"], ["pairs", "add", "EUR-AUD"], ["pairs", "add", "BTC", "EUR"],
    ["pairs", "add", "USD", "JPY"],
  ]

  /// Exchanges over the last week, bought and sold, with a counterparty and a note.
  static let ledger = [
    ["ledger", "add", "100", "USD", "8950000", "LBP", "--sell", "--with", "Abu Ali"],
    ["ledger", "add", "200", "USD", "17800000", "LBP", "--buy", "--date", "2024-06-09"],
    ["ledger", "add", "50", "USD", "4490000", "LBP", "--sell", "--date", "2024-06-07"],
    [
      "ledger", "add", "9e6", "LBP", "100", "USD", "--sell", "--date", "2024-06-05", "--note",
      "cash",
    ],
    ["ledger", "add", "10", "EUR", "11", "USD", "--buy", "--date", "2024-06-04"],
  ]

  /// Purchases, two sales (the second across two lots) and a coin-to-coin conversion.
  static let trades = [
    ["ledger", "add", "10000", "EUR", "--deposit", "--date", "2023-07-01"],
    ["ledger", "add", "0.2", "BTC", "5000", "EUR", "--buy", "--date", "2023-07-03"],
    ["ledger", "add", "1", "ETH", "1800", "EUR", "--buy", "--date", "2023-08-01"],
    ["ledger", "add", "0.05", "BTC", "2100", "EUR", "--sell", "--date", "2024-01-15"],
    ["ledger", "add", "0.5", "ETH", "0.02", "BTC", "--sell", "--date", "2024-03-01"],
    ["ledger", "add", "0.1", "BTC", "6000", "EUR", "--sell", "--date", "2024-06-05"],
  ]

  static let cases: [Case] =
    atEveryWidth("history-sparkline", ["history", "BTC", "EUR"])
    + atEveryWidth("history-chart", ["history", "BTC", "EUR", "--chart"])
    + atEveryWidth("history-table", ["history", "BTC", "EUR", "--table"])
    + atEveryWidth("history-GBP-USD-table", ["history", "GBP", "USD", "--table"])
    + atEveryWidth("stats", ["stats", "BTC", "EUR"])
    + atEveryWidth("top", ["top"], setUp: [["coins", "add", "LTC", "DOGE"], ["favorites", "add", "DOGE", "ETH"]])
    + atEveryWidth("pairs", ["pairs"], setUp: pairs)
    + atEveryWidth("info-BTC", ["info", "BTC"])
    + atEveryWidth("current-coins", ["current", "BTC", "ETH", "--in", "EUR,USD"])
    + atEveryWidth("current-GBP-USD", ["current", "GBP-USD"])
    + atEveryWidth("convert-fiat", ["convert", "100", "EUR", "USD"])
    + atEveryWidth("convert-coin", ["convert", "0.25", "BTC", "EUR,USD,ETH"])
    + atEveryWidth("convert-to-coin", ["convert", "100", "EUR", "BTC,JPY,USD"])
    + atEveryWidth("top-three-currencies", ["top", "--in", "EUR,USD,GBP"])
    + atEveryWidth(
      "favorites", ["favorites", "--in", "EUR,USD"],
      setUp: [["favorites", "add", "BTC", "SOL", "ethereum-wormhole"]])
    + atEveryWidth(
      "coins", ["coins", "--in", "EUR,USD"],
      setUp: [["coins", "add", "BTC", "SOL", "ethereum-wormhole"], ["favorites", "add", "SOL"]])
    + atEveryWidth("search-eth", ["search", "eth"])
    + atEveryWidth("currencies", ["currencies"])
    + atEveryWidth("currencies-crypto", ["currencies", "--crypto"])
    + atEveryWidth("ledger-list", ["ledger"], setUp: ledger)
    + atEveryWidth("portfolio-gains", ["portfolio", "gains", "--in", "EUR", "--from", "2023-07-01"], setUp: trades)
    + [
      Case(
        name: "history-sparkline.color.w80", arguments: ["history", "BTC", "EUR"], width: 80,
        color: true),
      Case(
        name: "current-coins.color.w80", arguments: ["current", "BTC", "ETH", "--in", "EUR,USD"],
        width: 80, color: true),
      // A rate limit after an hour: the cached series, marked stale, and the warning.
      Case(
        name: "history-stale.w80", arguments: ["history", "BTC", "EUR", "--refresh"], width: 80,
        setUp: [["history", "BTC", "EUR"]],
        failure: .fixture("coingecko/error_429.json", status: 429, headers: ["Retry-After": "120"])),
      Case(
        name: "usage-error.w80", arguments: ["history", "BTC", "--days", "0"], width: 80, status: 64
      ),
      Case(name: "help.w80", arguments: ["--help"], width: 80),
      // The other commands a person reads, at the default width.
      Case(
        name: "convert-dated.w80",
        arguments: ["convert", "250", "GBP", "EUR,USD,JPY", "--date", "2024-06-01"], width: 80),
      Case(
        name: "ledger-rate.w80", arguments: ["ledger", "rate", "USD-LBP"], width: 80, setUp: ledger),
      Case(
        name: "ledger-stats.w80", arguments: ["ledger", "stats", "USD-LBP", "--days", "7"],
        width: 80, setUp: ledger),
      Case(name: "history-help.w80", arguments: ["history", "--help"], width: 80),
      // Help wraps to the terminal, up to 92 columns.
      Case(name: "history-help.w60", arguments: ["history", "--help"], width: 60),
      Case(name: "ledger-add-help.w160", arguments: ["ledger", "add", "--help"], width: 160),
      Case(name: "help.w60", arguments: ["help"], width: 60),
      Case(name: "overview.w80", arguments: [], width: 80),
    ]

  @Test(arguments: cases)
  func output(_ golden: Case) async throws {
    let toggle = ReplySwitch()
    let (cli, _) = try CLIHarness.withFakeAPI(width: golden.width, isTTY: golden.color) { fake in
      toggle.wrapping(fake)
    }
    for arguments in golden.setUp {
      let result = await cli.run(arguments, isTTY: false)
      try require(result.status == 0, "set-up \(arguments): \(result.stderr)")
    }
    if let failure = golden.failure {
      toggle.fail(with: failure)
      cli.clock.advance(by: 3_600)
    }
    let result = await cli.run(golden.arguments)
    expectEqual(result.status, golden.status, "\(result.stderr)")
    try GoldenFile.check(result.stdout, named: golden.name + ".txt")
    try GoldenFile.check(result.stderr, named: golden.name + ".stderr.txt", optional: true)
  }

  /// Every file under `Golden/` belongs to a case: a renamed or removed case leaves none behind.
  @Test func noStrayGoldenFiles() throws {
    let expected = Set(Self.cases.flatMap { [$0.name + ".txt", $0.name + ".stderr.txt"] })
    // Hidden files are ignored: atomic writes make some while goldens are being updated.
    let present = try FileManager.default.contentsOfDirectory(atPath: GoldenFile.directory.path)
      .filter { !$0.hasPrefix(".") }
    let stray = Set(present).subtracting(expected)
    expect(stray.isEmpty, "not produced by any case: \(stray.sorted())")
  }
}

/// This target's golden files, under `Golden/` (``GoldenFiles``).
enum GoldenFile {
  /// `Tests/RatesCLITests/Golden`, found from this file, so no resource bundle is needed.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden", isDirectory: true)

  /// Compares `actual` with the file `name` (``GoldenFiles/problem(with:named:optional:)``)
  /// and records what differs.
  static func check(
    _ actual: String, named name: String, optional: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    if let problem = try GoldenFiles(directory: directory).problem(with: actual, named: name, optional: optional) {
      Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
  }
}
