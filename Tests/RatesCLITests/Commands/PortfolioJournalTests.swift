import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `ledger export --format ledger|beancount`: the journal's market value of Assets, read the
/// way hledger's `bal -X` reads it (balances per commodity × the latest price directive on or
/// before the day), equals `rates portfolio --as-of` on three days.
@Suite struct PortfolioJournalTests {
  /// The Assets balance per commodity through `day`, and the latest price of each, from a
  /// ledger-syntax journal.
  static func marketValue(_ journal: String, on day: String, in currency: String) -> Double {
    var balances: [String: Double] = [:]
    var prices: [String: (String, Double)] = [:]
    var date = ""
    for line in journal.split(separator: "\n", omittingEmptySubsequences: false) {
      let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      if line.hasPrefix("P "), words.count == 5, words[1] <= day {
        if prices[words[2]].map({ $0.0 <= words[1] }) ?? true {
          prices[words[2]] = (words[1], Double(words[3]) ?? .nan)
        }
      } else if let first = words.first, first.count == 10, !line.hasPrefix(" ") {
        date = first
      } else if line.hasPrefix("    Assets:"), date <= day, words.count >= 3 {
        balances[words[2], default: 0] += Double(words[1]) ?? .nan
      }
    }
    return balances.reduce(0) { total, balance in
      total + balance.value * (balance.key == currency ? 1 : prices[balance.key]?.1 ?? .nan)
    }
  }

  @Test func theJournalsMarketValueIsThePortfoliosOnThreeDays() async throws {
    let rates = try await PortfolioCommandTests.harness()
    let export = await rates.run(["ledger", "export", "--format", "ledger", "--in", "USD"])
    expectEqual(export.status, 0, "\(export.stderr)")
    let journal = export.stdout
    expect(
      journal.contains(
        "2024-05-04 * paid from outside for #4\n    Assets:Rates:USD  6000 USD\n    Equity:PaidFromOutside"),
      "\(journal)")
    expectContains(journal, "    Assets:Rates:BTC  0.1 BTC @@ 6000 USD\n    Assets:Rates:USD  -6000 USD")
    expectContains(journal, "    Assets:Rates:ETH  0.5 ETH @@ 1000 EUR\n    Equity:Deposits")
    for day in ["2024-05-06", "2024-05-12", PortfolioCommandTests.today.description] {
      let document = try PortfolioCommandTests.json(
        await rates.run(["portfolio", "--in", "USD", "--as-of", day, "--json"]))
      let totals = try require(document["totals"] as? [String: Any])
      let value = PortfolioCommandTests.number(totals, "value")
      let journalValue = Self.marketValue(journal, on: day, in: "USD")
      expect(abs(journalValue - value) < 0.005, "\(day): journal \(journalValue), portfolio \(value)")
    }
  }

  @Test func beancountDeclaresItsAccounts() async throws {
    let rates = try await PortfolioCommandTests.harness()
    let export = await rates.run(["ledger", "export", "--format", "beancount"])
    expectEqual(export.status, 0, "\(export.stderr)")
    expect(export.stdout.hasPrefix("option \"operating_currency\" \"USD\"\n"))
    expectContains(export.stdout, "\n2024-05-01 open Assets:Rates:BTC\n")
    expectContains(export.stdout, "2024-05-08 * \"exchange #7\"")
    expectContains(export.stdout, "2024-06-07 price EUR ")
    let neither = await rates.run(["ledger", "export"])
    expectEqual(neither.status, 0, "CSV is the default (issue 34)")
    expect(neither.stdout.hasPrefix("id,date,side,"))
    let both = await rates.run(["ledger", "export", "--csv", "--format", "beancount"])
    expectEqual(both.status, 64)
  }
}

/// `rates portfolio history`: each day's value is `portfolio --as-of` that day.
@Suite struct PortfolioHistoryTests {
  @Test func eachDayIsThePortfolioOfThatDay() async throws {
    let rates = try await PortfolioCommandTests.harness()
    let document = try PortfolioCommandTests.json(
      await rates.run(["portfolio", "history", "--from", "2024-05-01", "--to", "2024-05-12", "--in", "USD", "--json"]))
    let points = try require(document["points"] as? [[String: Any]])
    expectEqual(points.count, 12)
    expectEqual(points.first?["date"] as? String, "2024-05-01")
    expectEqual(PortfolioCommandTests.number(points.first, "value"), 10_000)
    for (index, day) in [(5, "2024-05-06"), (11, "2024-05-12")] {
      let report = try PortfolioCommandTests.json(
        await rates.run(["portfolio", "--in", "USD", "--as-of", day, "--json"]))
      let total = PortfolioCommandTests.number(report["totals"] as? [String: Any], "value")
      expectEqual(points[index]["date"] as? String, day)
      expect(PortfolioCommandTests.close(PortfolioCommandTests.number(points[index], "value"), total))
    }
    let text = await rates.run(["portfolio", "history", "--from", "2024-05-01", "--to", "2024-05-12"])
    expectEqual(text.status, 0, "\(text.stderr)")
    expectContains(text.stdout, "Portfolio value in USD, 2024-05-01 to 2024-05-12")
    expectContains(text.stdout, "2024-05-01 10,000.00 USD")
    let chart = await rates.run(["portfolio", "history", "--days", "10", "--chart"])
    expectEqual(chart.status, 0, "\(chart.stderr)")
    expect(chart.stdout.split(separator: "\n").count > 10)
    let csv = await rates.run(["portfolio", "history", "--days", "3", "--format", "csv"])
    expect(csv.stdout.hasPrefix("date,value,quote\r\n"), "\(csv.stdout)")
    expectEqual(csv.stdout.split(separator: "\r\n").count, 4)
  }
}
