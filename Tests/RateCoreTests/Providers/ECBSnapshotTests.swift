import Foundation
import RatesTestSupport
import Testing

@testable import RateCore

/// The ECB snapshot built into the binary: decoding, triangulation through the
/// euro, closures, the range it covers, and corrupt data refused.
@Suite struct ECBSnapshotTests {
  func snapshot() throws -> ECBSnapshot {
    try #require(ECBSnapshot.embedded)
  }

  func day(_ text: String) throws -> Day {
    try #require(Day(text))
  }

  @Test func theEmbeddedSnapshotCoversTheECBHistory() throws {
    let snapshot = try snapshot()
    #expect(snapshot.firstDay == (try day("1999-01-04")))
    #expect(snapshot.lastDay >= (try day("2026-10-30")))
    #expect(snapshot.days.count > 7_000)
    #expect(zip(snapshot.days, snapshot.days.dropFirst()).allSatisfy { $0 < $1 })
    #expect(snapshot.sourceName == "ECB snapshot to \(snapshot.lastDay)")
    for code in FiatCurrencies.ecb.keys { #expect(snapshot.currencies.contains(code), "\(code)") }
  }

  /// The CSV row of 2015-06-01: USD 1.0944, GBP 0.71925, JPY 135.79.
  @Test func ratesAreTheECBFiguresExactlyAndTriangulateThroughTheEuro() throws {
    let snapshot = try snapshot()
    let day = try day("2015-06-01")
    #expect(snapshot.rate(base: "EUR", quote: "USD", on: day) == RatePoint(date: day, rate: 1.0944))
    #expect(snapshot.rate(base: "EUR", quote: "JPY", on: day)?.rate == 135.79)
    #expect(snapshot.rate(base: "USD", quote: "EUR", on: day)?.rate == 1 / 1.0944)
    #expect(snapshot.rate(base: "GBP", quote: "USD", on: day)?.rate == 1.0944 / 0.71925)
    #expect(snapshot.rate(base: "gbp", quote: "usd", on: day)?.rate == 1.0944 / 0.71925)
  }

  @Test func aClosureTakesThePreviousWorkingDaysRateAndSaysWhichDay() throws {
    let snapshot = try snapshot()
    // Saturday 2015-06-06 and Sunday: Friday's rate; Good Friday 2015-04-03: Thursday's.
    let saturday = snapshot.rate(base: "USD", quote: "EUR", on: try day("2015-06-07"))
    #expect(saturday?.date == (try day("2015-06-05")))
    #expect(snapshot.rate(base: "USD", quote: "EUR", on: try day("2015-04-06"))?.date == (try day("2015-04-02")))
  }

  @Test func aDayAfterTheSnapshotGetsItsLastRateAndBeforeItNone() throws {
    let snapshot = try snapshot()
    let last = snapshot.rate(base: "USD", quote: "EUR", on: try day("2099-01-01"))
    #expect(last?.date == snapshot.lastDay)
    #expect(snapshot.rate(base: "USD", quote: "EUR", on: try day("1998-12-31")) == nil)
    // The Cypriot pound ended with 2007; a rate from then never stands in 2020.
    #expect(snapshot.rate(base: "CYP", quote: "EUR", on: try day("2007-12-31")) != nil)
    #expect(snapshot.rate(base: "CYP", quote: "EUR", on: try day("2020-06-01")) == nil)
    #expect(snapshot.rate(base: "XYZ", quote: "EUR", on: try day("2020-06-01")) == nil)
  }

  @Test func aSeriesListsTheWorkingDaysOfItsRange() throws {
    let snapshot = try snapshot()
    let points = snapshot.series(
      base: "GBP", quote: "USD", in: try day("2015-06-01")...(try day("2015-06-14")))
    #expect(points.count == 10)
    #expect(points.first?.date == (try day("2015-06-01")))
    #expect(points.last?.date == (try day("2015-06-12")))
    #expect(points.allSatisfy { !$0.carried && $0.rate > 1.4 && $0.rate < 1.6 })
  }

  @Test func corruptOrTruncatedDataIsRefused() throws {
    let bytes = try snapshot().bytes
    #expect(ECBSnapshot(bytes: Array(bytes.prefix(1_000))) == nil)
    #expect(ECBSnapshot(bytes: Array("XECB".utf8) + bytes.dropFirst(4)) == nil)
    #expect(ECBSnapshot(bytes: []) == nil)
    #expect(ECBSnapshot(bytes: bytes) != nil)
  }
}
