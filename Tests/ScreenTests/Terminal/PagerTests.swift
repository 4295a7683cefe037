import Foundation
import RateCore
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// Long tables page on a terminal: which pager, when, and `history --table` handing its
/// text to the context's pager instead of printing it.
@Suite struct PagerTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  @Test func thePagerComesFromTheEnvironmentElseLess() {
    expectEqual(Pager.command(environment: [:]), ["less", "-FRX"])
    expectEqual(Pager.command(environment: ["PAGER": "more -d"]), ["more", "-d"])
    expectEqual(Pager.command(environment: ["PAGER": "more", "RATES_PAGER": "most"]), ["most"])
    expectEqual(Pager.command(environment: ["PAGER": ""]), nil)
    expectEqual(Pager.command(environment: ["RATES_PAGER": "cat"]), nil)
  }

  @Test func onlyATerminalThatTheTextOverflowsPages() {
    expect(Pager.shouldPage(lineCount: 100, rows: 40, isTTY: true))
    expect(!Pager.shouldPage(lineCount: 30, rows: 40, isTTY: true))
    expect(!Pager.shouldPage(lineCount: 100, rows: 40, isTTY: false))
    expect(!Pager.shouldPage(lineCount: 100, rows: nil, isTTY: true))
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
      page: {
        paged.append($0)
        return true
      })
    let status = await RatesCLI.run(
      ["history", "EUR", "USD", "--days", "60", "--table", "--offline"], context: context)
    expectEqual(status, 0)
    expectEqual(paged.all.count, 1)
    expectEqual(paged.all.first?.contains("DATE"), true)
    expect(printed.all.isEmpty)
  }

  /// Before: `PAGER=nosuchpager` started `/usr/bin/env`, which failed with 127 and said
  /// "No such file or directory" on stderr before the text was printed after all.
  @Test func aPagerThatIsNotInstalledFallsBackToPrintingSilently() {
    let missing = "rates-no-such-pager-\(UInt32.random(in: 0...UInt32.max))"
    expectEqual(Pager.executable(missing, path: "/usr/bin:/bin"), nil)
    expect(!Pager.run("a\nb\n", command: [missing], path: "/usr/bin:/bin"))
    expect(!Pager.run("a\nb\n", command: ["sh"], path: nil), "no PATH: nothing found")
  }

  @Test func aPagerIsFoundOnThePathOrByItsPath() {
    expectEqual(Pager.executable("sh", path: "/nonexistent:/bin"), "/bin/sh")
    expectEqual(Pager.executable("/bin/sh", path: nil), "/bin/sh")
    expectEqual(Pager.executable("bin", path: "/"), nil, "a directory is not a pager")
    // A pager that reads everything: one that does not would leave this process a SIGPIPE.
    expect(Pager.run("a\nb\n", command: ["sh", "-c", "cat >/dev/null"], path: "/usr/bin:/bin"))
  }

  /// A context on a terminal 80 wide whose pager takes the text into `paged`.
  static func pagingContext(
    _ cli: CLIHarness, paged: Recorder<String>, printed: Recorder<String>
  ) -> CommandContext {
    CommandContext(
      environment: cli.environment, now: { fixedNow }, sleep: { _ in },
      makeTransport: { _ in .unreachable }, writeOut: { printed.append($0) }, writeErr: { _ in },
      terminal: { noColor, ascii in
        TerminalCapabilities.decide(
          isTTY: true, windowWidth: 80, environment: cli.environment, noColorFlag: noColor,
          asciiFlag: ascii)
      },
      page: {
        paged.append($0)
        return true
      })
  }

  @Test(arguments: [["help"], ["--help"], ["history", "--help"], ["help", "ledger", "add"]])
  func helpGoesToThePager(arguments: [String]) async throws {
    let (cli, paged, printed) = (try CLIHarness(), Recorder<String>(), Recorder<String>())
    let status = await RatesCLI.run(
      arguments, context: Self.pagingContext(cli, paged: paged, printed: printed))
    expectEqual(status, 0)
    expectEqual(paged.all.count, 1)
    expect(paged.all.first?.contains("Usage:") == true || paged.all.first?.contains("usage:") == true)
    expect(printed.all.isEmpty)
  }

  @Test(arguments: [["help", "--json"], ["history", "--help", "--json"], ["help", "--man"]])
  func jsonHelpAndTheManPageAreNeverPaged(arguments: [String]) async throws {
    let (cli, paged, printed) = (try CLIHarness(), Recorder<String>(), Recorder<String>())
    let status = await RatesCLI.run(
      arguments, context: Self.pagingContext(cli, paged: paged, printed: printed))
    expectEqual(status, 0)
    expect(paged.all.isEmpty)
    expectEqual(printed.all.count, 1)
  }

  /// Issue 27: the pager is started with posix_spawn (Foundation's `Process` is not in
  /// FoundationEssentials): found on PATH, the text on its stdin, waited for.
  @Test func aPagerGetsTheWholeTextOnItsInput() throws {
    let directory = try scratch.folder()
    let file = directory.appendingPathComponent("paged.txt")
    let text = String(repeating: "line of a long table\n", count: 5000)
    expect(Pager.run(text, command: ["sh", "-c", "cat > \"$1\"", "sh", file.path], path: "/usr/bin:/bin"))
    expectEqual(try String(contentsOf: file, encoding: .utf8), text)
  }

  /// The pager's pipe (and the key reader's) is closed in every other program started
  /// meanwhile: two pagers started side by side had each kept the other's input open, and
  /// both waited for ever.
  @Test func thePagersPipeIsClosedInOtherPrograms() throws {
    let pipe = try require(closeOnExecPipe())
    defer {
      close(pipe.read)
      close(pipe.write)
    }
    expect(fcntl(pipe.read, F_GETFD) & FD_CLOEXEC != 0)
    expect(fcntl(pipe.write, F_GETFD) & FD_CLOEXEC != 0)
  }
}
