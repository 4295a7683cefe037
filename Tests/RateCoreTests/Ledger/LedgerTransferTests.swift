import RatesExpectations
import Testing

@testable import RateCore

/// Deposits and withdrawals on disk: their lines, old lines read as before, and their absence
/// from street rates.
@Suite struct LedgerTransferTests {
  static let recorded = Date(timeIntervalSince1970: 1_714_521_600)
  static let day = Day(year: 2021, month: 3, day: 1)!

  static func parse(_ line: [UInt8]) throws -> LedgerRecord {
    try line.withUnsafeBufferPointer { buffer throws(LedgerLineError) in
      try LedgerLineParser.parse(buffer, 0..<(buffer.last == 0x0A ? buffer.count - 1 : buffer.count))
    }
  }

  @Test(arguments: [(20_000.0, "USD"), nil] as [(Double, CurrencyCode)?])
  func aTransferLineRoundTrips(_ cost: (Double, CurrencyCode)?) throws {
    let entry = LedgerEntry.transferEntry(
      .deposit, id: 3, date: Self.day, amount: 0.5, currency: "BTC", cost: cost, note: "cold wallet",
      recordedAt: Self.recorded)
    let line = try LedgerLineWriter.add(entry)
    let text = String(decoding: line, as: UTF8.self)
    expect(text.contains(#""kind":"deposit""#))
    expect(!text.contains(#""side""#))
    expectEqual(text.contains("counterAmount"), (cost != nil))
    expectEqual(try Self.parse(line).entry, entry)
    expectEqual(try Self.parse(line).entry?.cost?.amount, cost?.0)
  }

  @Test func anOlderExchangeLineIsStillAnExchange() throws {
    let line =
      #"{"op":"add","id":7,"date":"2026-11-20","side":"sell","amount":100,"currency":"USD","counterAmount":8950000,"counterCurrency":"LBP","recordedAt":"2026-11-20T10:15:00Z"}"#
    let entry = try require(try Self.parse(Array(line.utf8)).entry)
    expectEqual(entry.transfer, nil)
    expectEqual(entry.rate, 89_500)
    expectEqual(try LedgerLineWriter.add(entry), Array((line + "\n").utf8))
  }

  @Test(arguments: [
    (
      #"{"op":"add","id":1,"date":"2021-03-01","kind":"gift","amount":1,"currency":"BTC","recordedAt":"2021-03-01T00:00:00Z"}"#,
      "kind 'gift' is neither 'deposit' nor 'withdrawal'"
    ),
    (
      #"{"op":"add","id":1,"date":"2021-03-01","kind":"deposit","side":"buy","amount":1,"currency":"BTC","recordedAt":"2021-03-01T00:00:00Z"}"#,
      "a deposit has no 'side'"
    ),
    (
      #"{"op":"add","id":1,"date":"2021-03-01","kind":"deposit","amount":1,"currency":"BTC","counterAmount":5,"recordedAt":"2021-03-01T00:00:00Z"}"#,
      "a cost needs both 'counterAmount' and 'counterCurrency'"
    ),
  ])
  func badTransferLines(_ line: String, _ detail: String) throws {
    #expect(throws: LedgerLineError(detail: detail)) { try Self.parse(Array(line.utf8)) }
  }

  @Test func aDepositWithACostIsNoStreetRate() throws {
    let exchange = LedgerEntry(
      id: 1, date: Self.day, side: .sell, amount: 100, currency: "USD", counterAmount: 8_950_000,
      counterCurrency: "LBP", recordedAt: Self.recorded)
    let deposit = LedgerEntry.transferEntry(
      .deposit, id: 2, date: Self.day, amount: 1_000_000, currency: "LBP", cost: (1, "USD"),
      recordedAt: Self.recorded)
    let rate = try LedgerSeries.rate(
      base: "USD", quote: "LBP", days: 3, entries: [exchange, deposit], today: Self.day)
    expectEqual(rate.midpoint, 89_500)
    expectEqual(deposit.rate(base: "LBP", quote: "USD"), nil)
  }

  /// A code a hand edit wrote in lower case is read as the code: the entry belongs to its pair
  /// and is written back upper-cased.
  @Test func aHandEditedLowerCaseCodeIsReadAsTheCode() throws {
    let line =
      #"{"op":"add","id":1,"date":"2024-06-10","side":"sell","amount":100,"currency":"usd","#
      + #""counterAmount":8950000,"counterCurrency":"lbp","recordedAt":"2024-06-10T06:13:20Z"}"#
    let entry = try require(try Self.parse(Array(line.utf8)).entry)
    expect(entry.currency == "USD" && entry.counterCurrency == "LBP")
    expectEqual(entry.rate(base: "USD", quote: "LBP"), 89_500)
    let written = String(decoding: try LedgerLineWriter.add(entry), as: UTF8.self)
    expect(written.contains(#""currency":"USD""#) && written.contains(#""counterCurrency":"LBP""#))
  }
}
