import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates ledger import --from <exchange>` end to end in process: writes, re-imports, refusals,
/// `--skip-unknown`, `--dry-run`, `--from auto` and `--json`.
@Suite struct LedgerImportExchangeTests {
  static func fixture(_ path: String) -> String {
    Fixtures.url("real/exchanges/" + path).path
  }

  static let trx = fixture(
    "kraken/ledgers_old10_TRX_stake_unstake_transfers_weekly_rewards_blank_lines_CRLF__vergiFinance.csv")
  static let excel = fixture("kraken/trades_excel_resaved_US_dates_no_final_newline__everytrade.csv")
  static let krakenTrades = fixture(
    "kraken/trades_unquoted_short_ids_second_row_missing_pair__everytrade.csv")

  static func entries(_ rates: CLIHarness) async throws -> [[String: Any]] {
    let list = await rates.run(["ledger", "list", "--json"])
    return try require(try list.json()["entries"] as? [[String: Any]])
  }

  @Test func theSameFileTwiceAddsNothingTheSecondTime() async throws {
    let rates = try CLIHarness()
    let first = await rates.run(["ledger", "import", "--from", "kraken-ledgers", Self.trx])
    expectEqual(first.status, 0, "\(first.stderr)")
    expect(first.stdout.hasPrefix("Imported 14 entries as #1 to #14."))
    expectContains(first.stdout, "4 moves between own accounts")
    let stored = try await Self.entries(rates)
    expectEqual(stored.count, 14)
    expect(
      stored.contains { $0["importID"] as? String == "kraken:LYT5ZQ-GE2UQ-JBJMDX" && $0["role"] as? String == "income" }
    )
    let second = await rates.run(["ledger", "import", "--from", "kraken-ledgers", Self.trx])
    expectEqual(second.status, 0)
    expect(second.stdout.hasPrefix("Every entry of the files is already in the ledger; nothing was imported."))
    expectContains(second.stderr, "note: skipped 14 entries already in the ledger")
    expectEqual(try await Self.entries(rates).count, 14)
  }

  /// One rule for "already in the ledger": the ledger's own CSV export of imported entries adds
  /// nothing back (same terms), and the exchange's file again adds nothing (same import ids).
  @Test func exportThenImportAddsNothingEitherWay() async throws {
    let rates = try CLIHarness()
    expectEqual(await rates.run(["ledger", "import", "--from", "kraken-ledgers", Self.trx]).status, 0)
    let export = await rates.run(["ledger", "export", "--csv"])
    let file = rates.home.appendingPathComponent("ledger.csv")
    try Data(export.stdout.utf8).write(to: file)
    let back = await rates.run(["ledger", "import", file.path])
    expectEqual(back.status, 0, "\(back.stderr)")
    expectContains(back.stderr, "note: skipped 14 exchanges already in the ledger")
    let again = await rates.run(["ledger", "import", "--from", "auto", Self.trx])
    expectContains(again.stderr, "note: skipped 14 entries already in the ledger")
    expectEqual(try await Self.entries(rates).count, 14)
  }

  /// Two transactions alike in every term but their txids are two entries: an imported entry is
  /// matched by its import id only, never by its terms.
  @Test func entriesAlikeButForTheirIDsAreBothKept() async throws {
    let rates = try CLIHarness()
    let header = "txid,refid,time,type,subtype,aclass,asset,amount,fee,balance\n"
    for (name, txid) in [("a.csv", "L1"), ("b.csv", "L2")] {
      let file = rates.home.appendingPathComponent(name)
      try Data((header + "\(txid),R\(txid),2022-01-03 10:00:00,deposit,,currency,ZEUR,50,0,50\n").utf8)
        .write(to: file)
      let result = await rates.run(["ledger", "import", "--from", "kraken-ledgers", file.path])
      expectEqual(result.status, 0, "\(result.stderr)")
      expect(result.stdout.hasPrefix("Imported 1 entry"), "\(name): \(result.stdout)")
    }
    expectEqual(try await Self.entries(rates).count, 2)
  }

  @Test func anUnmappableRowBlocksTheFileNamingItsLine() async throws {
    let rates = try CLIHarness()
    let result = await rates.run(["ledger", "import", "--from", "kraken", Self.krakenTrades])
    expectEqual(result.status, 64)
    expectContains(result.stderr, "\(Self.krakenTrades): line 3: ")
    expectContains(result.stderr, "nothing was imported")
    expect(try await Self.entries(rates).isEmpty)
  }

  @Test func skipUnknownImportsTheRestAndListsWhatItSkipped() async throws {
    let rates = try CLIHarness()
    let result = await rates.run(["ledger", "import", "--from", "kraken", "--skip-unknown", Self.krakenTrades])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectContains(result.stderr, "warning: skipped \(Self.krakenTrades): line 3: ")
    expectEqual(try await Self.entries(rates).count, 2)
  }

  @Test func dryRunWritesNothing() async throws {
    let rates = try CLIHarness()
    let result = await rates.run(["ledger", "import", "--from", "auto", "--dry-run", Self.trx])
    expectEqual(result.status, 0, "\(result.stderr)")
    expect(result.stdout.hasPrefix("Would import 14 entries; nothing was written (--dry-run)."))
    expect(
      result.stdout.contains("  2021-03-09  sell 499.4582 EUR for 11286.68171558 TRX  kraken:TUO6RG-2YEOW-HUBEBZ"))
    expectContains(result.stderr, "note: \(Self.trx): read as Kraken ledgers (10 columns)")
    expect(!FileManager.default.fileExists(atPath: rates.home.appendingPathComponent("data/rates/ledger.json").path))
  }

  @Test func badDatesAndAnotherExchangesFileAreRefusedWithNothingWritten() async throws {
    let rates = try CLIHarness()
    let dates = await rates.run(["ledger", "import", "--from", "kraken", Self.excel])
    expectEqual(dates.status, 64)
    expectContains(dates.stderr, "\(Self.excel): line 2: cannot read the date '12/24/19 3:04 AM'")
    let other = await rates.run(["ledger", "import", "--from", "coinbase", Self.trx])
    expectEqual(other.status, 64)
    expectContains(other.stderr, "use --from kraken-ledgers")
    let bad = await rates.run(["ledger", "import", "--from", "bitstamp", Self.trx])
    expectEqual(bad.status, 64)
  }

  @Test func jsonListsTheFilesAndTheEntries() async throws {
    let rates = try CLIHarness()
    let result = await rates.run(["ledger", "import", "--from", "kraken-ledgers", "--json", Self.trx])
    expectEqual(result.status, 0, "\(result.stderr)")
    let document = try result.json()
    expectEqual((document["added"] as? [Any])?.count, 14)
    let files = try require(document["files"] as? [[String: Any]])
    expectEqual(files.first?["layout"] as? String, "Kraken ledgers (10 columns)")
    expectEqual(files.first?["ownMoves"] as? Int, 4)
    expectEqual(document["dryRun"] as? Bool, false)
  }
}
