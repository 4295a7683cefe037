import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// `ledger import` refuses a currency no source prices (naming file and line, writing
/// nothing), and `--dry-run` shows what the ledger's own CSV would add without writing it.
@Suite struct LedgerImportCheckTests {
  static let header = #""txid","refid","time","type","subtype","aclass","asset","amount","fee","balance""#

  static func write(_ text: String, _ name: String, in rates: CLIHarness) throws -> String {
    let file = rates.home.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return file.path
  }

  static func ledgerCount(_ rates: CLIHarness) async throws -> Int {
    let list = await rates.run(["ledger", "list", "--json"])
    return try require(try list.json()["entries"] as? [[String: Any]]).count
  }

  @Test func aCoinNoSourceKnowsIsRefusedWithItsFileAndLine() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let path = try Self.write(
      """
      \(Self.header)
      "LD1-A-1","QD1-A-1","2024-05-01 09:00:00","deposit","","currency","ZEUR",100.0000,0.0000,100.0000
      "LT1-A-1","TT1-A-1","2024-05-02 10:00:00","trade","","currency","ZEUR",-50.0000,0.0000,50.0000
      "LT1-A-2","TT1-A-1","2024-05-02 10:00:00","trade","","currency","QQQZZ",12.0000000000,0.0000000000,12.0000000000

      """, "ledgers.csv", in: rates)
    let result = await rates.run(["ledger", "import", "--from", "kraken-ledgers", path])
    expectEqual(result.status, 64)
    expect(
      result.stderr.contains("\(path): line 3: 'QQQZZ' is neither a currency nor a coin CoinGecko knows"),
      "\(result.stderr)")
    // One line per problem, each an error line, and the verdict a line of its own.
    expect(result.stderr.hasSuffix("\nerror: nothing was imported\n"), "\(result.stderr)")
    expectEqual(try await Self.ledgerCount(rates), 0)
    let skipping = await rates.run(["ledger", "import", "--from", "kraken-ledgers", "--skip-unknown", path])
    expectEqual(skipping.status, 0, "\(skipping.stderr)")
    expectContains(skipping.stderr, "warning: skipped \(path): line 3: 'QQQZZ'")
    expectEqual(try await Self.ledgerCount(rates), 1, "the deposit; the trade in QQQZZ left out")
    // A known coin in the same place imports.
    let good = try Self.write(
      String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        .replacingOccurrences(of: "QQQZZ", with: "XXBT"), "good.csv", in: rates)
    let imported = await rates.run(["ledger", "import", "--from", "kraken-ledgers", good])
    expectEqual(imported.status, 0, "\(imported.stderr)")
    expectEqual(try await Self.ledgerCount(rates), 2)
  }

  @Test func dryRunOfTheLedgersOwnCSVWritesNothing() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    expectEqual(
      await rates.run(["ledger", "add", "100", "USD", "8950000", "LBP", "--sell", "--date", "2024-06-01"]).status, 0)
    let export = await rates.run(["ledger", "export", "--csv"])
    let path = try Self.write(export.stdout, "ledger.csv", in: rates)
    expectEqual(await rates.run(["ledger", "remove", "1"]).status, 0)
    let dry = await rates.run(["ledger", "import", "--dry-run", path])
    expectEqual(dry.status, 0, "\(dry.stderr)")
    expect(dry.stdout.hasPrefix("Would import 1 exchange; nothing was written (--dry-run)."))
    expectContains(dry.stdout, "sell 100 USD for 8950000 LBP")
    expectEqual(try await Self.ledgerCount(rates), 0)
    let auto = await rates.run(["ledger", "import", "--from", "auto", "--dry-run", path])
    expectContains(auto.stderr, "read as the ledger's own CSV")
    expect(auto.stdout.hasPrefix("Would import 1 exchange"))
    let json = await rates.run(["ledger", "import", "--dry-run", "--json", path])
    expectEqual(try json.json()["dryRun"] as? Bool, true)
    expectEqual(try await Self.ledgerCount(rates), 0)
    let real = await rates.run(["ledger", "import", path])
    expect(real.stdout.hasPrefix("Imported 1 exchange as #2."))
  }

  /// A backup read back is the same ledger: `ledger export --csv` keeps each imported entry's
  /// role (fee, income) and import id, so the gains are the same and the exchange's file adds
  /// nothing after it; coins of four letters and more read back too.
  @Test func anExportReadBackKeepsFeesIncomeAndImportIDs() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let kraken = try Self.write(PortfolioGainsCommandTests.krakenLedgers, "ledgers.csv", in: rates)
    expectEqual(await rates.run(["ledger", "import", "--from", "kraken-ledgers", kraken]).status, 0)
    let gains = ["portfolio", "gains", "--from", "2023-07-01", "--in", "EUR", "--json"]
    let before = try require(try (await rates.run(gains)).json()["totals"] as? [String: Any])
    let export = await rates.run(["ledger", "export", "--csv"])
    let backup = try Self.write(export.stdout, "backup.csv", in: rates)
    let (restored, _) = try CLIHarness.withFakeAPI()
    let read = await restored.run(["ledger", "import", backup])
    expectEqual(read.status, 0, "\(read.stderr)")
    let after = try require(try (await restored.run(gains)).json()["totals"] as? [String: Any])
    expectEqual(after["gain"] as? Double, before["gain"] as? Double)
    expectEqual(after["fee"] as? Double, before["fee"] as? Double)
    let again = await restored.run(["ledger", "import", "--from", "kraken-ledgers", kraken])
    expect(again.stdout.hasPrefix("Every entry of the files is already in the ledger"), "\(again.stdout)")
  }

  /// Kraken's trades.csv and ledgers.csv name the same trade (the ledger rows' refid is the
  /// trade's txid): importing both adds it once.
  @Test func krakensTwoFilesOfOneTradeAddItOnce() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let ledgers = try Self.write(
      """
      \(Self.header)
      "LT1-A-1","TQ4MBY-ABCDE-FGHIJK","2024-05-02 10:00:00","trade","","currency","ZEUR",-50.0000,0.1300,50.0000
      "LT1-A-2","TQ4MBY-ABCDE-FGHIJK","2024-05-02 10:00:00","trade","","currency","XXBT",0.0010000000,0.0000000000,0.0010000000

      """, "ledgers.csv", in: rates)
    let trades = try Self.write(
      """
      "txid","ordertxid","pair","time","type","ordertype","price","cost","fee","vol","margin","misc","ledgers"
      "TQ4MBY-ABCDE-FGHIJK","OABCDE-FGHIJ-KLMNOP","XXBTZEUR","2024-05-02 10:00:00","buy","limit",50000.0,50.0000,0.1300,0.0010000000,0.0000,"","LT1-A-1,LT1-A-2"

      """, "trades.csv", in: rates)
    let first = await rates.run(["ledger", "import", "--from", "kraken-ledgers", ledgers])
    expectEqual(first.status, 0, "\(first.stderr)")
    let second = await rates.run(["ledger", "import", "--from", "kraken", trades])
    expectEqual(second.status, 0, "\(second.stderr)")
    expect(second.stdout.hasPrefix("Every entry of the files is already in the ledger"), "\(second.stdout)")
    expectEqual(try await Self.ledgerCount(rates), 2)
  }

  /// Files imported together are numbered together: a deposit in one file comes before the
  /// same day's withdrawal in another, so the ledger never takes out what it has not received.
  @Test func filesImportedTogetherAreNumberedInTimeOrder() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let out = try Self.write(
      """
      \(Self.header)
      "LW1-A-1","AW1-A-1","2024-05-02 10:00:00","withdrawal","","currency","XXBT",-0.5000000000,0.0000000000,0.5000000000

      """, "withdrawals.csv", in: rates)
    let into = try Self.write(
      """
      \(Self.header)
      "LD1-A-1","QD1-A-1","2024-05-02 09:00:00","deposit","","currency","XXBT",1.0000000000,0.0000000000,1.0000000000

      """, "deposits.csv", in: rates)
    expectEqual(await rates.run(["ledger", "import", "--from", "kraken-ledgers", out, into]).status, 0)
    let list = await rates.run(["ledger", "list", "--json"])
    let entries = try require(try list.json()["entries"] as? [[String: Any]])
    let byID = entries.sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }.map { $0["kind"] as? String }
    expectEqual(byID, ["deposit", "withdrawal"])
    let portfolio = await rates.run(["portfolio", "--in", "EUR"])
    expectEqual(portfolio.status, 0, "\(portfolio.stderr)")
  }
}
