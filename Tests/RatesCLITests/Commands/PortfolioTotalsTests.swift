import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// `rates portfolio`'s totals are the sums of its rows as shown (round the rows, then add),
/// in the table, `--json` and CSV, on random ledgers (seeded, so a failure reproduces); and
/// each CSV column means one thing on every row.
@Suite struct PortfolioTotalsTests {
  /// A random ledger of deposits, coin buys and sells and fiat exchanges in May and June 2024,
  /// amounts with cents (and a coin's with satoshis), then the currency to value it in.
  static func ledger(seed: UInt64) -> (commands: [[String]], currency: String) {
    var random = SeededGenerator(state: seed)
    let fiat = ["USD", "EUR", "GBP", "JPY", "CHF"]
    func day() -> String { "2024-05-\(String(format: "%02d", Int.random(in: 1...31, using: &random)))" }
    func cents(_ range: ClosedRange<Int>) -> String {
      let value = Int.random(in: range, using: &random)
      return "\(value / 100).\(String(format: "%02d", value % 100))"
    }
    var commands: [[String]] = []
    for _ in 0..<12 {
      let currency = fiat.randomElement(using: &random) ?? "USD"
      switch Int.random(in: 0..<3, using: &random) {
      case 0:
        commands.append(["ledger", "add", cents(1_000...900_000), currency, "--deposit", "--date", day()])
      case 1:
        let coin = ["BTC", "ETH"].randomElement(using: &random) ?? "BTC"
        let amount = "0.\(Int.random(in: 1_000_000...99_999_999, using: &random))"
        let side = Bool.random(using: &random) ? "--buy" : "--sell"
        commands.append(["ledger", "add", amount, coin, cents(10_000...5_000_000), currency, side, "--date", day()])
      default:
        let other = fiat.filter { $0 != currency }.randomElement(using: &random) ?? "EUR"
        commands.append([
          "ledger", "add", cents(1_000...500_000), currency, cents(1_000...500_000), other, "--sell",
          "--date", day(),
        ])
      }
    }
    return (commands, fiat.randomElement(using: &random) ?? "USD")
  }

  /// The figures whose column adds up to a total, as CSV and `--json` name them.
  static let summed = ["value", "change", "cost", "unrealized", "realized"]

  static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }

  @Test(arguments: [1, 7, 42, 2024, 31_337] as [UInt64])
  func rowsAddUpToTheirTotalsInEveryFormat(seed: UInt64) async throws {
    let (commands, currency) = Self.ledger(seed: seed)
    let (rates, _) = try CLIHarness.withFakeAPI()
    for command in commands {
      let added = await rates.run(command)
      expectEqual(added.status, 0, "\(command): \(added.stderr)")
    }
    let json = await rates.run(["portfolio", "--in", currency, "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    try Self.checkJSON(json.stdout, seed: seed)
    let csv = await rates.run(["portfolio", "--in", currency, "--format", "csv"])
    expectEqual(csv.status, 0, "\(csv.stderr)")
    try Self.checkCSV(csv.stdout, seed: seed)
    let table = await rates.run(["portfolio", "--in", currency], width: 200)
    expectEqual(table.status, 0, "\(table.stderr)")
    try Self.checkTable(table.stdout, currency: currency, seed: seed)
  }

  static func checkJSON(_ text: String, seed: UInt64) throws {
    let document = try require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let holdings = try require(document["holdings"] as? [[String: Any]])
    let totals = try require(document["totals"] as? [String: Any])
    expect(holdings.count >= 2, "seed \(seed): \(text)")
    for key in summed {
      let sum = holdings.reduce(0.0) { $0 + ((($1[key] as? NSNumber)?.doubleValue) ?? 0) }
      let total = try require((totals[key] as? NSNumber)?.doubleValue)
      expect(close(sum, total), "seed \(seed), JSON \(key): rows add up to \(sum), total \(total)")
    }
    for holding in holdings {
      let value = (holding["value"] as? NSNumber)?.doubleValue ?? .nan
      let cost = (holding["cost"] as? NSNumber)?.doubleValue ?? .nan
      let unrealized = (holding["unrealized"] as? NSNumber)?.doubleValue ?? .nan
      expect(close(value - cost, unrealized), "seed \(seed): \(holding)")
    }
  }

  static func checkCSV(_ text: String, seed: UInt64) throws {
    let lines = text.split(separator: "\r\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    let header = try require(lines.first)
    let column = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
    let rows = lines.dropFirst().filter { $0.first != "TOTAL" }
    let total = try require(lines.last)
    expect(total.first == "TOTAL" && lines.count == rows.count + 2, "seed \(seed): \(text)")
    func number(_ row: [String], _ name: String) -> Double { column[name].flatMap { Double(row[$0]) } ?? 0 }
    for key in summed {
      let sum = rows.reduce(0.0) { $0 + number($1, key) }
      expect(close(sum, number(total, key)), "seed \(seed), CSV \(key): \(sum) vs \(number(total, key))")
    }
    // One meaning per column: the money put in and taken out on the TOTAL row alone, a
    // holding's own putIn on the holdings' rows alone.
    let (putIn, moneyIn, moneyOut) = try (
      #require(column["putIn"]), #require(column["moneyIn"]), #require(column["moneyOut"])
    )
    expect(rows.allSatisfy { $0[moneyIn].isEmpty && $0[moneyOut].isEmpty && !$0[putIn].isEmpty }, "\(text)")
    expect(total[putIn].isEmpty && !total[moneyIn].isEmpty && !total[moneyOut].isEmpty, "\(text)")
  }

  /// The table's summed columns (right-aligned: each cell ends where its heading does).
  static func checkTable(_ text: String, currency: String, seed: UInt64) throws {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0)) }
    let headerIndex = try require(lines.firstIndex { String($0).hasPrefix("Asset") })
    let header = String(lines[headerIndex])
    let names = ["Value", "24h", "Share", "Cost", "Unrealized", "Realized"]
    let ends = try names.map { name in
      header.distance(from: header.startIndex, to: try require(header.range(of: name)?.upperBound))
    }
    let body = lines[(headerIndex + 1)...].prefix { !String($0).isEmpty }
    let totalLine = try require(body.last)
    expect(String(totalLine).hasPrefix("Total"), "seed \(seed): \(text)")
    // A cell ends where its heading ends and starts after the two spaces between cells.
    func cell(_ line: [Character], _ index: Int) -> Double {
      guard line.count >= ends[index], line[ends[index] - 1] != " " else { return 0 }
      let raw = String(line[0..<ends[index]]).components(separatedBy: "  ").last ?? ""
      let digits = raw.replacingOccurrences(of: currency, with: "")
        .replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "%", with: "")
      return Double(digits.trimmingCharacters(in: .whitespaces)) ?? .nan
    }
    for index in names.indices {
      let sum = body.dropLast().reduce(0.0) { $0 + cell($1, index) }
      let total = cell(totalLine, index)
      expect(abs(sum - total) < 1e-6, "seed \(seed), table \(names[index]): \(sum) vs \(total)\n\(text)")
    }
  }
}
