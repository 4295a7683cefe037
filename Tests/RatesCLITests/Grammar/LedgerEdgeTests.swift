import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Issue 34: ledger entries judged in the order recorded, refusals that name the field at
/// fault, limits named as limits, a corrupt line's own column.
@Suite struct LedgerEdgeTests {
  static func run(_ cli: CLIHarness, _ arguments: [String]) async -> CommandResult {
    await cli.run(["ledger", "add"] + arguments)
  }

  @Test func aWithdrawalOnItsDepositsDayIsAccepted() async throws {
    let cli = try CLIHarness()
    for date in ["yesterday", "today"] {
      let deposit = await Self.run(cli, ["0.5", "BTC", "--deposit", "--cost", "20000 USD", "--date", date])
      expectEqual(deposit.status, 0, "\(deposit.stderr)")
      let withdrawal = await Self.run(cli, ["0.5", "BTC", "--withdraw", "--date", date])
      expectEqual(withdrawal.status, 0, "same-day entries count in the order recorded: \(withdrawal.stderr)")
    }
    let entries = try await cli.run(["ledger", "list", "--json"]).json()["entries"] as? [[String: Any]]
    expectEqual(entries?.count, 4)
  }

  @Test func aWithdrawalOfMoreThanHeldNamesNoUnwrittenEntry() async throws {
    let cli = try CLIHarness()
    expectEqual(await Self.run(cli, ["0.5", "BTC", "--deposit"]).status, 0)
    let refused = await Self.run(cli, ["0.7", "BTC", "--withdraw"])
    expectEqual(refused.status, 64)
    expect(
      refused.stderr.hasPrefix(
        "error: the withdrawal takes 0.70000000 BTC on \(Day(containing: fixedNow)), but only "
          + "0.50000000 BTC is held then: withdraw at most that"), "\(refused.stderr)")
    expect(!refused.stderr.contains("remove"))
  }

  @Test(arguments: [
    (
      ["0.5", "BTC", "--deposit", "--cost", "100", "XYZ"],
      "the cost's currency 'XYZ' is neither a currency nor a well-known coin"
    ),
    (["0.5", "BTC", "--deposit", "--cost", "1e16", "USD"], "the cost '1e16' is too large (at most 1e15)"),
    (["0.5", "BTC", "--deposit", "--cost", "1e16USD"], "the cost '1e16' is too large (at most 1e15)"),
  ])
  func aBadCostNamesTheCostAndItsLimit(_ arguments: [String], _ message: String) async throws {
    let cli = try CLIHarness()
    let refused = await Self.run(cli, arguments)
    expectEqual(refused.status, 64)
    expect(refused.stderr.hasPrefix("error: " + message), "\(refused.stderr)")
    expect(!FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("data/rates/ledger.json").path))
  }

  @Test func aCostInAnotherCurrencyOrAWellKnownCoinIsAccepted() async throws {
    let cli = try CLIHarness()
    for cost in ["9000000 LBP", "0.05 BTC", "100 EUR"] {
      let added = await Self.run(cli, ["1", "ETH", "--deposit", "--cost", cost])
      expectEqual(added.status, 0, "\(cost): \(added.stderr)")
    }
  }

  @Test func aCorruptLineReportsItsLineAndItsColumnInThatLine() async throws {
    let cli = try CLIHarness()
    for amount in ["1", "2"] {
      expectEqual(await Self.run(cli, [amount, "USD", "3", "EUR", "--sell"]).status, 0)
    }
    let file = cli.home.appendingPathComponent("data/rates/ledger.json")
    var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    lines[2] = lines[2].replacingOccurrences(of: #""amount":2"#, with: #""amount":2x"#)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
    let column = try require(lines[2].range(of: "2x")).upperBound.utf16Offset(in: lines[2])
    let list = await cli.run(["ledger", "list"])
    expectEqual(list.status, 74)
    expectContains(list.stderr, "line 3 is not a valid record (expected '}' at column \(column))")
  }

  /// An entry whose currency nothing prices (written before `add` refused it, or by hand):
  /// `portfolio` names the entry and the field, not only a coin that does not exist.
  @Test func portfolioNamesTheEntryWhoseCostNothingPrices() async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    expectEqual(await Self.run(cli, ["1", "EUR", "2", "USD", "--sell"]).status, 0)
    expectEqual(await Self.run(cli, ["0.5", "BTC", "--deposit", "--cost", "100 USD"]).status, 0)
    let file = cli.home.appendingPathComponent("data/rates/ledger.json")
    let text = try String(contentsOf: file, encoding: .utf8)
    try Data(text.replacingOccurrences(of: #""counterCurrency":"USD","#, with: #""counterCurrency":"XYZ","#).utf8)
      .write(to: file)
    let portfolio = await cli.run(["portfolio"])
    expectEqual(portfolio.status, 64)
    expect(
      portfolio.stderr.hasPrefix(
        "error: #1's for-currency 'XYZ' is neither a currency nor a coin CoinGecko knows"),
      "\(portfolio.stderr)")
    expectContains(portfolio.stderr, "'rates ledger remove 1'")
  }
}
