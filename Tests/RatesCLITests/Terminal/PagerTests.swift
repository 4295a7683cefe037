import Foundation
import Testing
@testable import RatesCLI
import RatesTestSupport

/// Long tables page on a terminal: which pager, when, and `history --table` handing its
/// text to the context's pager instead of printing it.
@Suite struct PagerTests {
  @Test func thePagerComesFromTheEnvironmentElseLess() {
    #expect(Pager.command(environment: [:]) == ["less", "-FRX"])
    #expect(Pager.command(environment: ["PAGER": "more -d"]) == ["more", "-d"])
    #expect(Pager.command(environment: ["PAGER": "more", "RATES_PAGER": "most"]) == ["most"])
    #expect(Pager.command(environment: ["PAGER": ""]) == nil)
    #expect(Pager.command(environment: ["RATES_PAGER": "cat"]) == nil)
  }

  @Test func onlyATerminalThatTheTextOverflowsPages() {
    #expect(Pager.shouldPage(lineCount: 100, rows: 40, isTTY: true))
    #expect(!Pager.shouldPage(lineCount: 30, rows: 40, isTTY: true))
    #expect(!Pager.shouldPage(lineCount: 100, rows: 40, isTTY: false))
    #expect(!Pager.shouldPage(lineCount: 100, rows: nil, isTTY: true))
  }

  @Test func historyTableGoesToThePager() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    _ = await rates.run(["history", "EUR", "USD", "--days", "60"])
    let paged = Recorder<String>()
    let printed = Recorder<String>()
    let environment = rates.environment
    let context = CommandContext(
      environment: environment, now: { fixedNow }, sleep: { _ in },
      makeTransport: { _ in .unreachable }, writeOut: { printed.append($0) }, writeErr: { _ in },
      terminal: { noColor, ascii in
        TerminalCapabilities.decide(
          isTTY: true, windowWidth: 80, environment: environment, noColorFlag: noColor,
          asciiFlag: ascii)
      },
      page: { paged.append($0); return true })
    let status = await RatesCLI.run(
      ["history", "EUR", "USD", "--days", "60", "--table", "--offline"], context: context)
    #expect(status == 0)
    #expect(paged.all.count == 1)
    #expect(paged.all.first?.contains("DATE") == true)
    #expect(printed.all.isEmpty)
  }

  /// Before: `PAGER=nosuchpager` started `/usr/bin/env`, which failed with 127,
  /// and `run` still said it had paged, so the whole table was lost (exit 0).
  @Test func aPagerThatIsNotInstalledFallsBackToPrinting() {
    #expect(!Pager.run("a\nb\n", command: ["rates-no-such-pager-\(UInt32.random(in: 0...UInt32.max))"]))
  }

  /// Issue 27: the pager is started with posix_spawn (Foundation's `Process` is not in
  /// FoundationEssentials): found on PATH, the text on its stdin, waited for.
  @Test func aPagerGetsTheWholeTextOnItsInput() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("paged.txt")
    let text = String(repeating: "line of a long table\n", count: 5000)
    #expect(Pager.run(text, command: ["sh", "-c", "cat > \"$1\"", "sh", file.path]))
    #expect(try String(contentsOf: file, encoding: .utf8) == text)
  }
}
