import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// Where ``JSONFileCache`` and ``DayStore`` keep each key's file: under their directory
/// whatever the key holds.
@Suite struct CacheFilePathTests {
  static let directory = URL(fileURLWithPath: "/tmp/cache", isDirectory: true)

  @Test(arguments: [
    ("coingecko/price/bitcoin-EUR", "coingecko/price/bitcoin-eur"), ("", "_"), ("/", "_"),
    ("a/../../etc/passwd", "a/_./_./etc/passwd"), (".hidden/.x", "_hidden/_x"),
    ("é/ü", "_/_"), ("e\u{301}x", "_x"), ("a b/c\td", "a_b/c_d"), ("a//b/", "a/b"),
    ("\u{212A}elvin", "kelvin"), ("ka:s?p#a", "ka_s_p_a"),
  ])
  func aKeyNamesOneFileUnderTheDirectory(_ key: String, _ expected: String) {
    expectEqual(JSONFileCache(directory: Self.directory).fileURL(for: key).path, "/tmp/cache/\(expected).json")
    expectEqual(DayStore(directory: Self.directory).fileURL(key: key).path, "/tmp/cache/days/\(expected).days")
  }

  static let hostileKeys = [
    "", "/", "//", "a", "a/", "/a", "a//b", "a/b/", "..", "../..", "a/../../etc/passwd", ".", "./a",
    ".hidden/.x", "coingecko/price/bitcoin-EUR", "Coingecko/HISTORY/BTC-eur", "a b/c\td",
    "\u{1B}[31m/x", "é/ü", "e\u{301}x", "/\u{301}a", "a\r\nb", "a\r\rb", "\r\n/\n\r", "İstanbul",
    "\u{212A}elvin", "straße", "ﬁ", "😀/👍🏽", "ka:s?p#a", "a\u{0}b", "-_.", "ÅB/Ç.D",
  ]

  /// The hostile keys and 500 random ones, made of pieces that split, lower-case or
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
    for _ in 0..<500 {
      let length = Int.random(in: 0...12, using: &generator)
      keys.append(
        (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" }.joined())
    }
    return keys
  }

  @Test func limitsAreByTheKeysSecondOfThreeSegments() {
    expectEqual(JSONFileCache.maximumBytes(forKey: "x/price/y"), 256 * 1024)
    expectEqual(JSONFileCache.maximumBytes(forKey: "x/Price/y/z"), 256 * 1024)
    expectEqual(JSONFileCache.maximumBytes(forKey: "/x//week/y"), 1024 * 1024)
    expectEqual(JSONFileCache.maximumBytes(forKey: "x/wee\u{212A}/y"), 1024 * 1024)
    expectEqual(JSONFileCache.maximumBytes(forKey: "x/price"), JSONFileCache.defaultMaximumBytes)
    expectEqual(JSONFileCache.maximumBytes(forKey: "x/history/y"), JSONFileCache.defaultMaximumBytes)
  }

  @Test func noKeyEscapesTheDirectory() {
    for key in Self.keys() {
      let components = JSONFileCache(directory: Self.directory).fileURL(for: key).pathComponents
      expect(components.starts(with: ["/", "tmp", "cache"]) && components.count > 3, "\(key.debugDescription)")
      expect(!components.dropFirst(3).contains { $0.hasPrefix(".") }, "\(key.debugDescription)")
    }
  }
}
