import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `rates portfolio` and `ledger add --deposit/--withdraw` in process against the fake APIs,
/// with figures computed by hand from the amounts recorded and the fakes' rates.
@Suite struct PortfolioCommandTests {
  static let today = Day(containing: fixedNow)  // 2024-06-10

  /// The ledger of the suite: BTC, ETH, EUR, USD and LBP through deposits, buys, sells and a
  /// withdrawal, in May 2024.
  static let ledger: [[String]] = [
    ["ledger", "add", "10000", "USD", "--deposit", "--date", "2024-05-01"],
    ["ledger", "add", "0.1", "BTC", "6000", "USD", "--buy", "--date", "2024-05-02"],
    ["ledger", "add", "1", "ETH", "3000", "USD", "--buy", "--date", "2024-05-03"],
    ["ledger", "add", "0.1", "BTC", "7000", "USD", "--buy", "--date", "2024-05-04"],
    ["ledger", "add", "0.05", "BTC", "3500", "USD", "--sell", "--date", "2024-05-06"],
    ["ledger", "add", "1000", "USD", "900", "EUR", "--sell", "--date", "2024-05-07"],
    ["ledger", "add", "100", "USD", "8950000", "LBP", "--sell", "--date", "2024-05-08"],
    ["ledger", "add", "0.5", "ETH", "--deposit", "--cost", "1000 EUR", "--date", "2024-05-09"],
    ["ledger", "add", "0.5", "ETH", "--withdraw", "--date", "2024-05-10"],
  ]

  static func harness() async throws -> CLIHarness {
    let (rates, _) = try CLIHarness.withFakeAPI()
    for arguments in ledger {
      let result = await rates.run(arguments)
      expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
    }
    return rates
  }

  static func json(_ result: CommandResult) throws -> [String: Any] {
    expectEqual(result.status, 0, "\(result.stderr)")
    return try require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  static func holdings(_ document: [String: Any]) throws -> [String: [String: Any]] {
    let list = try require(document["holdings"] as? [[String: Any]])
    return Dictionary(uniqueKeysWithValues: list.map { ($0["symbol"] as? String ?? "", $0) })
  }

  static func number(_ object: [String: Any]?, _ key: String) -> Double {
    (object?[key] as? NSNumber)?.doubleValue ?? .nan
  }

  static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-6 * max(1, abs(b)) }

  /// EUR in USD on `day` from the fake ECB.
  static func eurUSD(_ day: String) -> Double {
    FakeFrankfurter.rate(base: "EUR", quote: "USD", day: try! #require(Day(day)))
  }

  @Test func todayFIFOAndAverageByHand() async throws {
    let rates = try await Self.harness()
    let fifo = try Self.json(await rates.run(["portfolio", "--in", "USD", "--json"]))
    let held = try Self.holdings(fifo)
    expectEqual(fifo["date"] as? String, Self.today.description)
    expectEqual(Set(held.keys), ["BTC", "ETH", "EUR", "USD", "LBP"])
    // BTC: 0.1 for 6,000 and 0.1 for 7,000; 0.05 sold for 3,500 takes half the first lot.
    expect(Self.close(Self.number(held["BTC"], "quantity"), 0.15))
    expect(Self.close(Self.number(held["BTC"], "cost"), 10_000))
    expect(Self.close(Self.number(held["BTC"], "realized"), 500))
    expectEqual(held["BTC"]?["source"] as? String, "coingecko")
    expectEqual(held["BTC"]?["rateDate"] as? String, Self.today.description)
    // ETH: the withdrawal takes half the first lot; the deposit cost 1,000 EUR on its day.
    let ethCost = 1_500 + 1_000 * Self.eurUSD("2024-05-09")
    expect(Self.close(Self.number(held["ETH"], "quantity"), 1))
    expect(Self.close(Self.number(held["ETH"], "cost"), ethCost))
    // USD: 10,000 − 6,000 − 3,000 − 7,000 (6,000 of it from outside) + 3,500 − 1,000 − 100.
    expect(Self.close(Self.number(held["USD"], "quantity"), 2_400))
    expect(Self.close(Self.number(held["USD"], "putIn"), 6_000))
    // LBP at the ledger's street rate of 89,500 per USD: worth what it cost.
    expect(Self.close(Self.number(held["LBP"], "value"), 100))
    expectEqual(held["LBP"]?["source"] as? String, "ledger")
    expectEqual(held["LBP"]?["rateDate"] as? String, "2024-05-08")
    // EUR at the last ECB rate published by now (06:13 UTC on a Monday: Friday's).
    expectEqual(held["EUR"]?["rateDate"] as? String, "2024-06-07")
    let eurToday = Self.eurUSD("2024-06-07")
    expect(Self.close(Self.number(held["EUR"], "value"), 900 * eurToday))
    expect(Self.close(Self.number(held["EUR"], "cost"), 1_000))
    let totals = try require(fifo["totals"] as? [String: Any])
    let value = held.values.reduce(0) { $0 + Self.number($1, "quantity") * Self.number($1, "rate") }
    expect(Self.close(Self.number(totals, "value"), value))
    expect(Self.close(Self.number(totals, "realized"), 500))
    expect(Self.close(Self.number(totals, "moneyIn"), 16_000 + 1_000 * Self.eurUSD("2024-05-09")))
    expect(Self.number(totals, "moneyOut") > 0)

    let average = try Self.json(await rates.run(["portfolio", "--in", "USD", "--method", "average", "--json"]))
    let averaged = try Self.holdings(average)
    expect(Self.close(Self.number(averaged["BTC"], "cost"), 13_000 - 3_250))
    expect(Self.close(Self.number(averaged["BTC"], "realized"), 250))
    expect(Self.close(Self.number(averaged["ETH"], "cost"), (3_000 + 1_000 * Self.eurUSD("2024-05-09")) * 2 / 3))
  }

  @Test func aPastDayAtThatDaysRates() async throws {
    let rates = try await Self.harness()
    let document = try Self.json(
      await rates.run(["portfolio", "--in", "EUR", "--as-of", "2024-05-07", "--json"]))
    let held = try Self.holdings(document)
    expectEqual(Set(held.keys), ["BTC", "ETH", "EUR", "USD"])
    // In EUR: the USD left (2,500) at the ECB rate of 2024-05-07, the 900 EUR as they are.
    let usdEUR = FakeFrankfurter.rate(base: "USD", quote: "EUR", day: try require(Day("2024-05-07")))
    expect(Self.close(Self.number(held["USD"], "value"), 2_500 * usdEUR))
    expect(Self.close(Self.number(held["EUR"], "value"), 900))
    expectEqual(held["USD"]?["rateDate"] as? String, "2024-05-07")
    // The BTC cost: 6,000 and 7,000 USD at their own days' rates, less half the first lot.
    let cost =
      3_000 * FakeFrankfurter.rate(base: "USD", quote: "EUR", day: try require(Day("2024-05-02")))
      + 7_000 * FakeFrankfurter.rate(base: "USD", quote: "EUR", day: try require(Day("2024-05-03")))
    expect(Self.close(Self.number(held["BTC"], "cost"), cost))
  }

  @Test func offlineFiatFromTheSnapshot() async throws {
    let rates = try CLIHarness()
    _ = await rates.run(["ledger", "add", "1000", "EUR", "--deposit", "--cost", "1100 USD", "--date", "2015-06-01"])
    let document = try Self.json(
      await rates.run(["portfolio", "--in", "USD", "--as-of", "2015-06-01", "--offline", "--json"]))
    let eur = try require(try Self.holdings(document)["EUR"])
    // The snapshot's 2015-06-01 row has USD 1.0944 per euro.
    expect(Self.close(Self.number(eur, "value"), 1_094.4))
    expect(Self.close(Self.number(eur, "unrealized"), 1_094.4 - 1_100))
    expectEqual((eur["source"] as? String)?.hasPrefix("ECB snapshot"), true)
    expectEqual(document["stale"] as? Bool, true)
  }

  @Test func badInputIsOneLineAndWritesNothing() async throws {
    let rates = try await Self.harness()
    let file = rates.home.appendingPathComponent("data/rates/ledger.json")
    let before = try Data(contentsOf: file)
    let overdrawn = await rates.run(["ledger", "add", "2", "ETH", "--withdraw"])
    expectEqual(overdrawn.status, 64)
    expectContains(overdrawn.stderr, "only 1.00000000 ETH is held")
    let zero = await rates.run(["ledger", "add", "0", "BTC", "--deposit"])
    expectEqual(zero.status, 64)
    let badCost = await rates.run(["ledger", "add", "1", "BTC", "--deposit", "--cost", "lots"])
    expectEqual(badCost.status, 64)
    expectEqual(try Data(contentsOf: file), before)
    let notECB = await rates.run(["portfolio", "--in", "LBP"])
    expectEqual(notECB.status, 64)
    expect(notECB.stderr.hasPrefix("error: --in 'LBP' is not an ECB currency"), "\(notECB.stderr)")
    _ = await rates.run(["ledger", "add", "1000", "NGN", "--deposit"])
    let unpriced = await rates.run(["portfolio"])
    expectEqual(unpriced.status, 64)
    expectContains(unpriced.stderr, "NGN cannot be valued")
  }

  @Test func aDateBeforeAnyRate() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    _ = await rates.run(["ledger", "add", "100", "EUR", "--deposit", "--date", "1995-01-02"])
    let result = await rates.run(["portfolio", "--as-of", "1995-01-02"])
    expect(result.status == 66 || result.status == 64, "\(result.status) \(result.stderr)")
    expectEqual(result.stderr.split(separator: "\n").count, 1, "\(result.stderr)")
  }

  @Test func tableAndCSV() async throws {
    let rates = try await Self.harness()
    let table = await rates.run(["portfolio", "--in", "USD"])
    expectEqual(table.status, 0, "\(table.stderr)")
    expectContains(table.stdout, "Portfolio in USD on \(Self.today) (gains by FIFO)")
    expectContains(table.stdout, "paid from outside: 6,000.00 USD")
    expectContains(table.stdout, "street rate USD-LBP")
    let csv = await rates.run(["portfolio", "--in", "USD", "--format", "csv"])
    expectEqual(csv.status, 0, "\(csv.stderr)")
    let lines = csv.stdout.split(separator: "\r\n")
    expectEqual(lines.first?.hasPrefix("symbol,quantity,rate,rateDate,source,value"), true, "\(csv.stdout)")
    expectEqual(lines.last?.hasPrefix("TOTAL,"), true)
    expectEqual(lines.count, 7)
  }

  @Test func transfersListExportAndImportBack() async throws {
    let rates = try await Self.harness()
    let list = await rates.run(["ledger", "list"])
    expectContains(list.stdout, "cost 1,000.00 EUR")
    let csv = await rates.run(["ledger", "export", "--csv"])
    expectContains(csv.stdout, ",deposit,10000,USD,,,")
    expectContains(csv.stdout, ",withdrawal,0.5,ETH,,,")
    let other = try CLIHarness()
    let path = other.home.appendingPathComponent("ledger.csv")
    try csv.stdout.write(to: path, atomically: true, encoding: .utf8)
    let imported = await other.run(["ledger", "import", path.path])
    expectEqual(imported.status, 0, "\(imported.stderr)")
    let again = await other.run(["ledger", "export", "--csv"])
    expectContains(again.stdout, ",deposit,0.5,ETH,1000,EUR,")
  }
}
