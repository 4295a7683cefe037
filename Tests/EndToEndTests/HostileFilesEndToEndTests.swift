import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The binary against FIFOs in place of data, config and cache files, and a symlinked cache.
@Suite struct HostileFilesEndToEndTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  @Test(arguments: ["data/rates/favorites.json", "config/rates/config.json"])
  func aFIFOInPlaceOfAFileIsRefusedNamingIt(_ relative: String) async throws {
    let rates = try BinaryRunner(server: nil)
    let fifo = rates.home.appendingPathComponent(relative)
    try HostileFiles.makeFIFO(at: fifo)
    for arguments in [["favorites", "--offline"], ["favorites", "remove", "BTC"]] {
      let result = try await rates.run(arguments, hangGuard: 10)
      expectEqual(result.status, 74, "\(arguments): \(result.stderr)")
      expect(result.stderr.contains(fifo.path) && result.stderr.contains("FIFO"))
    }
    let doctor = try await rates.run(["doctor", "--offline"], hangGuard: 10)
    expectEqual(doctor.status, 2, "\(doctor.stderr)")
    expect((doctor.stdout + doctor.stderr).contains("FIFO"))
  }

  @Test func aFIFOInTheCacheIsIgnoredWithAWarning() async throws {
    let rates = try BinaryRunner(server: nil)
    let fifo = rates.home.appendingPathComponent("cache/rates/coingecko/price/bitcoin-usd.json")
    try HostileFiles.makeFIFO(at: fifo)
    let current = try await rates.run(["current", "BTC", "--offline"], hangGuard: 10)
    expectEqual(current.status, 66, "\(current.stderr)")
    expectContains(current.stderr, "warning: ignoring \(fifo.path) in the cache: it is a FIFO")
    let clear = try await rates.run(["cache", "clear"], hangGuard: 10)
    expectEqual(clear.status, 0, "\(clear.stderr)")
    expectContains(clear.stdout, "Kept 1 file")
  }

  @Test func completionIgnoresFIFOsInDataAndCache() async throws {
    let rates = try BinaryRunner(server: nil)
    let fifos = [
      "data/rates/favorites.json", "cache/rates/coingecko/resolve/doge.json",
    ].map { rates.home.appendingPathComponent($0) }
    for fifo in fifos { try HostileFiles.makeFIFO(at: fifo) }
    for kind in ["coins", "favorites"] {
      let result = try await rates.run(["__complete", kind], hangGuard: 10)
      expectEqual(result.status, 0, "\(kind): \(result.stderr)")
      expect(result.stdout.contains("BTC") || kind == "favorites")
    }
  }

  @Test func clearingASymlinkedCacheIsRefusedAndDeletesNothing() async throws {
    let rates = try BinaryRunner(server: nil)
    let elsewhere = try scratch.folder()
    let precious = elsewhere.appendingPathComponent("thesis.json")
    try Data("{\"version\": 1}".utf8).write(to: precious)
    let cacheHome = rates.home.appendingPathComponent("cache")
    try FileManager.default.createDirectory(at: cacheHome, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: cacheHome.appendingPathComponent("rates"), withDestinationURL: elsewhere)
    let clear = try await rates.run(["cache", "clear"])
    expectEqual(clear.status, 64, "\(clear.stderr)")
    expectContains(clear.stderr, "symbolic link")
    expect(FileManager.default.fileExists(atPath: precious.path))
  }
}
