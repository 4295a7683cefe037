import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// `rates portfolio gains` end to end in process, on a ledger imported from a Kraken ledgers
/// file (fees on either leg, staking income, a conversion, a withdrawal with its fee and the
/// deposit that brings the coin back), priced by the fake APIs.
@Suite struct PortfolioGainsCommandTests {
  static let krakenLedgers = """
    "txid","refid","time","type","subtype","aclass","asset","amount","fee","balance"
    "LD0001-AAAAA-000001","QD0001-AAAAA-000001","2023-07-01 09:00:00","deposit","","currency","ZEUR",10000.0000,0.0000,10000.0000
    "LT0001-AAAAA-000001","TT0001-AAAAA-000001","2023-07-03 10:00:00","trade","","currency","ZEUR",-5000.0000,8.0000,4992.0000
    "LT0001-AAAAA-000002","TT0001-AAAAA-000001","2023-07-03 10:00:00","trade","","currency","XXBT",0.2000000000,0.0000000000,0.2000000000
    "LT0002-AAAAA-000001","TT0002-AAAAA-000001","2023-08-01 10:00:00","trade","","currency","ZEUR",-1800.0000,2.9000,3189.1000
    "LT0002-AAAAA-000002","TT0002-AAAAA-000001","2023-08-01 10:00:00","trade","","currency","XETH",1.0000000000,0.0000000000,1.0000000000
    "LS0001-AAAAA-000001","RS0001-AAAAA-000001","2023-10-01 02:00:00","staking","","currency","XETH",0.0100000000,0.0000000000,1.0100000000
    "LT0003-AAAAA-000001","TT0003-AAAAA-000001","2023-12-31 10:00:00","trade","","currency","XXBT",-0.0500000000,0.0000000000,0.1500000000
    "LT0003-AAAAA-000002","TT0003-AAAAA-000001","2023-12-31 10:00:00","trade","","currency","ZEUR",2100.0000,3.3600,5285.7400
    "LT0004-AAAAA-000001","TT0004-AAAAA-000001","2024-01-01 10:00:00","trade","","currency","XETH",-0.5000000000,0.0000000000,0.5100000000
    "LT0004-AAAAA-000002","TT0004-AAAAA-000001","2024-01-01 10:00:00","trade","","currency","XXBT",0.0200000000,0.0000200000,0.1699800000
    "LW0001-AAAAA-000001","AW0001-AAAAA-000001","2024-04-01 10:00:00","withdrawal","","currency","XXBT",-0.0500000000,0.0001000000,0.1198800000
    "LD0002-AAAAA-000001","QD0002-AAAAA-000001","2024-04-02 10:00:00","deposit","","currency","XXBT",0.0500000000,0.0000000000,0.1698800000
    "LT0005-AAAAA-000001","TT0005-AAAAA-000001","2024-06-05 10:00:00","trade","","currency","XXBT",-0.1000000000,0.0000000000,0.0698800000
    "LT0005-AAAAA-000002","TT0005-AAAAA-000001","2024-06-05 10:00:00","trade","","currency","ZEUR",6000.0000,9.6000,11276.1400

    """

  /// A harness whose ledger holds the Kraken file's entries.
  static func imported() async throws -> CLIHarness {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let file = rates.home.appendingPathComponent("ledgers.csv")
    try Data(krakenLedgers.utf8).write(to: file)
    let result = await rates.run(["ledger", "import", "--from", "kraken-ledgers", file.path])
    expectEqual(result.status, 0, "\(result.stderr)")
    return rates
  }

  static func number(_ object: [String: Any], _ path: String...) -> Double? {
    var value: Any? = object
    for key in path { value = (value as? [String: Any])?[key] }
    return value as? Double
  }

  /// The gains of a year are the change of `portfolio`'s realized gains over it, in the
  /// documents a script reads: 2023-12-31's sale is in 2023, 2024-01-01's conversion in 2024.
  @Test(arguments: ["fifo", "average", "hifo"])
  func aYearsGainsAreTheChangeOfRealizedGains(method: String) async throws {
    let rates = try await Self.imported()
    func realized(asOf day: String) async throws -> Double {
      let result = await rates.run(["portfolio", "--in", "EUR", "--as-of", day, "--method", method, "--json"])
      expectEqual(result.status, 0, "\(result.stderr)")
      return try require(Self.number(try result.json(), "totals", "realized"))
    }
    let before = try await realized(asOf: "2022-12-31")
    let end2023 = try await realized(asOf: "2023-12-31")
    let today = try await realized(asOf: "2024-06-10")
    for (year, change, disposals) in [("2023", end2023 - before, 1), ("2024", today - end2023, 4)] {
      let gains = await rates.run(["portfolio", "gains", "--year", year, "--in", "EUR", "--method", method, "--json"])
      expectEqual(gains.status, 0, "\(gains.stderr)")
      let document = try gains.json()
      let total = try require(Self.number(document, "totals", "gain"))
      // Both are sums of rows rounded to the cent (disposals here, holdings there).
      expect(abs(total - change) <= 0.011, "\(year): gains \(total), realized changed \(change)")
      expect((document["disposals"] as? [Any])?.count ?? 0 >= disposals, "\(year)")
    }
  }

  /// The fee rules as the rows show them: a purchase's EUR fee in the cost, a sale's EUR fee
  /// off its proceeds, a conversion's fee in the coin received disposed of on its own; income
  /// apart; the withdrawal's fee a disposal of its own; the deposit after the withdrawal
  /// brings back the July lot, so the June sale is matched to 2023-07-03 at 25,040 EUR/BTC.
  @Test func feesIncomeAndATransferAsTheRulesSay() async throws {
    let rates = try await Self.imported()
    let result = await rates.run(["portfolio", "gains", "--from", "2023-07-01", "--in", "EUR", "--json"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let document = try result.json()
    let disposals = try require(document["disposals"] as? [[String: Any]])
    func rows(_ date: String, _ symbol: String, kind: String = "trade") -> [[String: Any]] {
      disposals.filter {
        $0["date"] as? String == date && $0["symbol"] as? String == symbol && $0["kind"] as? String == kind
      }
    }
    let december = try require(rows("2023-12-31", "BTC").first)
    expectEqual(december["fee"] as? Double, 3.36)
    expectEqual(december["proceeds"] as? Double, 2_096.64)
    expectEqual(december["cost"] as? Double, 1_252, "0.05 of 0.2 BTC that cost 5,000 + 8 EUR")
    expectEqual(rows("2024-01-01", "BTC", kind: "fee").count, 1, "the conversion's fee, paid in BTC")
    expectEqual(rows("2024-04-01", "BTC", kind: "fee").count, 1, "the withdrawal's fee")
    let june = rows("2024-06-05", "BTC")
    let lots = june.flatMap { ($0["lots"] as? [[String: Any]]) ?? [] }
    expectEqual(lots.first?["acquired"] as? String, "2023-07-03")
    expectEqual(june.first?["fee"] as? Double, 9.6)
    let income = try require(document["income"] as? [[String: Any]])
    expectEqual(income.map { $0["symbol"] as? String }, ["ETH"])
    expectEqual(income.first?["note"] as? String, "Kraken staking")
    expect(disposals.allSatisfy { $0["symbol"] as? String != "EUR" })
  }

  /// CSV: one row per disposal then per income, the same figures as `--json`, no totals row.
  @Test func csvHasARowPerDisposalAndIncome() async throws {
    let rates = try await Self.imported()
    let csv = await rates.run(["portfolio", "gains", "--from", "2023-07-01", "--in", "EUR", "--format", "csv"])
    let json = await rates.run(["portfolio", "gains", "--from", "2023-07-01", "--in", "EUR", "--json"])
    expectEqual(csv.status, 0, "\(csv.stderr)")
    let lines = csv.stdout.split(whereSeparator: \.isNewline).map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    let header = try require(lines.first)
    expect(header.first == "date" && header.contains("gain") && header.contains("acquired"))
    let disposals = try require(try json.json()["disposals"] as? [[String: Any]])
    let body = lines.dropFirst()
    expectEqual(body.filter { $0[2] != "income" }.count, disposals.count)
    expectEqual(body.filter { $0[2] == "income" }.count, 1)
    let gainColumn = try require(header.firstIndex(of: "gain"))
    let csvGains = body.compactMap { Double($0[gainColumn]) }.reduce(0, +)
    let jsonGains = disposals.compactMap { $0["gain"] as? Double }.reduce(0, +)
    expect(abs(csvGains - jsonGains) < 1e-9)
    expect(body.allSatisfy { $0.count == header.count })
  }

  @Test func anEmptyPeriodSaysSoAndExitsZero() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["portfolio", "gains", "--year", "2023"])
    expectEqual(result.status, 0)
    expect(result.stdout.hasPrefix("No disposals and no income from 2023-01-01 to 2023-12-31"))
  }

  @Test(arguments: [
    (["--year", "2025"], "--year 2025 has not begun"), (["--year", "2023", "--from", "2023-01-01"], "pick one"),
    (["--method", "lifo"], "--method"), (["--to", "2024-01-01"], "give the first day too"),
    (["--from", "2024-06-01", "--to", "2024-05-01"], "swap them"), (["--in", "BTC"], "not an ECB currency"),
  ])
  func badOptionsAreUsageErrors(arguments: [String], message: String) async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let result = await rates.run(["portfolio", "gains"] + arguments)
    expectEqual(result.status, 64)
    expectContains(result.stderr, message, "\(result.stderr)")
  }
}
