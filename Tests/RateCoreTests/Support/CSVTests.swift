import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// RFC 4180 writing and reading, and the ledger's CSV columns.
@Suite struct CSVTests {
  // MARK: - Writing

  @Test(arguments: [
    ("plain", "plain"),
    ("", ""),
    ("a,b", "\"a,b\""),
    ("say \"hi\"", "\"say \"\"hi\"\"\""),
    ("\"", "\"\"\"\""),
    ("two\nlines", "\"two\nlines\""),
    ("cr\rhere", "\"cr\rhere\""),
    ("crlf\r\nhere", "\"crlf\r\nhere\""),
    (" spaces ", " spaces "),
    ("caf\u{E9} \u{1F600}", "caf\u{E9} \u{1F600}"),
  ])
  func fieldsAreQuotedOnlyWhenNeeded(text: String, written: String) {
    expectEqual(CSV.field(text), written)
  }

  @Test func recordsEndWithCRLF() {
    expectEqual(CSV.line(["a", "b,c", ""]), "a,\"b,c\",\r\n")
    expectEqual(CSV.document(header: ["x", "y"], rows: [["1", "2"]]), "x,y\r\n1,2\r\n")
    expectEqual(CSV.document(header: ["x"], rows: []), "x\r\n")
  }

  // MARK: - Reading

  @Test func readsQuotedFieldsWithCommasQuotesAndLineBreaks() throws {
    let text = "a,b,c\r\n\"1,5\",\"say \"\"hi\"\"\",\"two\r\nlines\"\r\n\"\",,x\r\n"
    let records = try CSV.parse(text)
    expectEqual(
      records.map(\.fields),
      [
        ["a", "b", "c"], ["1,5", "say \"hi\"", "two\r\nlines"],
        ["", "", "x"],
      ])
    // The third record starts on line 4: the quoted line break made the second span two.
    expectEqual(records.map(\.line), [1, 2, 4])
  }

  @Test(arguments: ["a,b\n1,2\n", "a,b\r\n1,2\r\n", "a,b\r1,2\r", "a,b\n1,2", "\u{FEFF}a,b\n1,2\n"])
  func acceptsLFCRLFCRAndAMissingFinalBreak(text: String) throws {
    let records = try CSV.parse(text)
    expectEqual(records.map(\.fields), [["a", "b"], ["1", "2"]])
    expectEqual(records.map(\.line), [1, 2])
  }

  @Test func skipsEmptyLinesButKeepsTheirNumbers() throws {
    let records = try CSV.parse("a\n\n\nb\n")
    expectEqual(records.map(\.fields), [["a"], ["b"]])
    expectEqual(records.map(\.line), [1, 4])
    expect(try CSV.parse("").isEmpty)
    // A line holding only an empty quoted field is a record, not an empty line.
    expectEqual(try CSV.parse("\"\"\n").map(\.fields), [[""]])
  }

  @Test(arguments: [
    ("a,b\n1,\"2\n", 2, "never closed"),
    ("a,b\n1,x\"y\n", 2, "unquoted field"),
    ("a,b\n\"1\"x,2\n", 2, "after the closing quote"),
    ("a\n\"multi\nline\" z\n", 3, "after the closing quote"),
  ])
  func malformedTextNamesTheLine(text: String, line: Int, reason: String) {
    #expect {
      _ = try CSV.parse(text)
    } throws: { error in
      guard let error = error as? CSV.ParseError else { return false }
      return error.line == line && error.reason.contains(reason)
        && error.localizedDescription.hasPrefix("line \(line): ")
    }
  }

  @Test func roundTripReproducesAwkwardFields() throws {
    let rows = [
      ["id", "note"], ["1", "comma, quote \" and\r\nCRLF"], ["2", ""], ["3", "\"\""],
      ["4", " lead and trail "], ["5", "lone\rCR and lone\nLF"],
    ]
    let text = CSV.document(header: rows[0], rows: Array(rows.dropFirst()))
    expectEqual(try CSV.parse(text).map(\.fields), rows)
  }

  // MARK: - The ledger's columns

  static let today = Day(year: 2026, month: 11, day: 22) ?? Day(daysSinceEpoch: 0)
  static let now = Date(timeIntervalSince1970: 1_795_000_000)

  @Test func ledgerExportReadsBackToTheSameEntries() throws {
    let entries = [
      LedgerEntry(
        id: 7, date: Self.today.adding(days: -3), side: .sell, amount: 100, currency: "USD",
        counterAmount: 8_950_000, counterCurrency: "LBP", counterparty: "Abu \"Ali\", Hamra",
        note: "cash; counted twice", recordedAt: Self.now),
      LedgerEntry(
        id: 9, date: Self.today, side: .buy, amount: 1500.25, currency: "NGN",
        counterAmount: 0.00000107, counterCurrency: "BTC", recordedAt: Self.now),
      LedgerEntry(
        id: 12, date: Self.today, side: .buy, amount: 1e15, currency: "ARS",
        counterAmount: 0.1 + 0.2, counterCurrency: "USD", recordedAt: Self.now),
    ]
    let text = LedgerCSV.document(entries)
    expect(
      text.hasPrefix(
        "id,date,side,amount,currency,counter_amount,counter_currency,rate,with,note,role,import_id\r\n"
          + "7,2026-11-19,sell,100,USD,8950000,LBP,89500,\"Abu \"\"Ali\"\", Hamra\","
          + "cash; counted twice,,\r\n"))
    let back = try LedgerCSV.entries(fromCSV: text, today: Self.today, recordedAt: Self.now)
    expectEqual(back.map(\.id), [0, 0, 0])
    expectEqual(
      back,
      entries.map { entry in
        var copy = entry
        copy.id = 0
        return copy
      })
  }

  @Test func ledgerImportTakesColumnsInAnyOrderAndOptionalOnesMayBeMissing() throws {
    let text = """
      COUNTER_CURRENCY,counter_amount,Currency,amount,side,date
      LBP,"8,950,000",usd,100,SELL,2026-11-20

      """
    let entries = try LedgerCSV.entries(fromCSV: text, today: Self.today, recordedAt: Self.now)
    expectEqual(entries.count, 1)
    expectEqual(entries.first?.counterAmount, 8_950_000)
    expectEqual(entries.first?.currency, "USD")
    expectEqual(entries.first?.side, .sell)
    expectEqual(entries.first?.counterparty, nil)
  }

  @Test func ledgerImportReportsEveryBadLineAndReturnsNothing() {
    let text = """
      date,side,amount,currency,counter_amount,counter_currency
      2026-11-20,sell,100,USD,8950000,LBP
      2026-11-20,sell,-5,USD,8950000,LBP
      2026-11-20,swap,100,USD,8950000,LBP
      2026-11-20,sell,100,USD,8950000
      2030-01-01,buy,100,USD,8950000,LBP
      2026-11-20,buy,100,USD,8950000,USD
      """
    #expect {
      _ = try LedgerCSV.entries(fromCSV: text, today: Self.today, recordedAt: Self.now)
    } throws: { error in
      guard let problems = (error as? LedgerCSV.Problems)?.problems else { return false }
      let expected: [(Int, String)] = [
        (3, "must be more than zero"), (4, "neither 'sell' nor 'buy'"),
        (5, "expected 6 fields"), (6, "in the future"), (7, "both currencies are USD"),
      ]
      return problems.count == expected.count
        && zip(problems, expected).allSatisfy { $0.line == $1.0 && $0.reason.contains($1.1) }
    }
  }

  @Test(arguments: [
    ("", "expected a header"),
    ("date,side,amount\n", "lacks currency"),
    ("date,side,amount,currency,counter_amount,counter_currency,colour\n", "unknown column"),
    ("date,date,side,amount,currency,counter_amount,counter_currency\n", "appears twice"),
  ])
  func ledgerImportChecksTheHeader(text: String, reason: String) {
    #expect {
      _ = try LedgerCSV.entries(fromCSV: text, today: Self.today, recordedAt: Self.now)
    } throws: { error in
      (error as? LedgerCSV.Problems)?.problems.first.map {
        $0.line == 1 && $0.reason.contains(reason)
      } == true
    }
  }
}
