import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// Docs that run: every example of `rates help`, each `--help`, the man page, the README and
/// the guide runs against the fake API and exits 0; one piped into jq gives a result without
/// null. Examples are read from their one declaration (``CommandDeclaration/examples``,
/// ``RatesCLI/examples``) and from the Markdown's `sh` blocks.
///
/// Each source runs on a fresh install, as a new user following it would (issue 34): a new
/// home, nothing stored or cached beforehand, its examples in the order it shows them (the
/// help's own first, then each command's `--help`, which the man page repeats).
@Suite struct DocsExampleTests {
  /// Later than every date the examples name (`--date 2026-01-15`).
  static let now = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28

  /// Every declared example, in the order the help shows them, each once.
  static var declared: [(origin: String, line: String)] {
    var seen = Set<String>()
    let all =
      RatesCLI.examples.map { ("rates help", $0) }
      + CommandTree.all.flatMap { path in path.last.examples.map { (path.fullName + " --help", $0) } }
    return all.filter { seen.insert($0.1).inserted }
  }

  static func markdown(_ name: String) throws -> [(origin: String, line: String)] {
    let root = Fixtures.directory.deletingLastPathComponent()
    let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    return DocsExample.codeLines(ofMarkdown: text).map { (name, $0) }
  }

  @Test func everyHelpAndManPageExampleRuns() async throws {
    let runner = try DocsRunner(now: Self.now)
    for (origin, line) in Self.declared {
      for example in try DocsExample.parse(line, origin: origin) {
        await runner.expectRuns(example)
      }
    }
  }

  @Test(arguments: ["README.md", "docs/guide.md"])
  func everyMarkdownExampleRuns(file: String) async throws {
    let runner = try DocsRunner(now: Self.now)
    for (origin, line) in try Self.markdown(file) {
      for example in try DocsExample.parse(line, origin: origin) {
        await runner.expectRuns(example)
      }
    }
  }

  /// What `--help` and the man page show under "Examples:" is the declaration, nothing else.
  @Test func theHelpAndTheManPageShowTheDeclaredExamples() {
    let man = ManPage.text()
    for path in CommandTree.all {
      let shown = Self.exampleSection(of: CommandHelp.text(for: path, width: 60))
      expectEqual(shown, path.last.examples, "\(path.fullName)")
      for example in path.last.examples {
        let lines = CommandHelp.exampleLines(example, width: ManPage.width).map(ManPage.escape)
        expect(man.contains(lines.joined(separator: "\n")), "man page: \(example)")
      }
    }
    expectEqual(Self.exampleSection(of: RatesCLI.mainHelp(width: 60)), RatesCLI.examples)
  }

  static func exampleSection(of help: String) -> [String] {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "Examples:") else { return [] }
    var examples: [String] = []
    var continues = false
    for line in lines[(start + 1)...].prefix(while: { $0.hasPrefix("  ") }) {
      var text = line.trimmingCharacters(in: .whitespaces)
      let next = text.hasSuffix(" \\")
      if next { text.removeLast(2) }
      if continues { examples[examples.count - 1] += " " + text } else { examples.append(text) }
      continues = next
    }
    return examples
  }

  // MARK: - jq

  @Test func theSubsetSaysWhatJQSays() throws {
    let top: Any = ["coins": [["symbol": "BTC", "quotes": [["currency": "USD", "price": 1.5]]]]]
    #expect(throws: JQSubset.Failure(description: "Cannot index array with \"USD\"")) {
      try JQSubset.run(".coins[] | {symbol, price: .quotes.USD.price}", on: top)
    }
    let values = try JQSubset.run(".coins[] | {symbol, price: .quotes[0].price}", on: top)
    expectEqual(JQSubset.text(values, raw: false), #"{"price":1.5,"symbol":"BTC"}"#)
    let checks: Any = ["checks": [["status": "ok"], ["status": "warning", "name": "key"]]]
    let selected = try JQSubset.run(#".checks[] | select(.status != "ok")"#, on: checks)
    expectEqual(JQSubset.text(selected, raw: false), #"{"name":"key","status":"warning"}"#)
    expect(JQSubset.holdsNull(try JQSubset.run(".market.ath", on: ["market": [:]])[0]))
    expectEqual(JQSubset.text(try JQSubset.run(".a[0]", on: ["a": ["x"]]), raw: true), "x")
  }

  @Test(.enabled(if: DocsRunner.jq != nil, "jq is not installed"))
  func theSubsetAgreesWithJQOnEveryExample() async throws {
    let runner = try DocsRunner(now: Self.now)
    let lines = try Self.declared + Self.markdown("README.md") + Self.markdown("docs/guide.md")
    for (origin, line) in lines {
      for example in try DocsExample.parse(line, origin: origin) where example.jq != nil {
        await runner.expectSubsetAgreesWithJQ(example)
      }
    }
  }

  @Test func shellLinesAreReadLikeAShellWould() throws {
    let line = #"rates a "b c" 'd|e' x\ y # note"#
    expectEqual(try DocsExample.parse(line, origin: "t").map(\.arguments), [["a", "b c", "d|e", "x y"]])
    let piped = try DocsExample.parse("rates top --json | jq -r '.coins[0].id'", origin: "t")
    expectEqual(piped.first?.jq?.filter, ".coins[0].id")
    expectEqual(piped.first?.jq?.raw, true)
    let two = try DocsExample.parse("rates x > f.csv && rates y f.csv; rates z < k", origin: "t")
    expectEqual(two.map(\.arguments), [["x"], ["y", "f.csv"], ["z"]])
    expectEqual(two.map(\.output), ["f.csv", nil, nil])
    expectEqual(two.map(\.input), [nil, nil, "k"])
  }
}
