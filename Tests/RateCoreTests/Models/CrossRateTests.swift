import RatesExpectations
import Testing

@testable import RateCore

/// The one cross-rate rule: coin to coin through both coins' USD prices.
@Suite struct CrossRateTests {
  static let older = Date(timeIntervalSince1970: 1_795_000_000)
  static let newer = Date(timeIntervalSince1970: 1_795_600_000)

  func rate(_ value: Double, _ day: String, _ fetchedAt: Date, stale: Bool = false) throws -> SourcedRate {
    SourcedRate(
      rate: value, source: .provider(.coinGecko), day: try require(Day(day)), fetchedAt: fetchedAt,
      staleness: stale ? Staleness(fetchedAt: fetchedAt, reason: nil) : nil)
  }

  @Test(arguments: [
    ("BTC", "DOGE", true), ("bitcoin", "poundtoken", true), ("BTC", "ETH", false),
    ("BTC", "EUR", false), ("EUR", "BTC", false), ("BTC", "SATS", false), ("GBP", "USD", false),
  ])
  func aCrossRateIsTwoCoinsWithoutADirectQuote(base: String, quote: String, needed: Bool) {
    let expectedNeeded = needed
    expectEqual(CrossRate.isNeeded(base: base, quote: quote), expectedNeeded)
    let legs = CrossRate.legs(base: base, quote: quote).map { "\($0.base)/\($0.quote)" }
    expectEqual(legs, (expectedNeeded ? ["\(base)/USD", "\(quote)/USD"] : ["\(base)/\(quote)"]))
  }

  @Test func theCrossIsTheRatioDatedByTheOlderLegAndStaleWhenEitherIs() throws {
    let base = try rate(60_000, "2026-11-25", Self.newer)
    let quote = try rate(3_000, "2026-11-24", Self.older, stale: true)
    let cross = try require(CrossRate.combine(base, quote))
    expectEqual(cross.rate, 20)
    expectEqual(cross.day, Day("2026-11-24"))
    expectEqual(cross.fetchedAt, Self.older)
    expect(cross.staleness != nil)
    expectEqual(cross.source, .provider(.coinGecko))
  }

  @Test func aQuoteWorthNothingGivesNoRate() throws {
    let base = try rate(60_000, "2026-11-25", Self.newer)
    expectEqual(CrossRate.combine(base, try rate(0, "2026-11-25", Self.newer)), nil)
  }

  @Test func rateFetchesThePairOrBothUSDLegs() async throws {
    let prices = ["BTC/USD": 60_000.0, "DOGE/USD": 0.3, "BTC/EUR": 55_000.0]
    var asked: [String] = []
    func fetch(_ base: String, _ quote: String) throws -> SourcedRate? {
      asked.append("\(base)/\(quote)")
      return try prices["\(base)/\(quote)"].map { try rate($0, "2026-11-25", Self.newer) }
    }
    expectEqual(try await CrossRate.rate(base: "BTC", quote: "DOGE") { try fetch($0, $1) }?.rate, 200_000)
    expectEqual(try await CrossRate.rate(base: "BTC", quote: "EUR") { try fetch($0, $1) }?.rate, 55_000)
    expectEqual(try await CrossRate.rate(base: "BTC", quote: "PEPE") { try fetch($0, $1) }, nil)
    expectEqual(asked, ["BTC/USD", "DOGE/USD", "BTC/EUR", "BTC/USD", "PEPE/USD"])
  }

  @Test func aDayAfterTodayIsTheOneFutureProblem() throws {
    let today = try require(Day("2026-11-25"))
    expectEqual(today.futureProblem(name: "--date", today: today), nil)
    expectEqual(today.adding(days: -1).futureProblem(name: "--from", today: today), nil)
    expectEqual(
      today.adding(days: 1).futureProblem(name: "--to", today: today),
      "--to 2026-11-26 is in the future: use 2026-11-25 or an earlier day")
  }
}
