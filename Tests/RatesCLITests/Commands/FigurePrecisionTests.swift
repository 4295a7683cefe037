import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Computed figures in `--json` and CSV are written by RateCore's one rule (``Figure``):
/// money to its currency's minor unit, anything else to 10 significant digits, never the
/// noise of a `Double` (`2189.0999999999985`) and never `-0`; given rates stay as they came.
@Suite struct FigurePrecisionTests {
  /// Every `"key":number` of `json` whose key is in `keys`, as written.
  static func numbers(_ json: String, keys: Set<String>) -> [(key: String, text: String)] {
    let pattern = /"([A-Za-z]+)"\s*:\s*(-?[0-9][0-9.eE+-]*)/
    return json.matches(of: pattern).compactMap { match in
      keys.contains(String(match.output.1)) ? (String(match.output.1), String(match.output.2)) : nil
    }
  }

  /// The significant digits of a number as written (`0.000612` → 3, `2189.1` → 5).
  static func significantDigits(_ text: String) -> Int {
    let mantissa = text.split(whereSeparator: { $0 == "e" || $0 == "E" }).first.map(String.init) ?? text
    let digits = mantissa.filter(\.isNumber)
    return digits.drop { $0 == "0" }.reversed().drop { $0 == "0" }.count
  }

  /// The decimals of a number as written, exponent counted (`1e-05` → 5).
  static func decimals(_ text: String) -> Int {
    guard let value = Double(text), value != 0 else { return 0 }
    return DecimalText.shortest(value)?.split(separator: ".").dropFirst().first?.count ?? 0
  }

  @Test func statisticsKeepTenSignificantDigits() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    for arguments in [
      ["stats", "BTC", "EUR", "--days", "90", "--json"], ["stats", "GBP", "USD", "--days", "365", "--json"],
      ["history", "BTC", "USD", "--days", "30", "--json"],
      ["stats", "BTC", "USD", "--interval", "hourly", "--json"],
    ] {
      let result = await rates.run(arguments)
      expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
      let computed = Self.numbers(
        result.stdout,
        keys: ["mean", "median", "stddev", "change", "changePercent", "coefficientOfVariation"])
      expect(computed.count >= 5, "\(arguments): \(result.stdout.prefix(400))")
      for (key, text) in computed {
        expect(Self.significantDigits(text) <= 10, "\(arguments) \(key): \(text)")
        expect(!text.hasPrefix("-0") || Double(text) != 0, "\(arguments) \(key): \(text)")
      }
    }
  }

  @Test func portfolioMoneyKeepsTheMinorUnitInJSONAndCSV() async throws {
    let rates = try await PortfolioCommandTests.harness()
    let json = await rates.run(["portfolio", "--in", "USD", "--json"])
    expectEqual(json.status, 0, "\(json.stderr)")
    let money = Self.numbers(
      json.stdout, keys: ["value", "change", "cost", "unrealized", "realized", "moneyIn", "moneyOut"])
    expect(money.count >= 20, "\(json.stdout)")
    for (key, text) in money {
      expect(Self.decimals(text) <= 2, "\(key): \(text)")
    }
    for (key, text) in Self.numbers(json.stdout, keys: ["sharePercent"]) {
      expect(Self.significantDigits(text) <= 10, "\(key): \(text)")
    }
    for (key, text) in Self.numbers(json.stdout, keys: ["quantity", "putIn"]) {
      expect(Self.decimals(text) <= 8, "\(key): \(text)")
    }
    let csv = await rates.run(["portfolio", "--in", "USD", "--format", "csv"])
    let rows = csv.stdout.split(separator: "\r\n").dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    expectEqual(rows.count, 6, "\(csv.stdout)")
    for row in rows {
      // value, change, cost, unrealized, realized: USD to the cent.
      for column in [5, 6, 8, 9, 10] where !row[column].isEmpty {
        expect(Self.decimals(String(row[column])) <= 2, "\(row)")
      }
    }
  }

  @Test func portfolioHistoryConvertAndLedgerFigures() async throws {
    let rates = try await PortfolioCommandTests.harness()
    let history = await rates.run(["portfolio", "history", "--in", "EUR", "--days", "30", "--json"])
    expectEqual(history.status, 0, "\(history.stderr)")
    let values = Self.numbers(history.stdout, keys: ["value"])
    expect(values.count >= 20, "\(history.stdout.prefix(300))")
    for (_, text) in values { expect(Self.decimals(text) <= 2, "\(text)") }
    let csv = await rates.run(["portfolio", "history", "--in", "EUR", "--days", "30", "--format", "csv"])
    for row in csv.stdout.split(separator: "\r\n").dropFirst() {
      expect(Self.decimals(String(row.split(separator: ",")[1])) <= 2, "\(row)")
    }
    let convert = await rates.run(["convert", "0.15", "BTC", "USD,EUR", "--json"])
    expectEqual(convert.status, 0, "\(convert.stderr)")
    expect(convert.stdout.contains(#""quote" : "EUR""#), "\(convert.stdout)")
    let amounts = Self.numbers(convert.stdout, keys: ["amount"])
    expectEqual(amounts.count, 3, "\(convert.stdout)")
    expect(amounts.dropFirst().allSatisfy { Self.decimals($0.text) <= 2 }, "\(convert.stdout)")
    let ledger = await rates.run(["ledger", "stats", "USD", "LBP", "--days", "60", "--json"])
    expectEqual(ledger.status, 0, "\(ledger.stderr)")
    for (key, text) in Self.numbers(ledger.stdout, keys: ["rate", "max", "mean", "stddev"]) {
      expect(Self.significantDigits(text) <= 10, "\(key): \(text)")
    }
  }

  /// Found by hand: `portfolio` printed the LBP holding's unrealized gain as
  /// `+0.000000000000014` (100 USD less 99.99999999999999) and its street rate in CSV as
  /// `0.0000111731843575419`.
  @Test func portfolioTableShowsGainsAtTheCurrencysPrecision() async throws {
    let rates = try await PortfolioCommandTests.harness()
    let table = await rates.run(["portfolio", "--in", "USD"], width: 160)
    expectEqual(table.status, 0, "\(table.stderr)")
    let lbp = try require(table.stdout.split(separator: "\n").first { $0.hasPrefix("LBP ") })
    expect(!lbp.contains("0.00000000"), "\(lbp)")
    expectContains(lbp, " +0.00 ")
    let csv = await rates.run(["portfolio", "--in", "USD", "--format", "csv"])
    let row = try require(csv.stdout.split(separator: "\r\n").first { $0.hasPrefix("LBP,") })
    expect(Self.significantDigits(String(row.split(separator: ",")[2])) <= 10, "\(row)")
  }

  /// Found by hand: `portfolio history` printed `10,869.97 USD → 10,784.45 USD -85.51`, a
  /// change that is not the difference of the two values it shows.
  @Test func portfolioHistoryChangeIsTheDifferenceOfTheValuesShown() {
    typealias History = PortfolioCommand.History
    expectEqual(History.shownChange(from: 10_869.966, to: 10_784.454, code: "USD"), -85.52)
    expectEqual(
      RateFormat.signedMoney(History.shownChange(from: 10_869.966, to: 10_784.454, code: "USD"), code: "USD"),
      "-85.52")
    expectEqual(History.shownChange(from: 100, to: 99.999_999_999_999_99, code: "USD").sign, .plus)
    expectEqual(History.shownChange(from: 15_231.4, to: 15_240.6, code: "JPY"), 10)
  }

  /// Found by hand: a pair a provider answers the other way round (EUR in BTC from BTC in
  /// EUR) carried `1 / rate`'s noise: `"rate":1.5148703460342587e-05`.
  @Test func anInvertedOrCrossedRateKeepsTenSignificantDigits() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    for arguments in [
      ["convert", "1", "USD", "BTC", "--json"], ["history", "EUR", "BTC", "--days", "5", "--json"],
      ["history", "EUR", "BTC", "--days", "2", "--interval", "hourly", "--json"],
      ["current", "EUR-BTC", "--json"],
      // Found by hand: ECB rates crossed through the euro (GBP in USD) and the change since
      // the previous working day carried the division's noise (`1.5074620533412657`).
      ["current", "GBP-USD", "--json"], ["history", "USD", "GBP", "--days", "10", "--json"],
      ["convert", "100", "GBP", "USD,JPY", "--json"],
    ] {
      let result = await rates.run(arguments)
      expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
      let figures = Self.numbers(result.stdout, keys: ["rate", "changePercent"])
      expect(!figures.isEmpty, "\(arguments): \(result.stdout.prefix(300))")
      for (key, text) in figures {
        expect(Self.significantDigits(text) <= 10, "\(arguments) \(key): \(text)")
      }
    }
  }
}
