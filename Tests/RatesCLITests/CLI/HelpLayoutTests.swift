import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Issue 15, help: a command's help keeps to itself, bare `rates` piped is an overview,
/// help wraps to the terminal, and `rates help --man` is the same text in roff.
@Suite struct HelpLayoutTests {
  @Test(arguments: CommandTree.all.map(\.words))
  func commandHelpPointsToRatesHelpInsteadOfRepeatingIt(_ words: String) async throws {
    let result = try await CLIHarness.run(words.split(separator: " ").map(String.init) + ["--help"])
    expectEqual(result.status, 0)
    expect(!result.stdout.contains("Global options:"), "\(words)")
    expect(!result.stdout.contains("Exit codes:"), "\(words)")
    expect(!result.stdout.contains("--no-color"), "\(words)")
    expect(result.stdout.hasSuffix(CommandHelp.globalPointer + "\n"), "\(words)")
    expect(!result.stdout.contains("README"), "a pointer to a section that may not exist: \(words)")
  }

  @Test func rateHelpHasEverythingGlobal() async throws {
    let result = try await CLIHarness.run(["help"])
    for part in ["Global options:", "Environment:", "Exit codes:", "--no-color", "RATES_TIMEOUT"] {
      expectContains(result.stdout, part, "\(part)")
    }
    // The note about 'rates config' follows the list, not inside it.
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    let note = try require(lines.firstIndex { $0.hasPrefix("Settings also come from") })
    expect(lines[note - 1].isEmpty)
    expect(lines[(note + 1)...].prefix { !$0.isEmpty }.allSatisfy { !$0.hasPrefix("  ") })
  }

  @Test func bareRatesPipedIsAShortOverview() async throws {
    let rates = try CLIHarness()
    let piped = await rates.run([])
    expectEqual(piped.status, 0)
    expectContains(piped.stdout, "Commands:")
    expectContains(piped.stdout, "See 'rates help'")
    expect(!piped.stdout.contains("Exit codes:"))
    expect(piped.stdout.split(separator: "\n").count < 30)
    let terminal = await rates.run([], isTTY: true)
    expectContains(terminal.stdout, "Exit codes:")
  }

  @Test(arguments: [60, 80, 160])
  func helpWrapsToTheTerminalWidth(_ width: Int) async throws {
    let rates = try CLIHarness(width: width)
    let limit = min(width, CommandHelp.width)
    var texts = [await rates.run(["help"]).stdout]
    for words in CommandTree.all.map(\.words) {
      texts.append(await rates.run(words.split(separator: " ").map(String.init) + ["--help"]).stdout)
    }
    for text in texts {
      // Examples are commands, never broken; a word wider than the terminal cannot be.
      for line in text.split(separator: "\n")
      where !line.hasPrefix("  rates ") && line.trimmingCharacters(in: .whitespaces).contains(" ") {
        expect(line.count <= limit, "\(width): \(line)")
      }
    }
  }

  @Test func aWrappedAbstractContinuesUnderItsFirstWord() throws {
    let path = try CommandTree.path(named: ["ledger", "add"])
    let text = CommandHelp.text(for: try require(path), width: 80)
    let lines = text.split(separator: "\n")
    expect(lines[0].hasPrefix("rates ledger add: record an exchange"))
    let indent = String(repeating: " ", count: "rates ledger add: ".count)
    expect(lines[1].hasPrefix(indent) && !lines[1].hasPrefix(indent + " "), "\(lines[1])")
  }

  @Test func manPageIsTheHelpTextInRoff() async throws {
    let result = try await CLIHarness.run(["help", "--man"])
    expectEqual(result.status, 0)
    let page = result.stdout
    expect(page.hasPrefix(".TH RATES 1 "))
    for path in CommandTree.all {
      expectContains(page, ".SS \(path.fullName)\n.nf\n", "\(path.fullName)")
    }
    expectContains(page, CommandHelp.globalPointer)
    expectContains(page, "RATES_TIMEOUT")
    // Only the page's own requests start a line with '.' or '\''.
    let requests = [".TH", ".SH", ".SS", ".nf", ".fi", ".B"]
    for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
      expect(requests.contains { line.hasPrefix($0 + " ") || line == $0 }, "\(line)")
    }
    expect(!page.contains("\\d") && !page.contains("\\n"), "backslashes escaped")
    // troff reads bytes: anything beyond ASCII is a named glyph (← is \[u2190]).
    expect(page.unicodeScalars.allSatisfy { $0.isASCII })
    expectContains(page, "\\[u2190]/\\[u2192]")
  }

  /// Issue 23: DESCRIPTION repeated the usage line SYNOPSIS has, and lines ran past 80.
  @Test func theManPageSaysItsUsageOnceAndFitsEightyColumns() throws {
    let page = ManPage.text()
    expectEqual(page.components(separatedBy: "[options] <command> [arguments]").count, 2)
    var inBlock = false
    for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == ".nf" || line == ".fi" { inBlock = line == ".nf" }
      // Text in a no-fill block is indented 7 columns by man; \[uXXXX] is one glyph.
      let shown = line.replacingOccurrences(
        of: #"\\\[u[0-9A-F]{4}\]"#, with: "_", options: .regularExpression
      ).replacingOccurrences(of: "\\e", with: "\\")
      if inBlock { expect(shown.count + 7 <= 80, "\(line)") }
    }
  }

  @Test func aLongExampleGoesOnOverLinesAsTheShellReadsIt() {
    let example = #"rates ledger add 100 USD 8950000 LBP --sell --with "Abu Ali" --note "cash, Hamra""#
    expectEqual(
      CommandHelp.exampleLines(example, width: 60),
      [
        "  rates ledger add 100 USD 8950000 LBP --sell --with \\",
        #"      "Abu Ali" --note "cash, Hamra""#,
      ])
    expectEqual(CommandHelp.exampleLines("rates top", width: 60), ["  rates top"])
  }
}
