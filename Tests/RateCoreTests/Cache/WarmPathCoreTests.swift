import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

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
    expectEqual(RateService.dayKey(historyKey: key), expected)
    expectEqual(RateService.dayKey(historyKey: key), key.replacing("/history/", with: "/"))
  }

  @Test(arguments: [
    ("en_us.utf-8", "utf-8", true), ("c.utf8", "utf8", true), ("c", "utf8", false),
    ("", "", true), ("abc", "", true), ("ab", "abc", false), ("€uro", "uro", true),
    ("aaa", "aa", true),
  ])
  func containsUTF8IsContainsForText(_ text: String, _ pattern: String, _ expected: Bool) {
    expectEqual(text.containsUTF8(pattern), expected)
    expectEqual(text.containsUTF8(pattern), (pattern.isEmpty || text.contains(pattern)))
  }

  @Test func replacingUTF8ReplacesLeftToRightWithoutOverlap() {
    expectEqual("aaaa".replacingUTF8("aa", with: "b"), "bb")
    expectEqual("aaa".replacingUTF8("aa", with: "b"), "ba")
    expectEqual("x€y€".replacingUTF8("€", with: "EUR"), "xEURyEUR")
    expectEqual("abc".replacingUTF8("", with: "z"), "abc")
    expectEqual("abc".replacingUTF8("abcd", with: "z"), "abc")
  }

  @Test func readEntryTellsMissingBytesAndUnusableApart() throws {
    try withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("entry.json")
      guard case .missing = JSONFileCache.readEntry(at: file.path, limit: 64) else {
        Issue.record("a missing file is not .missing")
        return
      }
      try Data("{\"a\":1}".utf8).write(to: file)
      expectEqual(JSONFileCache.readEntry(at: file.path, limit: 64).data, Data("{\"a\":1}".utf8))
      guard
        case .unusable(.oversized(let path, let bytes, let limit)) =
          JSONFileCache.readEntry(at: file.path, limit: 3)
      else {
        Issue.record("a file over the limit is not .oversized")
        return
      }
      expect(path == file.path && bytes == 7 && limit == 3)
      expectEqual(JSONFileCache.readEntry(at: directory.path, limit: 64).data, nil)
      guard case .unusable(.notAFile(let at, _)) = JSONFileCache.readEntry(at: directory.path, limit: 64)
      else {
        Issue.record("a directory is not .notAFile")
        return
      }
      expectEqual(at, directory.path)
    }
  }

  @Test func stringsDataFileReadsWhatADataFileWrote() throws {
    try withTemporaryDirectory { directory in
      let url = directory.appendingPathComponent("rates").appendingPathComponent("config.json")
      expectEqual(try StringsDataFile.read(url: url, key: "settings"), [:])
      let file = DataFile<[String: String]>(url: url, key: "settings", empty: [:])
      try file.update { $0 = ["currency": "EUR", "timeout": "5"] }
      expectEqual(try StringsDataFile.read(url: url, key: "settings"), ["currency": "EUR", "timeout": "5"])
      try Data("{\"settings\":{\"currency\":\"EUR\"},\"version\":9}\n".utf8).write(to: url)
      #expect(throws: DataFileError.self) { try StringsDataFile.read(url: url, key: "settings") }
      // A link to no file is the data file's to judge, not a missing file.
      let link = directory.appendingPathComponent("link.json")
      try FileManager.default.createSymbolicLink(
        atPath: link.path, withDestinationPath: directory.appendingPathComponent("none.json").path)
      expectEqual(
        (try? StringsDataFile.read(url: link, key: "settings")),
        (try? DataFile<[String: String]>(url: link, key: "settings", empty: [:]).read()))
      // A folder where the file should be (its URL ends in `/`) is no missing file either.
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("folder.json"), withIntermediateDirectories: true)
      let folder = directory.appendingPathComponent("folder.json")
      expect(folder.path(percentEncoded: false).hasSuffix("/"))
      #expect(throws: DataFileError.self) { try StringsDataFile.read(url: folder, key: "settings") }
    }
  }

  /// An inline source named `name` that prices `answers` of what it is asked, or fails with
  /// `failure`.
  static func source(
    _ name: Provider, answers: Set<String> = [], failure: ProviderError? = nil
  ) -> PriceSource {
    PriceSource(
      name: name, resolve: { Asset(symbol: $0, id: $0.lowercased()) }, validateQuote: { _ in },
      prices: { pairs in
        if let failure { throw failure }
        return pairs.filter { answers.contains($0.asset.symbol) }.map {
          Quote(
            base: $0.asset.symbol, quote: $0.quote, rate: 1, change24hPercent: nil, source: .provider(name),
            fetchedAt: Date(timeIntervalSince1970: 0), updatedAt: nil)
        }
      },
      dailyCloses: { _, _, _ in throw ProviderError.noData(provider: .provider(name), detail: "none") })
  }

  @Test func aChainTellsWhyEachPairItsAnswerLackedAndNoneForAnother() async throws {
    try await withTemporaryDirectory { folder in
      let chain = SourceChain.chain(
        Self.source(.coinbase, answers: ["BTC"]),
        then: [Self.source(.kraken, failure: .serverError(provider: .provider(.kraken), status: 503))],
        pauses: ProviderPauses(cacheFolder: folder), now: { Date(timeIntervalSince1970: 0) })
      let pair = { (symbol: String) in
        AssetQuote(asset: Asset(symbol: symbol, id: symbol.lowercased()), quote: "usd")
      }
      let quotes = try await chain.prices([pair("BTC"), pair("ETH"), pair("DOGE")])
      expectEqual(quotes.map(\.base), ["BTC"])
      expectEqual(chain.whyLacking(pair("BTC")), nil)
      expectEqual(chain.whyLacking(pair("XRP")), nil)
      for symbol in ["ETH", "DOGE"] {
        expectEqual(
          chain.whyLacking(pair(symbol)),
          .noSourceAnswered(
            pairs: "\(symbol)/USD", closes: false,
            failures: [
              .noData(provider: .provider(.coinbase), detail: SourceChain.leftOut),
              .serverError(provider: .provider(.kraken), status: 503),
            ]))
      }
      // The next answer's reasons replace the last one's.
      _ = try await chain.prices([pair("BTC")])
      expectEqual(chain.whyLacking(pair("ETH")), nil)
    }
  }

  @Test func aDayParsesItsBytesAsItsCharacters() {
    let texts = [
      "2026-05-28", "1999-01-04", "0000-01-01", "9999-12-31", "2024-02-29", "2023-02-29",
      "2024-02-30", "2026-13-01", "2026-00-10", "2026-01-00", "2026-1-01", "2026-01-1",
      "26-01-01", "20260-01-01", "2026-01-011", "2026/01/01", "2026-01-01 ", " 2026-01-01",
      "2026--01-01", "2026-01--1", "+026-01-01", "-2026-01-01", "2026-01-0\u{301}1",
      "2026-01-01\u{301}", "２０２６-01-01", "٢٠٢٦-01-01", "2026-01-01\n", "", "-", "--",
      "2026-01-", "abcd-ef-gh", "2026‐01‐01", "2026-01-01-", "2026-0a-01",
    ]
    for text in texts {
      expectEqual(Day(text), DayParsingTests.legacyDay(text), "\(text)")
      expectEqual(Day(text[...]), DayParsingTests.legacyDay(text), "\(text)")
    }
    expectEqual(Day("2026-05-28"), Day(year: 2026, month: 5, day: 28))
  }

  /// How `NumberText` formatted before it called C with plain arguments: `withVaList`.
  static func vaListPrintf(_ format: String, _ places: Int, _ value: Double) -> String {
    withVaList([Int32(clamping: max(0, min(places, 40))), value]) { list in
      var buffer = [CChar](repeating: 0, count: 512)
      guard vsnprintf(&buffer, 512, format, list) > 0 else { return "" }
      return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }

  @Test func numberTextWritesWhatPrintfThroughAVaListWrote() {
    let values: [Double] = [
      0, -0.0, 1, -1, 0.5, 1.5, 2.5, 1.005, 0.125, 0.375, 2.675, 1234.565, 61234.5, 57912.3,
      0.000123456, 123456789.987654321, 1e15, 1e16, 1e22, 1e300, -1e-300, .leastNonzeroMagnitude,
      .greatestFiniteMagnitude, .leastNormalMagnitude, .pi, -.pi, 1 / 3, 2 / 3,
      .nan, .infinity, -.infinity, 0.045, 0.055, 9.995, 99.5, 999999.9999995,
    ]
    for value in values {
      for places in [-3, 0, 1, 2, 3, 4, 6, 8, 12, 17, 20, 40, 41, 500] {
        expectEqual(NumberText.fixed(value, places: places), Self.vaListPrintf("%.*f", places, value))
        expectEqual(
          NumberText.scientific(value, digits: places), Self.vaListPrintf("%.*e", places, value))
      }
    }
    expectEqual(NumberText.fixed(1.005, places: 2), "1.00")  // the binary value, as printf rounds it
    expectEqual(NumberText.scientific(1234.5, digits: 3), "1.234e+03")
  }
}
