import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The permanent day store: its compact format, merging that never replaces a
/// stored value, unusable files, and concurrent writers.
@Suite struct DayStoreTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  static let first = FrankfurterClient.firstDay

  static func days(_ range: ClosedRange<Int>, from start: Day = first, value: Double = 1.25)
    -> DayStore.Days
  {
    var days = DayStore.Days()
    for offset in range { days.set(start.adding(days: offset), value + Double(offset) / 1000) }
    return days
  }

  @Test func valuesAndEmptyDaysRoundTripInTenBytesADay() throws {
    let store = DayStore(directory: try scratch.folder())
    var days = Self.days(0...9_999)
    days.set(Self.first.adding(days: 5), nil)
    try store.save(days, key: "frankfurter/EUR-USD")
    let (loaded, problem) = store.load(key: "frankfurter/EUR-USD")
    expectEqual(problem, nil)
    expectEqual(loaded, days)
    let url = store.fileURL(key: "frankfurter/EUR-USD")
    expect(url.path.hasSuffix("/days/frankfurter/eur-usd.days"))
    let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
    expectEqual(size, 24 + 10_000 * 10, "no fetch table: no provenance given")
  }

  @Test func provenanceRoundTripsInATableOfFetchesAndProviderNames() throws {
    let directory = try scratch.folder()
    let store = DayStore(directory: directory)
    let fetches = [
      DayStore.Fetch(provider: "frankfurter", fetchedAt: fixedNow),
      DayStore.Fetch(provider: "frankfurter", fetchedAt: fixedNow.addingTimeInterval(86_400)),
      DayStore.Fetch(provider: "coingecko", fetchedAt: fixedNow.addingTimeInterval(0.75)),
    ]
    var days = DayStore.Days()
    for offset in 0..<30 { days.set(Self.first.adding(days: offset), 1.5, from: fetches[offset % 3]) }
    days.set(Self.first.adding(days: 30), nil, from: fetches[1])
    days.setLeftOut(Self.first.adding(days: 31), count: 2, from: fetches[0])
    try store.save(days, key: "p/a-b")
    let loaded = store.load(key: "p/a-b").0
    expectEqual(loaded, days)
    expectEqual(loaded.origin(Self.first.adding(days: 2))?.fetchedAt, fixedNow, "whole seconds")
    expectEqual(loaded.state(Self.first.adding(days: 31)), .unanswered(leftOut: 2))
    expectEqual(loaded.origin(Self.first.adding(days: 31)), fetches[0])
    let size = try Data(contentsOf: store.fileURL(key: "p/a-b")).count
    expectEqual(size, 24 + 32 * 10 + (1 + 11) + (1 + 9) + 3 * 9)
    // A table cut short is not this format; an index past the table is an unknown fetch.
    var bytes = try Data(contentsOf: store.fileURL(key: "p/a-b"))
    expectEqual(DayStore.decode(bytes.dropLast()), nil)
    bytes[24 + 32 * 8] = 9
    expectEqual(DayStore.decode(bytes)?.origin(Self.first), nil)
    expectEqual(DayStore.decode(bytes)?.value(Self.first), 1.5)
  }

  @Test func aStoredValueIsNeverReplacedAndUnknownDaysStayUnknown() throws {
    let store = DayStore(directory: try scratch.folder())
    try store.save(Self.days(0...2, value: 1), key: "p/a-b")
    var later = Self.days(2...4, value: 9)
    later.set(Self.first.adding(days: 10), nil)
    try store.save(later, key: "p/a-b")
    let (loaded, _) = store.load(key: "p/a-b")
    expectEqual(loaded.value(Self.first.adding(days: 2)), 1.002, "the first value stands")
    expectEqual(loaded.value(Self.first.adding(days: 4)), 9.004)
    expect(!loaded.knows(Self.first.adding(days: 7)), "a day inside the file but never fetched")
    expect(loaded.isEmpty(Self.first.adding(days: 10)))
    expect(loaded.counts == (values: 5, empty: 1, leftOut: 0))
  }

  /// A file that is not a store file (garbage, truncated, an absurd header) is reported once,
  /// kept aside under the first free `.corrupt` name (never deleted, never overwritten), and a
  /// sound file is written in its place by the next save.
  @Test func anUnusableFileIsReportedOnceKeptAsideAndRewritten() throws {
    let store = DayStore(directory: try scratch.folder())
    let url = store.fileURL(key: "p/a-b")
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    var sound = Data()
    try store.save(Self.days(0...9), key: "p/a-b")
    sound = try Data(contentsOf: url)
    var absurd = sound
    absurd.replaceSubrange(12..<16, with: [0xFF, 0xFF, 0xFF, 0x7F])  // 2^31 days
    let bad = [
      Data("{\"version\":1}".utf8), sound.prefix(sound.count - 3), absurd,
      Data("RDAYS01\n".utf8) + Data([0, 0, 0, 0, 9, 0, 0, 0]),
    ]
    for (index, bytes) in bad.enumerated() {
      try bytes.write(to: url)
      let aside = url.path + (index == 0 ? ".corrupt" : ".corrupt-\(index + 1)")
      let (loaded, problem) = store.load(key: "p/a-b")
      expectEqual(loaded, DayStore.Days())
      expectEqual(problem, .setAside(path: url.path, aside: aside))
      expectEqual(FileManager.default.contents(atPath: aside), bytes, "kept as it was")
      expectEqual(store.load(key: "p/a-b").1, nil, "reported once: the file is gone")
      try store.save(Self.days(0...1), key: "p/a-b")
      expect(store.load(key: "p/a-b") == (Self.days(0...1), nil), "rewritten")
    }
    // A directory in the file's place is not moved.
    try FileManager.default.removeItem(at: url)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    expectEqual(store.load(key: "p/a-b").1, .notAFile(path: url.path, kind: "a directory"))
  }

  @Test func concurrentWritersLoseNothing() async throws {
    let store = DayStore(directory: try scratch.folder())
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<8 {
        group.addTask { try store.save(Self.days((writer * 50)...(writer * 50 + 49)), key: "p/a-b") }
      }
      try await group.waitForAll()
    }
    expectEqual(store.load(key: "p/a-b").0, Self.days(0...399))
  }
}
