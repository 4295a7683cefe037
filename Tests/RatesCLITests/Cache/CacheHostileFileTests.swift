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

/// Cache files that are corrupt, foreign, oversized or not files at all: each is a typed
/// ``CacheProblem``, never a silent miss, a hang or a read into memory.
@Suite struct CacheHostileFileTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  let key = "coingecko/price/bitcoin-usd"

  func makeCache() throws -> (JSONFileCache, URL) {
    let cache = JSONFileCache(directory: try scratch.folder())
    let url = cache.fileURL(for: key)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    return (cache, url)
  }

  func problem(_ cache: JSONFileCache, key: String? = nil) -> CacheProblem? {
    if case .unusable(let problem) = cache.load(String.self, key: key ?? self.key) {
      return problem
    }
    return nil
  }

  static let envelope =
    #"{"fetchedAt":"2024-06-10T06:13:20Z","key":"%@","source":"x","value":"v","version":%d}"#

  @Test func eachKindOfBadFileIsItsOwnProblem() throws {
    let (cache, url) = try makeCache()
    let path = url.path
    try Data("{\"version\":1,\"key\":".utf8).write(to: url)
    expectEqual(problem(cache), .corrupt(path: path))
    try Data(String(format: Self.envelope, key, 2).utf8).write(to: url)
    expectEqual(problem(cache), .otherVersion(path: path, version: 2))
    try Data(String(format: Self.envelope, "coingecko/price/ethereum-usd", 1).utf8).write(to: url)
    expectEqual(problem(cache), .foreign(path: path))
    try Data(String(format: Self.envelope, key, 1).utf8).write(to: url)
    expectEqual(cache.load(String.self, key: key).entry?.value, "v")
  }

  @Test func anOversizedFileIsRefusedBeforeReading() throws {
    let (cache, url) = try makeCache()
    // A sparse file: 300 MB long, no disk used; reading it whole would take 300 MB of memory.
    let fd = open(url.path, O_WRONLY | O_CREAT, 0o600)
    expect(fd >= 0)
    expectEqual(ftruncate(fd, 300 * 1024 * 1024), 0)
    close(fd)
    let limit = JSONFileCache.maximumBytes(forKind: "price")
    expectEqual(problem(cache), .oversized(path: url.path, bytes: 300 * 1024 * 1024, limit: limit))
    expectEqual(problem(cache)?.description.contains("more than"), true)
  }

  @Test func aFIFODirectoryOrLinkIsNotOpened() throws {
    let (cache, url) = try makeCache()
    try HostileFiles.makeFIFO(at: url)
    let outcome = HostileFiles.finishes(within: 5, unblocking: [url]) { [key] () -> CacheProblem? in
      if case .unusable(let problem) = cache.load(String.self, key: key) { return problem }
      return nil
    }
    let fifo = try require(outcome, "load blocked on a FIFO").get()
    expectEqual(fifo, .notAFile(path: url.path, kind: "a FIFO (named pipe)"))

    unlink(url.path)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    expectEqual(problem(cache), .notAFile(path: url.path, kind: "a directory"))

    try FileManager.default.removeItem(at: url)
    let elsewhere = try scratch.folder().appendingPathComponent("secret.json")
    try Data(String(format: Self.envelope, key, 1).utf8).write(to: elsewhere)
    try FileManager.default.createSymbolicLink(at: url, withDestinationURL: elsewhere)
    expectEqual(problem(cache), .notAFile(path: url.path, kind: "a symbolic link"))
  }

  @Test func aTooLargeValueIsNotWritten() throws {
    let (cache, url) = try makeCache()
    let huge = String(repeating: "x", count: 300 * 1024)
    #expect(throws: AtomicFile.WriteError.self) {
      try cache.save(huge, key: key, source: "x", fetchedAt: fixedNow)
    }
    expect(!FileManager.default.fileExists(atPath: url.path))
  }

  @Test func currentPricesWarnAboutACorruptEntry() async throws {
    let (cache, url) = try makeCache()
    try Data("garbage".utf8).write(to: url)
    let warnings = Recorder<String>()
    let source = PriceSource(
      name: .coinGecko, carriesForward: false,
      resolve: { _ in Asset(symbol: "BTC", id: "bitcoin") }, validateQuote: { _ in },
      prices: { pairs in
        pairs.map {
          Quote(
            base: $0.asset.symbol, quote: $0.quote, rate: 1, change24hPercent: nil,
            source: .provider(.coinGecko), fetchedAt: fixedNow, updatedAt: fixedNow)
        }
      },
      dailyCloses: { _, _, _ in throw ProviderError.noData(provider: .provider(.coinGecko), detail: "none") })
    let service = RateService(
      source: source, cache: cache, mode: .normal, now: { fixedNow },
      notify: { warnings.append(NoticeText.line($0)) })
    _ = try await service.quotes(of: ["btc"], in: ["USD"])
    expectEqual(warnings.all, ["warning: ignoring corrupt cache file \(url.path)"])
  }
}
