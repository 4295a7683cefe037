import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The ECB snapshot built into the binary: decoding, triangulation through the
/// euro, closures, the range it covers, and corrupt data refused.
@Suite struct ECBSnapshotTests {
  func snapshot() throws -> ECBSnapshot {
    try require(ECBSnapshot.embedded)
  }

  func day(_ text: String) throws -> Day {
    try require(Day(text))
  }

  @Test func theEmbeddedSnapshotCoversTheECBHistory() throws {
    let snapshot = try snapshot()
    expectEqual(snapshot.firstDay, (try day("1999-01-04")))
    expect(snapshot.lastDay >= (try day("2026-10-30")))
    expect(snapshot.days.count > 7_000)
    expect(zip(snapshot.days, snapshot.days.dropFirst()).allSatisfy { $0 < $1 })
    expectEqual(snapshot.source.name, "ECB snapshot to \(snapshot.lastDay)")
    for code in FiatCurrencies.ecb.keys { expect(snapshot.currencies.contains(code), "\(code)") }
  }

  /// The rate standing on `day` by the ECB rule, long after the snapshot was made.
  func rate(_ base: String, _ quote: String, _ text: String) throws -> (point: RatePoint, published: Day)? {
    try snapshot().rate(base: base, quote: quote, on: try day(text), today: try day("2100-01-01"))
  }

  /// The CSV row of 2015-06-01: USD 1.0944, GBP 0.71925, JPY 135.79.
  @Test func ratesAreTheECBFiguresExactlyAndTriangulateThroughTheEuro() throws {
    let day = try day("2015-06-01")
    expectEqual(try rate("EUR", "USD", "2015-06-01")?.point, RatePoint(date: day, rate: 1.0944))
    expectEqual(try rate("EUR", "JPY", "2015-06-01")?.point.rate, 135.79)
    expectEqual(try rate("USD", "EUR", "2015-06-01")?.point.rate, Figure.crossRate(1, per: 1.0944))
    expectEqual(try rate("GBP", "USD", "2015-06-01")?.point.rate, Figure.crossRate(1.0944, per: 0.71925))
    expectEqual(try rate("gbp", "usd", "2015-06-01")?.point.rate, Figure.crossRate(1.0944, per: 0.71925))
  }

  @Test func aClosureTakesThePreviousWorkingDaysRateAndSaysWhichDay() throws {
    // Saturday 2015-06-06 and Sunday: Friday's rate; Easter Monday 2015-04-06: Thursday's.
    let sunday = try rate("USD", "EUR", "2015-06-07")
    expectEqual(sunday?.published, (try day("2015-06-05")))
    expectEqual(sunday?.point.carried, true)
    expectEqual(try rate("USD", "EUR", "2015-04-06")?.published, (try day("2015-04-02")))
  }

  @Test func aDayAfterTheSnapshotOrBeforeItHasNone() throws {
    let snapshot = try snapshot()
    expect(try rate("USD", "EUR", "2099-01-01") == nil)
    let last = snapshot.rate(base: "USD", quote: "EUR", on: snapshot.lastDay, today: snapshot.lastDay)
    expectEqual(last?.published, snapshot.lastDay)
    expect(try rate("USD", "EUR", "1998-12-31") == nil)
    // The Cypriot pound ended with 2007; a rate from then never stands in 2020.
    expect(try rate("CYP", "EUR", "2007-12-31") != nil)
    expect(try rate("CYP", "EUR", "2020-06-01") == nil)
    expect(try rate("XYZ", "EUR", "2020-06-01") == nil)
  }

  @Test func aSeriesListsTheWorkingDaysOfItsRange() throws {
    let snapshot = try snapshot()
    let points = snapshot.series(
      base: "GBP", quote: "USD", in: try day("2015-06-01")...(try day("2015-06-14")))
    expectEqual(points.count, 10)
    expectEqual(points.first?.date, (try day("2015-06-01")))
    expectEqual(points.last?.date, (try day("2015-06-12")))
    expect(points.allSatisfy { !$0.carried && $0.rate > 1.4 && $0.rate < 1.6 })
  }

  @Test func corruptOrTruncatedDataIsRefused() throws {
    let bytes = try snapshot().bytes
    expect(ECBSnapshot(bytes: Array(bytes.prefix(1_000))) == nil)
    expect(ECBSnapshot(bytes: Array("XECB".utf8) + bytes.dropFirst(4)) == nil)
    expect(ECBSnapshot(bytes: []) == nil)
    expect(ECBSnapshot(bytes: bytes) != nil)
  }
}
