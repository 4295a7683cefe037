import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rates cache clear` removes the cache's own entries, counted as removed, and nothing else.
@Suite struct CacheClearTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  func makeCache() throws -> (JSONFileCache, URL) {
    let directory = try scratch.folder().appendingPathComponent("rates", isDirectory: true)
    let cache = JSONFileCache(directory: directory)
    try cache.save(
      "a", key: "coingecko/price/bitcoin-usd", source: "coingecko", fetchedAt: fixedNow)
    try cache.save(
      "b", key: "coingecko/history/bitcoin-eur", source: "coingecko", fetchedAt: fixedNow)
    try cache.save("c", key: "frankfurter/week/gbp-usd", source: "frankfurter", fetchedAt: fixedNow)
    return (cache, directory)
  }

  func write(_ text: String, _ relative: String, in directory: URL) throws {
    let url = directory.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  func files(under directory: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: directory.path)
    return (enumerator?.allObjects as? [String] ?? []).sorted()
  }

  @Test func onlyOwnEntriesAreRemovedAndCountedAsRemoved() throws {
    let (cache, directory) = try makeCache()
    let bytes = try [
      "coingecko/price/bitcoin-usd", "coingecko/history/bitcoin-eur", "frankfurter/week/gbp-usd",
    ].reduce(0) { total, key in
      total + (try Data(contentsOf: cache.fileURL(for: key))).count
    }
    try write("my notes", "notes.txt", in: directory)
    try write(
      "{\"version\": 1, \"key\": \"elsewhere/x\"}", "coingecko/price/eth-usd.json", in: directory)
    try write("{\"version\": 1, \"key", "coingecko/price/sol-usd.json", in: directory)
    try write("{", "coingecko/price/.bitcoin-usd.json.\(HostileFiles.deadPID).1.tmp", in: directory)
    try write("{", "coingecko/price/.bitcoin-usd.json.\(getppid()).2.tmp", in: directory)
    let report = try CacheInventory.clear(directory)
    expectEqual(report.removedEntries, 3)
    expectEqual(report.removedBytes, bytes)
    expectEqual(report.removedTemporaryFiles, 1)
    expectEqual(
      report.groups.map { "\($0.provider)/\($0.kind)" },
      [
        "coingecko/history", "coingecko/price", "frankfurter/week",
      ])
    expectEqual(
      report.kept,
      [
        "coingecko/price/.bitcoin-usd.json.\(getppid()).2.tmp", "coingecko/price/eth-usd.json",
        "coingecko/price/sol-usd.json", "notes.txt",
      ].map { directory.appendingPathComponent($0).path })
    expectEqual(
      files(under: directory),
      [
        "coingecko", "coingecko/price", "coingecko/price/.bitcoin-usd.json.\(getppid()).2.tmp",
        "coingecko/price/eth-usd.json", "coingecko/price/sol-usd.json", "notes.txt",
      ])
  }

  @Test func aSymlinkedCacheDirectoryIsRefusedAndItsTargetUntouched() throws {
    let (_, real) = try makeCache()
    try write("precious", "thesis.json", in: real)
    let before = files(under: real)
    let link = try scratch.folder().appendingPathComponent("rates")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
    #expect(throws: CacheClearError.symbolicLink(path: link.path, target: real.path)) {
      try CacheInventory.clear(link)
    }
    expectEqual(files(under: real), before)
  }

  @Test func linksInsideTheCacheAreNeverFollowed() throws {
    let (cache, directory) = try makeCache()
    let outside = try scratch.folder()
    try write("keep", "keep.json", in: outside)
    try FileManager.default.createSymbolicLink(
      at: directory.appendingPathComponent("coingecko/markets"), withDestinationURL: outside)
    // A link named and shaped as an entry, pointing at a real entry elsewhere.
    let stolen = JSONFileCache(directory: outside)
    try stolen.save("x", key: "coingecko/price/doge-usd", source: "x", fetchedAt: fixedNow)
    try FileManager.default.createSymbolicLink(
      at: cache.fileURL(for: "coingecko/price/doge-usd"),
      withDestinationURL: stolen.fileURL(for: "coingecko/price/doge-usd"))
    let report = try CacheInventory.clear(directory)
    expectEqual(report.removedEntries, 3)
    expect(files(under: outside).contains("keep.json"))
    expect(files(under: outside).contains("coingecko/price/doge-usd.json"))
    expectEqual(report.kept.count, 2)
  }

  @Test func aFIFOInTheCacheNeitherHangsInfoNorClear() throws {
    let (cache, directory) = try makeCache()
    let fifo = cache.fileURL(for: "coingecko/price/ethereum-usd")
    try HostileFiles.makeFIFO(at: fifo)
    let outcome = HostileFiles.finishes(within: 5, unblocking: [fifo]) {
      (CacheInventory.scan(directory), try CacheInventory.clear(directory))
    }
    let (inventory, report) = try require(outcome, "blocked on a FIFO").get()
    expectEqual(inventory.entries, 3)
    expectEqual(inventory.foreign, 1)
    expectEqual(report.removedEntries, 3)
    expectEqual(report.kept, [fifo.path])
  }

  @Test func infoCountsEntriesUnreadableAndForeignFiles() throws {
    let (_, directory) = try makeCache()
    try write("{\"version\": 1, \"key", "coingecko/price/sol-usd.json", in: directory)
    try write("notes", "notes.txt", in: directory)
    let inventory = CacheInventory.scan(directory)
    expectEqual(inventory.entries, 4)
    expectEqual(inventory.unreadable, 1)
    expectEqual(inventory.foreign, 1)
    expect(inventory.oldest == fixedNow && inventory.newest == fixedNow)
  }
}
