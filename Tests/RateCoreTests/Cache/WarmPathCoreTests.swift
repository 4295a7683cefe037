import Foundation
import Testing

@testable import RateCore
import RatesTestSupport

/// The warm path's replacements for code that cost a run-time conformance lookup each
/// (docs/guide.md, "What a warm command does") answer exactly as what they replace.
@Suite struct WarmPathCoreTests {
  @Test(arguments: [
    ("coingecko/history/bitcoin-EUR", "coingecko/bitcoin-EUR"),
    ("frankfurter/history/EUR-USD", "frankfurter/EUR-USD"),
    ("a/history/history/b", "a/history/b"),
    ("a/history/b/history/c", "a/b/c"),
    ("coingecko/price/bitcoin-EUR", "coingecko/price/bitcoin-EUR"),
    ("/history/", "/"), ("history", "history"), ("", ""),
    ("kraken/history/é-€", "kraken/é-€"),
  ])
  func dayKeyDropsEveryHistorySegment(_ key: String, _ expected: String) {
    #expect(RateService.dayKey(historyKey: key) == expected)
    #expect(RateService.dayKey(historyKey: key) == key.replacing("/history/", with: "/"))
  }

  @Test(arguments: [
    ("en_us.utf-8", "utf-8", true), ("c.utf8", "utf8", true), ("c", "utf8", false),
    ("", "", true), ("abc", "", true), ("ab", "abc", false), ("€uro", "uro", true),
    ("aaa", "aa", true),
  ])
  func containsUTF8IsContainsForText(_ text: String, _ pattern: String, _ expected: Bool) {
    #expect(text.containsUTF8(pattern) == expected)
    #expect(text.containsUTF8(pattern) == (pattern.isEmpty || text.contains(pattern)))
  }

  @Test func replacingUTF8ReplacesLeftToRightWithoutOverlap() {
    #expect("aaaa".replacingUTF8("aa", with: "b") == "bb")
    #expect("aaa".replacingUTF8("aa", with: "b") == "ba")
    #expect("x€y€".replacingUTF8("€", with: "EUR") == "xEURyEUR")
    #expect("abc".replacingUTF8("", with: "z") == "abc")
    #expect("abc".replacingUTF8("abcd", with: "z") == "abc")
  }

  @Test func readEntryTellsMissingBytesAndUnusableApart() throws {
    try withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("entry.json")
      guard case .missing = JSONFileCache.readEntry(at: file.path, limit: 64) else {
        Issue.record("a missing file is not .missing")
        return
      }
      try Data("{\"a\":1}".utf8).write(to: file)
      #expect(JSONFileCache.readEntry(at: file.path, limit: 64).data == Data("{\"a\":1}".utf8))
      guard case .unusable(.oversized(let path, let bytes, let limit)) =
        JSONFileCache.readEntry(at: file.path, limit: 3)
      else {
        Issue.record("a file over the limit is not .oversized")
        return
      }
      #expect(path == file.path && bytes == 7 && limit == 3)
      #expect(JSONFileCache.readEntry(at: directory.path, limit: 64).data == nil)
      guard case .unusable(.notAFile(let at, _)) = JSONFileCache.readEntry(at: directory.path, limit: 64)
      else {
        Issue.record("a directory is not .notAFile")
        return
      }
      #expect(at == directory.path)
    }
  }

  @Test func stringsDataFileReadsWhatADataFileWrote() throws {
    try withTemporaryDirectory { directory in
      let url = directory.appendingPathComponent("rates").appendingPathComponent("config.json")
      #expect(try StringsDataFile.read(url: url, key: "settings") == [:])
      let file = DataFile<[String: String]>(url: url, key: "settings", empty: [:])
      try file.update { $0 = ["currency": "EUR", "timeout": "5"] }
      #expect(try StringsDataFile.read(url: url, key: "settings") == ["currency": "EUR", "timeout": "5"])
      try Data("{\"settings\":{\"currency\":\"EUR\"},\"version\":9}\n".utf8).write(to: url)
      #expect(throws: DataFileError.self) { try StringsDataFile.read(url: url, key: "settings") }
      // A link to no file is the data file's to judge, not a missing file.
      let link = directory.appendingPathComponent("link.json")
      try FileManager.default.createSymbolicLink(
        atPath: link.path, withDestinationPath: directory.appendingPathComponent("none.json").path)
      #expect(
        (try? StringsDataFile.read(url: link, key: "settings"))
          == (try? DataFile<[String: String]>(url: link, key: "settings", empty: [:]).read()))
    }
  }
}
