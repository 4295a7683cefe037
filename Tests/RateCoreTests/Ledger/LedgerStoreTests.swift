import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The append-only ledger log on real files: appends, tombstones, compaction, tail reads.
@Suite struct LedgerStoreTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  static let today = Day(containing: fixedNow)

  static func entry(
    _ amount: Double, daysAgo: Int = 0, currency: CurrencyCode = "USD", note: String? = nil
  ) -> LedgerEntry {
    LedgerEntry(
      id: 0, date: today.adding(days: -daysAgo), side: .sell, amount: amount, currency: currency,
      counterAmount: amount * 89_500, counterCurrency: "LBP", counterparty: nil, note: note,
      recordedAt: fixedNow)
  }

  static func makeStore(in scratch: Scratch, notices: Recorder<LedgerNotice> = .init()) throws -> LedgerStore {
    let url = try scratch.folder().appendingPathComponent("rates/ledger.json")
    return LedgerStore(url: url, lockTimeout: .seconds(10), notify: { notices.append($0) })
  }

  static func lines(_ store: LedgerStore) throws -> [String] {
    try String(contentsOf: store.url, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  // MARK: - Appending and removing

  @Test func appendsOneLineEachAndReadsThemBack() throws {
    let store = try Self.makeStore(in: scratch)
    let first = try store.append(Self.entry(100))
    let second = try store.append(Self.entry(200, daysAgo: 3, note: "a \"quoted\"\nnote"))
    let third = try store.append(Self.entry(300, daysAgo: 1))
    expectEqual([first.id, second.id, third.id], [Int](1...3))
    let lines = try Self.lines(store)
    expectEqual(lines.count, 4)
    expectEqual(lines[0], #"{"format":"rates-ledger","nextID":1,"version":2}"#)
    expectEqual(
      lines[1],
      #"{"op":"add","id":1,"date":"2024-06-10","side":"sell","amount":100,"#
        + #""currency":"USD","counterAmount":8950000,"counterCurrency":"LBP","#
        + #""recordedAt":"2024-06-10T06:13:20Z"}"#)
    // Added after a later date: the line says how late the dates before it go.
    expect(lines[2].hasSuffix(#","maxDate":"2024-06-10"}"#))
    expect(lines[3].hasSuffix(#","maxDate":"2024-06-10"}"#))
    let ledger = try store.read()
    expectEqual(ledger.entries.map(\.id), [1, 2, 3])
    expectEqual(ledger.entries[1].note, "a \"quoted\"\nnote")
    expectEqual(ledger.entries, [first, second, third])
    expectEqual(ledger.nextID, 4)
    let mode = try FileManager.default.attributesOfItem(atPath: store.url.path)[.posixPermissions]
    expectEqual((mode as? NSNumber)?.intValue, 0o600)
  }

  @Test func removeAppendsATombstoneAndIDsAreNeverReused() throws {
    let store = try Self.makeStore(in: scratch)
    for amount in [1.0, 2, 3] { _ = try store.append(Self.entry(amount)) }
    let before = try Data(contentsOf: store.url)
    expect(try store.remove(ids: [7, 9]).isEmpty, "absent ids are already removed")
    expectEqual(try Data(contentsOf: store.url), before, "nothing written")
    let removed = try store.remove(ids: [3, 1, 3])
    expectEqual(removed.map(\.id), [1, 3])
    expectEqual(try Self.lines(store).last, #"{"op":"remove","ids":[3,1]}"#)
    expectEqual(try store.read().entries.map(\.id), [2])
    expectEqual(try store.append(Self.entry(4)).id, 4)
    expectEqual(try store.remove(ids: [3, 2]).map(\.id), [2], "the absent 3 is left out")
  }

  @Test func removalsCompactTheFileOnceEnoughOfItIsDead() throws {
    let store = try Self.makeStore(in: scratch)
    for index in 0..<100 { _ = try store.append(Self.entry(Double(index + 1), daysAgo: index % 7)) }
    for id in 1...31 { _ = try store.remove(ids: [id]) }
    // 31 remove lines and 31 removed entries: 62 dead lines, fewer than 64.
    expectEqual(try Self.lines(store).count, 1 + 100 + 31)
    _ = try store.remove(ids: [32])
    expectEqual(try Self.lines(store).count, 1 + 68, "compacted: the header and the live entries")
    _ = try store.remove(ids: [33])
    expectEqual(try Self.lines(store).count, 1 + 68 + 1)
    expectEqual(Set(try store.read().entries.map(\.id)), Set(34...100))
    expectEqual(try store.append(Self.entry(1)).id, 101)
  }

  @Test func compactionKeepsDateOrderAndTheNextID() throws {
    let store = try Self.makeStore(in: scratch)
    for index in 0..<(LedgerStore.compactionMinimum + 10) {
      _ = try store.append(Self.entry(Double(index + 1), daysAgo: (index * 7) % 30))
    }
    let last = LedgerStore.compactionMinimum + 10
    _ = try store.remove(ids: Array(1...LedgerStore.compactionMinimum) + [last])
    let lines = try Self.lines(store)
    expectEqual(lines.count, 1 + 9, "compacted: the header and the 9 live entries")
    expect(lines[0].contains(#""nextID":\#(last + 1)"#))
    let dates = try store.read().entries.map(\.date)
    expectEqual(dates, dates.sorted())
    expectEqual(try store.append(Self.entry(1)).id, last + 1)
  }

  @Test func updateRewritesAtomicallyAndKeepsUnknownMembers() throws {
    let store = try Self.makeStore(in: scratch)
    _ = try store.append(Self.entry(1))
    var text = try String(contentsOf: store.url, encoding: .utf8)
    text = text.replacingOccurrences(
      of: #""op":"add","id":1,"#, with: #""op":"add","tags":["cash",{"x":null}],"id":1,"#)
    text = text.replacingOccurrences(of: #""version":2}"#, with: #""version":2,"owner":"me"}"#)
    try Data(text.utf8).write(to: store.url)
    let added = try store.update { ledger in
      ledger.append(contentsOf: [Self.entry(2, daysAgo: 5), Self.entry(3)])
    }
    expectEqual(added.map(\.id), [2, 3])
    let lines = try Self.lines(store)
    expectEqual(lines[0], #"{"format":"rates-ledger","nextID":4,"owner":"me","version":2}"#)
    expect(lines[1].contains(#""id":2,"#), "date order")
    expect(lines[2].hasSuffix(#","tags":["cash",{"x":null}]}"#))
    expectEqual(try store.read().entries.count, 3)
  }

  // MARK: - Reading the end only

  @Test func tailReadsFindBackdatedEntriesAndSkipRemovedOnes() throws {
    let store = try Self.makeStore(in: scratch)
    for index in 0..<200 {
      _ = try store.append(Self.entry(Double(index + 1), daysAgo: 200 - index))
    }
    let backdated = try store.append(Self.entry(999, daysAgo: 2))
    for index in 0..<5 { _ = try store.append(Self.entry(Double(1000 + index), daysAgo: 20)) }
    _ = try store.remove(ids: [199])  // dated 2 days ago
    let recent = try store.entries(since: Self.today.adding(days: -2))
    expectEqual(Set(recent.map(\.id)), [backdated.id, 200])
    var pages: [[Int]] = []
    try store.forEachPageNewestFirst(pageSize: 50) { page in
      pages.append(page.map(\.id))
      return pages.count < 3
    }
    let all = try store.read().newestFirst.map(\.id)
    expectEqual(pages.flatMap { $0 }, Array(all.prefix(pages.flatMap { $0 }.count)))
    expectEqual(pages.count, 3)
    var everything: [Int] = []
    try store.forEachPageNewestFirst(pageSize: 7) { page in
      everything += page.map(\.id)
      return true
    }
    expectEqual(everything, all)
  }

  // MARK: - Interrupted writes and corruption

  @Test func aTornLastLineIsIgnoredThenSetAside() throws {
    let notices = Recorder<LedgerNotice>()
    let store = try Self.makeStore(in: scratch, notices: notices)
    _ = try store.append(Self.entry(1))
    let handle = try FileHandle(forWritingTo: store.url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"op":"add","id":2,"date":"2024-06-1"#.utf8))
    try handle.close()
    expectEqual(try store.read().entries.map(\.id), [1])
    expectEqual(notices.all, [.incompleteLastLineIgnored(path: store.url.path, bytes: 36)])
    expectEqual(try store.append(Self.entry(2)).id, 2)
    let saved = store.url.deletingLastPathComponent().appendingPathComponent("ledger.json.torn")
    expectEqual(
      try String(contentsOf: saved, encoding: .utf8),
      #"{"op":"add","id":2,"date":"2024-06-1"#
        + "\n")
    expectEqual(
      notices.all.last, .incompleteLastLineRemoved(path: store.url.path, savedTo: saved.path))
    expectEqual(try store.read().entries.map(\.id), [1, 2])
    expectEqual(try Self.lines(store).count, 3)
  }

  @Test func aWholeLastRecordWithoutItsNewlineCounts() throws {
    let store = try Self.makeStore(in: scratch)
    _ = try store.append(Self.entry(1))
    let text = try String(contentsOf: store.url, encoding: .utf8)
    try Data(text.dropLast().utf8).write(to: store.url)
    expectEqual(try store.read().entries.map(\.id), [1])
    expectEqual(try store.append(Self.entry(2)).id, 2)
    expectEqual(try Self.lines(store).count, 3)
    expectEqual(try store.read().entries.map(\.id), [1, 2])
  }

  @Test func aCorruptLineIsReportedWithItsNumberAndNeverOverwritten() throws {
    let store = try Self.makeStore(in: scratch)
    for amount in [1.0, 2, 3] { _ = try store.append(Self.entry(amount)) }
    var lines = try Self.lines(store)
    lines[2] = #"{"op":"add","id":2,"date":"2024-06-10","side":"sideways"}"#
    let corrupt = Data((lines.joined(separator: "\n") + "\n").utf8)
    try corrupt.write(to: store.url)
    let expected = DataFileError.corruptLine(
      path: store.url.path, line: 3, detail: "side 'sideways' is neither 'sell' nor 'buy'")
    #expect(throws: expected) { try store.read() }
    #expect(throws: expected) { try store.remove(ids: [1]) }
    #expect(throws: expected) { try store.update { $0.append(Self.entry(9)) } }
    #expect(throws: expected) { try store.forEachPageNewestFirst { _ in true } }
    expectEqual(try Data(contentsOf: store.url), corrupt)
    expectEqual(expected.errorDescription?.contains("Fix or delete line 3"), true)

    // A corrupt last line stops appends too (a hand edit, not a torn write: it has its newline).
    try Data((lines.prefix(2) + ["{\"op\":\"add\",\"id\":"]).joined(separator: "\n").utf8 + [0x0A])
      .write(to: store.url)
    let last = #expect(throws: DataFileError.self) { try store.append(Self.entry(4)) }
    expectEqual(last.map { if case .corruptLine(_, 3, _) = $0 { true } else { false } }, true)
  }

  @Test func handEditsAreCheckedWholeBeforeTheNextAppend() throws {
    let store = try Self.makeStore(in: scratch)
    for amount in [1.0, 2, 3] { _ = try store.append(Self.entry(amount)) }
    var lines = try Self.lines(store)
    let good = lines

    // A line broken in the middle: appends read only the end, yet refuse.
    lines[1] = "{\"op\":\"add\""
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: store.url)
    let broken = #expect(throws: DataFileError.self) { try store.append(Self.entry(4)) }
    expectEqual(broken.map { if case .corruptLine(_, 2, _) = $0 { true } else { false } }, true)

    // An id inserted by hand above the last line is never handed out again.
    lines = good
    lines.insert(lines[1].replacingOccurrences(of: #""id":1,"#, with: #""id":40,"#), at: 2)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: store.url)
    expectEqual(try store.append(Self.entry(4)).id, 41)

    // A line dated before the lines above it needs their latest date, or readers of the end
    // would stop too early.
    lines = try Self.lines(store)
    lines.append(
      lines[1].replacingOccurrences(of: #""id":1,"#, with: #""id":50,"#)
        .replacingOccurrences(of: "2024-06-10", with: "2024-01-01"))
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: store.url)
    let order = #expect(throws: DataFileError.self) { try store.append(Self.entry(5)) }
    expect("\(order.map { $0.errorDescription ?? "" } ?? "")".contains(#""maxDate":"2024-06-10""#))
  }

  @Test(arguments: [
    (#"{"op":"add","id":1}"#, "missing 'date'"),
    (#"{"op":"add","id":1,"id":2}"#, "'id' appears twice"),
    (#"{"op":"merge"}"#, "unknown op 'merge'"),
    (#"{"op":"remove","ids":[]}"#, "a remove record needs 'ids', a list of exchange ids"),
    (#"{"op":"remove","ids":["1"]}"#, "'ids' is a string, not a number"),
    (#"{"op":"remove","ids":[1]} x"#, "unexpected text after the record"),
    (#"[1]"#, "expected '{' at column 1"),
    (#"{"op":"add","id":1,"date":"2024-02-30"}"#, "'date' '2024-02-30' is not a date (YYYY-MM-DD)"),
    (#"{"op":"remove","ids":[01]}"#, "a malformed number at column 23"),
  ])
  func badLinesSayWhatIsWrong(_ line: String, _ detail: String) throws {
    let bytes = Array(line.utf8)
    let error = bytes.withUnsafeBufferPointer { buffer in
      #expect(throws: LedgerLineError.self) { try LedgerLineParser.parse(buffer, 0..<buffer.count) }
    }
    expectEqual(error?.detail, detail)
  }

  @Test func escapesAndNumbersRoundTrip() throws {
    var entry = Self.entry(0.1 + 0.2)
    entry.id = 5
    entry.counterAmount = 1e-8
    entry.note = "tab\tquote\" back\\ é 😀 \u{1}"
    entry.counterparty = "Abu Ali"
    let line = try LedgerLineWriter.add(entry)
    let record = try line.withUnsafeBufferPointer { buffer in
      try LedgerLineParser.parse(buffer, 0..<(buffer.count - 1))
    }
    expectEqual(record.entry, entry)
    expect(try JSONSerialization.jsonObject(with: Data(line)) is [String: Any])
  }
}
