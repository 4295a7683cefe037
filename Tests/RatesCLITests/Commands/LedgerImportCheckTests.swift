import Foundation
import Testing

@testable import RateCore
import RatesCLIHarness
import RatesTestSupport

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
    return try #require(try list.json()["entries"] as? [[String: Any]]).count
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
    #expect(result.status == 64)
    #expect(result.stderr.contains("\(path): line 3: 'QQQZZ' is neither a currency nor a coin CoinGecko knows"), "\(result.stderr)")
    #expect(result.stderr.contains("nothing was imported"))
    #expect(try await Self.ledgerCount(rates) == 0)
    // A known coin in the same place imports.
    let good = try Self.write(
      String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        .replacingOccurrences(of: "QQQZZ", with: "XXBT"), "good.csv", in: rates)
    let imported = await rates.run(["ledger", "import", "--from", "kraken-ledgers", good])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  @Test func dryRunOfTheLedgersOwnCSVWritesNothing() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    #expect(await rates.run(["ledger", "add", "100", "USD", "8950000", "LBP", "--sell", "--date", "2024-06-01"]).status == 0)
    let export = await rates.run(["ledger", "export", "--csv"])
    let path = try Self.write(export.stdout, "ledger.csv", in: rates)
    #expect(await rates.run(["ledger", "remove", "1"]).status == 0)
    let dry = await rates.run(["ledger", "import", "--dry-run", path])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.hasPrefix("Would import 1 exchange; nothing was written (--dry-run)."))
    #expect(dry.stdout.contains("sell 100 USD for 8950000 LBP"))
    #expect(try await Self.ledgerCount(rates) == 0)
    let json = await rates.run(["ledger", "import", "--dry-run", "--json", path])
    #expect(try json.json()["dryRun"] as? Bool == true)
    #expect(try await Self.ledgerCount(rates) == 0)
    let real = await rates.run(["ledger", "import", path])
    #expect(real.stdout.hasPrefix("Imported 1 exchange as #2."))
  }
}
