import Foundation
import Testing

@testable import RateCore
import RatesTestSupport

/// ``JSONFileCache/fileURL(for:)``, made from bytes, gives the paths the URL-building code it
/// replaces gave, for every kind of key.
@Suite struct CacheFilePathTests {
  /// The previous mapping, kept as the reference: URL components, Character by Character.
  static func legacyFileURL(_ directory: URL, _ key: String) -> URL {
    let segments = key.lowercased().split(separator: "/").map { segment -> String in
      let cleaned = String(
        segment.map { character -> Character in
          character.isASCII
            && (character.isLetter || character.isNumber || "._-".contains(character))
            ? character : "_"
        })
      return cleaned.hasPrefix(".") ? "_" + cleaned.dropFirst() : cleaned
    }
    var url = directory
    for segment in segments.dropLast() { url.appendPathComponent(segment, isDirectory: true) }
    return url.appendingPathComponent((segments.last ?? "_") + ".json")
  }

  static let directories = [
    URL(fileURLWithPath: "/tmp/cache", isDirectory: true), URL(fileURLWithPath: "/tmp/cache"),
    URL(fileURLWithPath: "/", isDirectory: true),
    URL(fileURLWithPath: "/tmp/a dir/ü", isDirectory: true),
  ]

  static let hostileKeys = [
    "", "/", "//", "a", "a/", "/a", "a//b", "a/b/", "..", "../..", "a/../../etc/passwd", ".", "./a",
    ".hidden/.x", "coingecko/price/bitcoin-EUR", "Coingecko/HISTORY/BTC-eur", "a b/c\td",
    "\u{1B}[31m/x", "é/ü", "e\u{301}x", "/\u{301}a", "a\r\nb", "a\r\rb", "\r\n/\n\r", "İstanbul",
    "\u{212A}elvin", "straße", "ﬁ", "😀/👍🏽", "ka:s?p#a", "a\u{0}b", "-_.", "ÅB/Ç.D",
  ]

  /// The previous limit by kind, kept as the reference.
  static func legacyMaximumBytes(_ key: String) -> Int {
    let segments = key.lowercased().split(separator: "/")
    let kind = segments.count > 2 ? String(segments[1]) : ""
    let byKind = ["price": 256 * 1024, "resolve": 256 * 1024, "week": 1024 * 1024]
    return byKind[kind] ?? JSONFileCache.defaultMaximumBytes
  }

  /// The previous day store file, kept as the reference.
  static func legacyDayStoreURL(_ directory: URL, _ key: String) -> URL {
    legacyFileURL(directory.appendingPathComponent("days", isDirectory: true), key)
      .deletingPathExtension().appendingPathExtension("days")
  }

  /// The hostile keys and 3,000 random ones, made of pieces that split, lower-case or
  /// cluster differently by bytes and by characters.
  static func keys() -> [String] {
    var generator = SeededGenerator(state: 99)
    let alphabet: [String] = [
      "a", "Z", "0", "9", "/", ".", "..", "-", "_", " ", "é", "e\u{301}", "\u{301}", "\r", "\n",
      "\r\n", "İ", "\u{212A}", "ß", "😀", "\u{1B}", ":", "\\", "%", "€", "price", "PRICE",
      "week", "wee\u{212A}", "resolve", "history",
    ]
    var keys =
      hostileKeys + ["x/price/y", "x/Price/y/z", "/x//week/y", "x/wee\u{212A}/y", "x/price"]
    for _ in 0..<3_000 {
      let length = Int.random(in: 0...12, using: &generator)
      keys.append(
        (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" }.joined())
    }
    return keys
  }

  @Test func limitsByKindAreThoseOfTheSplittingCode() {
    for key in Self.keys() {
      #expect(
        JSONFileCache.maximumBytes(forKey: key) == Self.legacyMaximumBytes(key),
        "\(key.debugDescription)")
    }
    #expect(JSONFileCache.maximumBytes(forKey: "x/wee\u{212A}/y") == 1024 * 1024)
  }

  @Test func dayStorePathsAreThoseOfTheURLBuildingCode() {
    for directory in Self.directories {
      let store = DayStore(directory: directory)
      for key in Self.keys() {
        let legacy = Self.legacyDayStoreURL(directory, key)
        #expect(store.fileURL(key: key) == legacy, "\(key.debugDescription)")
        #expect(store.fileURL(key: key).path == legacy.path, "\(key.debugDescription)")
      }
    }
  }

  @Test func pathsAreThoseOfTheURLBuildingCode() {
    let keys = Self.keys()
    for directory in Self.directories {
      let cache = JSONFileCache(directory: directory)
      for key in keys {
        let legacy = Self.legacyFileURL(directory, key)
        #expect(cache.fileURL(for: key).path == legacy.path, "\(key.debugDescription)")
        #expect(cache.fileURL(for: key) == legacy, "\(key.debugDescription)")
      }
    }
  }
}
