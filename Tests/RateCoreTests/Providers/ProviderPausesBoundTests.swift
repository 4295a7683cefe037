import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// `provider-pauses.json` is bounded: a pause never lasts longer than the longest one
/// (a hand-edited `9999-12-31` ends, and the file says so), and the file is never read past
/// its size limit.
@Suite struct ProviderPausesBoundTests {
  static let now = Date(timeIntervalSince1970: 1_780_000_000)
  let scratch = Scratch()

  @Test func aPauseEndingInYear9999IsClampedAndTheFileRewritten() throws {
    let folder = try scratch.folder()
    let file = folder.appendingPathComponent(ProviderPauses.fileName)
    try Data(#"{"pausedUntil":{"coingecko":"9999-12-31T23:59:59Z","kraken":"2026-05-28T20:30:00Z"}}"#.utf8)
      .write(to: file)
    let pauses = ProviderPauses(cacheFolder: folder)
    let longest = Self.now.addingTimeInterval(ProviderPauses.longestPause)
    expectEqual(pauses.pausedUntil(.coinGecko, now: Self.now), longest)
    expectEqual(pauses.read().pausedUntil["coingecko"], ISO8601.format(longest), "rewritten")
    expectEqual(pauses.read().pausedUntil["kraken"], "2026-05-28T20:30:00Z", "the other pause kept")
    // Later runs see the clamped end: the pause ends.
    let later = Self.now.addingTimeInterval(ProviderPauses.longestPause - 60)
    expectEqual(pauses.pausedUntil(.coinGecko, now: later), longest)
    expectEqual(pauses.pausedUntil(.coinGecko, now: longest.addingTimeInterval(1)), nil)
  }

  @Test func aPauseWithinTheLongestIsKeptAsItIs() throws {
    let folder = try scratch.folder()
    let pauses = ProviderPauses(cacheFolder: folder)
    pauses.pause(.coinbase, seconds: 120, now: Self.now)
    let before = try Data(contentsOf: folder.appendingPathComponent(ProviderPauses.fileName))
    expectEqual(pauses.pausedUntil(.coinbase, now: Self.now), Self.now.addingTimeInterval(120))
    let after = try Data(contentsOf: folder.appendingPathComponent(ProviderPauses.fileName))
    expectEqual(before, after)
  }

  /// The largest resident size this process has had, in bytes.
  static func peakResidentBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
  }

  @Test func aHugeSparsePauseFileIsRefusedWithoutBeingReadWhole() throws {
    let folder = try scratch.folder()
    let file = folder.appendingPathComponent(ProviderPauses.fileName)
    let size = 900 * 1024 * 1024
    expect(FileManager.default.createFile(atPath: file.path, contents: nil))
    expectEqual(truncate(file.path, off_t(size)), 0)
    let before = Self.peakResidentBytes()
    let pauses = ProviderPauses(cacheFolder: folder)
    expectEqual(pauses.pausedUntil(.coinGecko, now: Self.now), nil)
    expectEqual(pauses.lastSuccess(.coinGecko), nil)
    let grown = Self.peakResidentBytes() - before
    expect(grown < size / 4, "read \(grown) bytes of a \(size)-byte file")
    expectEqual((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int), size)
  }
}
