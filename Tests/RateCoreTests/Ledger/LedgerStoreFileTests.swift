import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ledger file's migration from format 1, concurrent writers, links and hostile files.
@Suite struct LedgerStoreFileTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  static func entry(_ amount: Double, daysAgo: Int = 0) -> LedgerEntry {
    LedgerStoreTests.entry(amount, daysAgo: daysAgo)
  }

  /// A format 1 `ledger.json` with `count` entries, as the previous version wrote it.
  static func makeFormat1(in scratch: Scratch, count: Int) throws -> (LedgerStore, Data, Recorder<LedgerNotice>) {
    let notices = Recorder<LedgerNotice>()
    let store = try LedgerStoreTests.makeStore(in: scratch, notices: notices)
    let document = DataFile(url: store.url, key: "ledger", empty: Ledger())
    _ = try document.update { ledger in
      ledger.append(contentsOf: (0..<count).map { entry(Double($0 + 1), daysAgo: $0) })
    }
    return (store, try Data(contentsOf: store.url), notices)
  }

  func backup(_ store: LedgerStore, _ suffix: String = ".v1.bak") -> URL {
    store.url.deletingLastPathComponent().appendingPathComponent("ledger.json" + suffix)
  }

  // MARK: - Migration

  @Test func aFormat1FileIsReadAsIsThenMigratedWithABackupOnTheFirstChange() throws {
    let (store, original, notices) = try Self.makeFormat1(in: scratch, count: 3)
    expectEqual(try store.read().entries.map(\.id), [1, 2, 3])
    expectEqual(try store.entries(since: LedgerStoreTests.today.adding(days: -1)).count, 2)
    expectEqual(try Data(contentsOf: store.url), original, "reads never migrate")

    let added = try store.append(Self.entry(10))
    expectEqual(added.id, 4)
    expectEqual(try Data(contentsOf: backup(store)), original)
    expectEqual(notices.all, [.migrated(path: store.url.path, backup: backup(store).path)])
    let lines = try LedgerStoreTests.lines(store)
    expectEqual(lines.first, #"{"format":"rates-ledger","nextID":4,"version":2}"#)
    expectEqual(try store.read().entries.map(\.id).sorted(), [1, 2, 3, 4])
    expectEqual(try store.append(Self.entry(11)).id, 5)
    expectEqual(notices.all.count, 1, "migrated once")
  }

  @Test func anExistingBackupIsNeverOverwrittenAndAnInterruptedMigrationReusesItsOwn() throws {
    let (store, original, _) = try Self.makeFormat1(in: scratch, count: 2)
    let theirs = Data("my own backup\n".utf8)
    try theirs.write(to: backup(store))
    _ = try store.remove(ids: [1])
    expectEqual(try Data(contentsOf: backup(store)), theirs)
    expectEqual(try Data(contentsOf: backup(store, ".v1.1.bak")), original)

    // A migration killed after linking its backup: the next one reuses that link.
    let (again, originalAgain, _) = try Self.makeFormat1(in: scratch, count: 2)
    expectEqual(link(again.url.path, backup(again).path), 0)
    _ = try again.update { $0.append(Self.entry(5)) }
    expectEqual(try Data(contentsOf: backup(again)), originalAgain)
    expect(!FileManager.default.fileExists(atPath: backup(again, ".v1.1.bak").path))
  }

  @Test func aCorruptFormat1FileIsNeitherMigratedNorTouched() throws {
    let store = try LedgerStoreTests.makeStore(in: scratch)
    try FileManager.default.createDirectory(
      at: store.url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let garbage = Data(#"{"version":1,"ledger":{"nextID":3,"entries":[{"id":1"#.utf8)
    try garbage.write(to: store.url)
    #expect(throws: DataFileError.self) { try store.append(Self.entry(1)) }
    #expect(throws: DataFileError.self) { try store.read() }
    expectEqual(try Data(contentsOf: store.url), garbage)
    expect(!FileManager.default.fileExists(atPath: backup(store).path))
  }

  @Test func aNewerFormatIsRefusedAndLeftAlone() throws {
    let store = try LedgerStoreTests.makeStore(in: scratch)
    try FileManager.default.createDirectory(
      at: store.url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let newer = Data("{\"format\":\"rates-ledger\",\"version\":3}\n{\"op\":\"squash\"}\n".utf8)
    try newer.write(to: store.url)
    let expected = DataFileError.unsupportedVersion(path: store.url.path, version: 3, supported: 2)
    #expect(throws: expected) { try store.read() }
    #expect(throws: expected) { try store.append(Self.entry(1)) }
    #expect(throws: expected) { try store.update { $0 = Ledger() } }
    expectEqual(try Data(contentsOf: store.url), newer)
  }

  // MARK: - Concurrency and links

  @Test func concurrentWritersThroughTwoLinksLoseNothing() async throws {
    let real = try LedgerStoreTests.makeStore(in: scratch)
    _ = try real.append(Self.entry(1))
    let links = try (0..<2).map { _ -> LedgerStore in
      let link = try scratch.folder().appendingPathComponent("ledger.json")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real.url)
      return LedgerStore(url: link)
    }
    let kept = Recorder<Int>()
    let writers = 16
    let failures = await runTogether(writers) { index in
      let store = links[index % 2]
      var mine: [Int] = []
      for round in 0..<5 {
        mine.append(try store.append(Self.entry(Double(index * 10 + round))).id)
      }
      _ = try store.remove(ids: [mine[0]])
      for id in mine.dropFirst() { kept.append(id) }
    }
    expectEqual(failures, [])
    let live = try real.read().entries.map(\.id)
    expectEqual(Set(live), Set(kept.all + [1]))
    expectEqual(live.count, writers * 4 + 1)
    expectEqual(Set(live).count, live.count, "no id handed out twice")
    let directory = real.url.deletingLastPathComponent()
    expectEqual(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(),
      [".ledger.json.lock", ".ledger.json.verified", "ledger.json"])
  }

  @Test func aFIFOInPlaceOfTheLedgerIsRefusedWithoutBlocking() throws {
    let store = try LedgerStoreTests.makeStore(in: scratch)
    try HostileFiles.makeFIFO(at: store.url)
    let expected = DataFileError.unreadable(
      path: store.url.path, reason: "not a regular file (it is a FIFO (named pipe))")
    let outcome = HostileFiles.finishes(within: 5, unblocking: [store.url]) {
      [(try? store.read()) == nil, (try? store.append(Self.entry(1))) == nil]
    }
    expectEqual(try require(outcome, "blocked on a FIFO").get(), [true, true])
    #expect(throws: expected) { try store.read() }
    #expect(throws: expected) { try store.append(Self.entry(1)) }
  }

  @Test func aFailedAppendLeavesNothingBehind() throws {
    let store = try LedgerStoreTests.makeStore(in: scratch)
    _ = try store.append(Self.entry(1))
    let before = try Data(contentsOf: store.url)
    // A value no JSON can hold is refused before anything is written.
    var bad = Self.entry(2)
    bad.amount = .infinity
    #expect(throws: AtomicFile.WriteError.self) { try store.append(bad) }
    expectEqual(try Data(contentsOf: store.url), before)
  }
}
