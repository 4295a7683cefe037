import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `--cost` takes an amount and a currency as one argument or as two, as a user writes it.
@Suite struct LedgerCostOptionTests {
  static func isCode(_ text: String) -> Bool { (try? LedgerInput.currency(text)) != nil }

  static func cost(_ arguments: [String]) throws -> (cost: String?, left: [String]) {
    var scanner = ArgumentScanner(arguments)
    let cost = try scanner.amountAndCodeOption(anyOf: ["--cost"], isCode: isCode)
    return (cost, scanner.positionals())
  }

  @Test func theScannerJoinsAnAmountAndTheCodeAfterIt() throws {
    expect(try Self.cost(["0.5", "BTC", "--cost", "20000", "USD"]) == ("20000 USD", ["0.5", "BTC"]))
    expect(try Self.cost(["--cost", "20000", "usd", "0.5", "BTC"]) == ("20000 usd", ["0.5", "BTC"]))
    expect(try Self.cost(["--cost=20000", "USD", "0.5", "BTC"]) == ("20000 USD", ["0.5", "BTC"]))
    expect(try Self.cost(["--cost", "20000 USD", "0.5", "BTC"]) == ("20000 USD", ["0.5", "BTC"]))
    expect(try Self.cost(["--cost", "20000USD", "0.5", "BTC"]) == ("20000USD", ["0.5", "BTC"]))
    expect(try Self.cost(["--cost", "1e16", "USD", "0.5", "BTC"]) == ("1e16 USD", ["0.5", "BTC"]))
    // Nothing to join: a value with its code, a following amount, a following option.
    expect(try Self.cost(["--cost", "20000 USD", "EUR"]) == ("20000 USD", ["EUR"]))
    expect(try Self.cost(["--cost", "20000", "0.5", "BTC"]) == ("20000", ["0.5", "BTC"]))
    expect(try Self.cost(["--cost", "USD", "EUR"]) == ("USD", ["EUR"]))
    expect(try Self.cost(["--cost", "20000", "--", "USD"]) == ("20000", ["USD"]))
  }

  /// The entry `ledger list --json` shows last.
  static func lastEntry(_ rates: CLIHarness) async throws -> [String: Any] {
    let list = await rates.run(["ledger", "list", "--json"])
    let document = try require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
    let entries = try require(document["entries"] as? [[String: Any]])
    return try require(entries.max { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) })
  }

  @Test func aDepositTakesItsCostUnquoted() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    for arguments in [
      ["ledger", "add", "0.5", "BTC", "--deposit", "--cost", "20000", "USD", "--date", "2024-05-09"],
      ["ledger", "add", "0.5", "BTC", "--deposit", "--cost", "20000 USD", "--date", "2024-05-09"],
      ["ledger", "add", "--cost", "20000", "usd", "0.5", "BTC", "--deposit", "--date", "2024-05-09"],
    ] {
      let result = await rates.run(arguments)
      expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
      let entry = try await Self.lastEntry(rates)
      expectEqual(entry["counterCurrency"] as? String, "USD", "\(arguments): \(entry)")
      expectEqual((entry["counterAmount"] as? NSNumber)?.doubleValue, 20_000, "\(arguments): \(entry)")
      expectEqual(entry["amount"] as? NSNumber, 0.5, "\(arguments): \(entry)")
    }
  }

  @Test func aCostWithoutItsCurrencyOrAmountIsOneClearLineAndNothingIsWritten() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    _ = await rates.run(["ledger", "add", "100", "USD", "--deposit"])
    let file = rates.home.appendingPathComponent("data/rates/ledger.json")
    let before = try Data(contentsOf: file)
    for (arguments, message) in [
      (["--cost", "20000"], #"error: the cost '20000' is not an amount and a currency: write it like 20000 USD"#),
      (["--cost", "USD"], #"error: the cost 'USD' is not an amount and a currency: write it like 20000 USD"#),
      (["--cost", "20000", "12"], "error: the cost '20000' is not an amount and a currency"),
    ] {
      let result = await rates.run(["ledger", "add", "0.5", "BTC", "--deposit"] + arguments)
      expectEqual(result.status, 64, "\(arguments): \(result.stderr)")
      expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
    }
    expectEqual(try Data(contentsOf: file), before)
  }
}
