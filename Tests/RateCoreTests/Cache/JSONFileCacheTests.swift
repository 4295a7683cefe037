import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

@Suite struct JSONFileCacheTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  @Test func roundTripsWithProvenance() throws {
    let directory = try scratch.folder()
    let cache = JSONFileCache(directory: directory)
    let point = RatePoint(date: Day("2024-06-01")!, rate: 1.5)
    try cache.save([point], key: "coingecko/history/bitcoin-EUR", source: "coingecko", fetchedAt: fixedNow)
    let entry = try require(cache.load([RatePoint].self, key: "coingecko/history/bitcoin-EUR").entry)
    expectEqual(entry.value, [point])
    expectEqual(entry.source, "coingecko")
    expectEqual(entry.fetchedAt, fixedNow)
  }

  @Test func filesAreWrittenWithMode0600AndNoTemporaryLeftovers() throws {
    let directory = try scratch.folder()
    let cache = JSONFileCache(directory: directory)
    try cache.save("x", key: "a/b", source: "test", fetchedAt: fixedNow)
    let url = cache.fileURL(for: "a/b")
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    expectEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    let siblings = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
    expectEqual(siblings, ["b.json"])
  }

  @Test func missingEntryIsAMiss() throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    guard case .miss = cache.load(String.self, key: "nothing/here") else {
      Issue.record("expected a miss")
      return
    }
  }

  @Test(arguments: [
    "{\"version\":1,\"key\":\"a/b\",\"source\":\"x\",\"fetchedAt\":\"2024",  // truncated
    "not json at all",
    "{\"version\":99,\"key\":\"a/b\",\"source\":\"x\",\"fetchedAt\":\"2024-06-10T06:13:20Z\",\"value\":\"v\"}",
    "{\"version\":1,\"key\":\"other\",\"source\":\"x\",\"fetchedAt\":\"2024-06-10T06:13:20Z\",\"value\":\"v\"}",
    "{\"version\":1,\"key\":\"a/b\",\"source\":\"x\",\"fetchedAt\":\"2024-06-10T06:13:20Z\",\"value\":42}",
  ])
  func corruptOrForeignEntriesAreUnusableNotFatal(_ contents: String) throws {
    let directory = try scratch.folder()
    let cache = JSONFileCache(directory: directory)
    let url = cache.fileURL(for: "a/b")
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: url)
    guard case .unusable(let reason) = cache.load(String.self, key: "a/b") else {
      Issue.record("expected an unusable entry")
      return
    }
    expectContains(reason.description, url.path)
    // The next good write replaces it.
    try cache.save("fresh", key: "a/b", source: "x", fetchedAt: fixedNow)
    expectEqual(cache.load(String.self, key: "a/b").entry?.value, "fresh")
  }

  @Test func keysCannotEscapeTheDirectory() {
    let cache = JSONFileCache(directory: URL(fileURLWithPath: "/tmp/cache"))
    expect(cache.fileURL(for: "coingecko/price/../../etc/passwd").path.hasPrefix("/tmp/cache/"))
    expectEqual(cache.fileURL(for: "coingecko/price/bitcoin-EUR").path, "/tmp/cache/coingecko/price/bitcoin-eur.json")
    expect(!cache.fileURL(for: "a/\u{1B}[31m").path.contains("\u{1B}"))
  }

  @Test func unwritableDirectoryThrowsAWriteError() throws {
    let directory = try scratch.folder()
    let blocker = directory.appendingPathComponent("file")
    try Data("x".utf8).write(to: blocker)
    let cache = JSONFileCache(directory: blocker)  // a file where a directory should be
    #expect(throws: AtomicFile.WriteError.self) {
      try cache.save("x", key: "a/b", source: "x", fetchedAt: fixedNow)
    }
  }

  @Test func xdgPathsFollowTheEnvironment() {
    let paths = RatesPaths(environment: [
      "HOME": "/home/u", "XDG_CACHE_HOME": "/c", "XDG_DATA_HOME": "relative/ignored",
    ])
    expectEqual(paths.cache.path, "/c/rates")
    expectEqual(paths.data.path, "/home/u/.local/share/rates")
    expectEqual(paths.config.path, "/home/u/.config/rates")
  }
}
