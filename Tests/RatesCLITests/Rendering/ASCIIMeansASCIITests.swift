import RateCore
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// Issue 34: `--ascii` means ASCII, in everything written for a person: tables, charts,
/// notes, help, currency names from outside (`Icelandic Króna`) and the key's mask; a
/// `--json` document keeps its data as it is.
@Suite struct ASCIIMeansASCIITests {
  static func nonASCII(_ text: String) -> String {
    String(text.unicodeScalars.filter { !$0.isASCII }.map(Character.init))
  }

  @Test func everyTextOutputIsASCII() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    for arguments in [
      ["ledger", "add", "100", "USD", "8950000", "LBP", "--sell"],
      ["ledger", "add", "1", "BTC", "--deposit"],
    ] {
      let added = await rates.run(arguments)
      expectEqual(added.status, 0, "\(added.stderr)")
    }
    for arguments in [
      ["currencies"], ["history", "BTC", "USD", "--from", "2024-01-01"], ["history", "--help"],
      ["ledger", "list"], ["ledger", "stats", "USD", "LBP"], ["pairs", "add", "USD", "LBP"],
      ["pairs"], ["portfolio"], ["coins", "remove", "DOGE"], ["help"],
    ] {
      let result = await rates.run(arguments + ["--ascii"])
      expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
      expect(Self.nonASCII(result.stdout).isEmpty, "\(arguments): \(result.stdout)")
      expect(Self.nonASCII(result.stderr).isEmpty, "\(arguments): \(result.stderr)")
    }
    let json = await rates.run(["currencies", "--ascii", "--json"])
    expect(json.stdout.contains("Kr\\u00f3na") || json.stdout.contains("Króna"))
  }

  @Test func foldingKeepsMeaning() {
    expectEqual(
      ASCIIFold.folded("Icelandic Króna, Polish Złoty — 1 column ≈ 14 days ←/→ ••••"),
      "Icelandic Krona, Polish Zloty - 1 column ~ 14 days <-/-> ****")
    expectEqual(ASCIIFold.folded("plain"), "plain")
  }
}

/// `ledger list`'s closing line counts deposits and withdrawals as entries, not exchanges, and
/// names no rate for them (before: "1 exchange, newest first; RATE is  per BTC").
@Suite struct LedgerListFooterTests {
  @Test func transfersAreEntriesWithoutARate() async throws {
    let rates = try CLIHarness()
    expectEqual(await rates.run(["ledger", "add", "1", "BTC", "--deposit"]).status, 0)
    expect(await rates.run(["ledger", "list"]).stdout.hasSuffix("1 entry, newest first\n"))
    expectEqual(await rates.run(["ledger", "add", "100", "USD", "8950000", "LBP", "--sell"]).status, 0)
    let both = await rates.run(["ledger", "list"])
    expect(both.stdout.hasSuffix("2 entries, newest first; RATE is LBP per USD\n"), "\(both.stdout)")
  }
}
