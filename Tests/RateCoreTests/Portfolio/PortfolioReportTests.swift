import RatesExpectations
import Testing

@testable import RateCore

/// The walk over the ledger against figures computed by hand, with a fixed price table.
@Suite struct PortfolioReportTests {
  static let start = Day(year: 2024, month: 5, day: 1)!
  static func day(_ offset: Int) -> Day { start.adding(days: offset) }
  static let recorded = Date(timeIntervalSince1970: 1_714_521_600)

  static func exchange(
    _ id: Int, _ offset: Int, _ side: LedgerEntry.Side, _ amount: Double,
    _ currency: CurrencyCode, _ counterAmount: Double, _ counterCurrency: CurrencyCode
  ) -> LedgerEntry {
    LedgerEntry(
      id: id, date: day(offset), side: side, amount: amount, currency: currency,
      counterAmount: counterAmount, counterCurrency: counterCurrency, recordedAt: recorded)
  }

  /// USD deposited; two BTC buys (the second beyond the USD held); a BTC sale; an ETH buy;
  /// EUR bought; an ETH deposit at a cost in EUR; half an ETH withdrawn.
  static let entries: [LedgerEntry] = [
    .transferEntry(.deposit, id: 1, date: day(0), amount: 10_000, currency: "USD", recordedAt: recorded),
    exchange(2, 1, .buy, 0.1, "BTC", 6_000, "USD"),
    exchange(3, 2, .buy, 1, "ETH", 3_000, "USD"),
    exchange(4, 3, .buy, 0.1, "BTC", 7_000, "USD"),
    exchange(5, 5, .sell, 0.05, "BTC", 3_500, "USD"),
    exchange(6, 6, .sell, 1_000, "USD", 900, "EUR"),
    .transferEntry(
      .deposit, id: 7, date: day(8), amount: 0.5, currency: "ETH", cost: (1_000, "EUR"),
      recordedAt: recorded),
    .transferEntry(.withdrawal, id: 8, date: day(9), amount: 0.5, currency: "ETH", recordedAt: recorded),
  ]

  /// USD 1; EUR 1.10 until day 7, 1.08 from day 8; BTC 70,000 (65,000 on day 19); ETH 3,000
  /// (3,200 from day 9, 3,100 on day 19).
  static func price(_ code: CurrencyCode, _ day: Day) throws -> PortfolioPrice {
    let offset = start.distance(to: day)
    let rate: Double
    switch code {
    case "USD": rate = 1
    case "EUR": rate = offset < 8 ? 1.10 : 1.08
    case "BTC": rate = offset == 19 ? 65_000 : 70_000
    case "ETH": rate = offset == 19 ? 3_100 : offset >= 9 ? 3_200 : 3_000
    default: throw PortfolioError.unpriced(code: code, reason: "test")
    }
    return PortfolioPrice(rate: rate, source: .provider(.coinGecko), date: day)
  }

  static func rank(_ code: CurrencyCode) -> Int { code == "USD" ? 0 : code == "EUR" ? 1 : 3 }

  static func report(_ method: PortfolioMethod, asOf: Day = day(20)) throws -> PortfolioReport {
    try PortfolioReport.build(
      entries: entries, asOf: asOf, currency: "USD", method: method, rank: rank, price: price)
  }

  static func holding(_ report: PortfolioReport, _ code: CurrencyCode) throws -> PortfolioReport.Holding {
    try require(report.holdings.first { $0.code == code })
  }

  static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }

  @Test func fifoByHand() throws {
    let report = try Self.report(.fifo)
    let btc = try Self.holding(report, "BTC")
    // 0.1 at 6,000 and 0.1 at 7,000; 0.05 sold for 3,500 takes half the first lot (3,000).
    expect(Self.close(btc.quantity, 0.15))
    expect(Self.close(btc.cost, 3_000 + 7_000))
    expect(Self.close(btc.realized, 500))
    expect(Self.close(btc.value, 0.15 * 70_000))
    expect(Self.close(btc.change24h ?? 0, 0.15 * (70_000 - 65_000)))
    // 1 ETH at 3,000; 0.5 deposited at 1,000 EUR × 1.08; the withdrawal takes 0.5 of the first lot.
    let eth = try Self.holding(report, "ETH")
    expect(Self.close(eth.quantity, 1))
    expect(Self.close(eth.cost, 1_500 + 1_080))
    expect(Self.close(eth.realized, 0))
    // USD: 10,000 − 6,000 − 3,000 − 7,000 (6,000 beyond the holding) + 3,500 − 1,000.
    let usd = try Self.holding(report, "USD")
    expect(Self.close(usd.quantity, 2_500))
    expect(Self.close(usd.putIn, 6_000))
    // 900 EUR cost the 1,000 USD paid; worth 900 × 1.08 now.
    let eur = try Self.holding(report, "EUR")
    expect(Self.close(eur.cost, 1_000))
    expect(Self.close(eur.unrealized, 972 - 1_000))
    // Sums of literals typed before #expect: inside its generic expansion the type checker
    // tries every literal type for each term (1.7 s for the value's line alone).
    let moneyIn: Double = 10_000 + 6_000 + 1_080
    let value: Double = 0.15 * 70_000 + 3_200 + 2_500 + 972
    expect(Self.close(report.moneyIn, moneyIn))
    expect(Self.close(report.moneyOut, 0.5 * 3_200))
    expect(Self.close(report.value, value))
    expect(Self.close(report.realized, 500))
    expectEqual(report.holdings.map(\.code), ["BTC", "ETH", "USD", "EUR"])
  }

  @Test func averageByHand() throws {
    let report = try Self.report(.average)
    let btc = try Self.holding(report, "BTC")
    // 0.2 BTC cost 13,000; the sale of a quarter takes 3,250.
    expect(Self.close(btc.cost, 13_000 - 3_250))
    expect(Self.close(btc.realized, 3_500 - 3_250))
    // 1.5 ETH cost 3,000 + 1,080; the withdrawal of a third takes a third of the cost.
    let eth = try Self.holding(report, "ETH")
    let ethCost: Double = (3_000 + 1_080) * 2 / 3
    expect(Self.close(eth.cost, ethCost))
  }

  @Test func aPastDayLeavesOutLaterEntriesAndUsesThatDaysPrices() throws {
    let report = try Self.report(.fifo, asOf: Self.day(5))
    expectEqual(Set(report.holdings.map(\.code)), ["BTC", "ETH", "USD"])
    expect(Self.close(try Self.holding(report, "USD").quantity, 3_500))
    let value: Double = 0.15 * 70_000 + 3_000 + 3_500
    expect(Self.close(report.value, value))
    expect(Self.close(report.moneyIn, 16_000))
  }

  @Test func aWithdrawalLargerThanTheHoldingIsRefused() throws {
    var entries = Self.entries
    entries.append(
      .transferEntry(.withdrawal, id: 9, date: Self.day(10), amount: 2, currency: "ETH", recordedAt: Self.recorded))
    #expect(throws: PortfolioError.overdrawn(id: 9, code: "ETH", amount: 2, held: 1, day: Self.day(10))) {
      try PortfolioReport.checkBalances(entries)
    }
    try PortfolioReport.checkBalances(Self.entries)
  }

  @Test func pricesNeededNamesEveryDayOnce() throws {
    let needed = try PortfolioReport.pricesNeeded(
      entries: Self.entries, asOf: Self.day(20), currency: "USD", method: .fifo, rank: Self.rank)
    expectEqual(needed["BTC"], [Self.day(20), Self.day(19)])
    expectEqual(needed["EUR"], [Self.day(8), Self.day(20), Self.day(19)])
    expectEqual(needed["ETH"], [Self.day(9), Self.day(20), Self.day(19)])
  }
}
