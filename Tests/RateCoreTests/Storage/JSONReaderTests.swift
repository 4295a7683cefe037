import Foundation
import Testing

@testable import RateCore
import RatesTestSupport

/// The cache's strict JSON reader: what it refuses, and that what it reads is what
/// JSONDecoder reads from the same bytes.
@Suite struct JSONReaderTests {
  /// Whether `bytes` is one valid JSON value and nothing else, for the reader.
  static func accepts(_ bytes: [UInt8]) -> Bool {
    var reader = JSONReader(bytes)
    do {
      try reader.skip()
      try reader.finish()
      return true
    } catch {
      return false
    }
  }

  static let malformed: [(String, [UInt8])] = [
    ("empty", []), ("whitespace only", Array(" \n\t".utf8)),
    ("bad escape", Array(#""\x""#.utf8)), ("short \\u", Array(#""\u12""#.utf8)),
    ("\\u with a non-hex digit", Array(#""\u12G4""#.utf8)),
    ("lone high surrogate", Array(#""\uD800""#.utf8)),
    ("lone low surrogate", Array(#""\uDC00""#.utf8)),
    ("high surrogate then a letter", Array(#""\uD800\u0041""#.utf8)),
    ("high surrogate then a newline escape", Array(#""\uD83D\n""#.utf8)),
    ("two high surrogates", Array(#""\uD83D\uD83D""#.utf8)),
    ("escape cut at the end", Array(#""\"#.utf8)),
    ("raw control character", [0x22, 0x61, 0x01, 0x62, 0x22]),
    ("raw tab", [0x22, 0x09, 0x22]), ("raw newline", [0x22, 0x0A, 0x22]),
    ("invalid UTF-8 byte", [0x22, 0xFF, 0x22]), ("overlong slash", [0x22, 0xC0, 0xAF, 0x22]),
    ("UTF-8 surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22]),
    ("truncated UTF-8 sequence", [0x22, 0xE2, 0x82, 0x22]),
    ("past U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22]),
    ("lone continuation byte", [0x22, 0x80, 0x22]), ("unterminated string", Array(#""abc"#.utf8)),
    ("leading zero", Array("01".utf8)), ("negative leading zero", Array("-01".utf8)),
    ("bare point", Array("1.".utf8)), ("leading point", Array(".5".utf8)),
    ("plus sign", Array("+1".utf8)), ("minus alone", Array("-".utf8)),
    ("empty exponent", Array("1e".utf8)), ("signed empty exponent", Array("1e+".utf8)),
    ("NaN", Array("NaN".utf8)), ("Infinity", Array("Infinity".utf8)),
    ("-Infinity", Array("-Infinity".utf8)), ("hex number", Array("0x10".utf8)),
    ("byte order mark", [0xEF, 0xBB, 0xBF] + Array("{}".utf8)),
    ("trailing comma in array", Array("[1,]".utf8)),
    ("trailing comma in object", Array(#"{"a":1,}"#.utf8)),
    ("leading comma", Array("[,1]".utf8)), ("lone comma in object", Array("{,}".utf8)),
    ("trailing garbage", Array("{} x".utf8)), ("two values", Array("{}{}".utf8)),
    ("two numbers", Array("1 2".utf8)), ("unquoted name", Array("{a:1}".utf8)),
    ("single quotes", Array("'a'".utf8)), ("line comment", Array("// x\n1".utf8)),
    ("block comment", Array("/* x */ 1".utf8)), ("cut literal", Array("tru".utf8)),
    ("cut null", Array("nul".utf8)), ("capitalised literal", Array("True".utf8)),
    ("missing colon", Array(#"{"a" 1}"#.utf8)), ("missing comma", Array("[1 2]".utf8)),
    ("unclosed array", Array("[1, 2".utf8)), ("unclosed object", Array(#"{"a":1"#.utf8)),
    ("mismatched brackets", Array("[1}".utf8)), ("NUL byte after the value", [0x31, 0x00]),
    ("non-breaking space as whitespace", [0xC2, 0xA0, 0x31]),
    (
      "nesting past the limit",
      Array(repeating: UInt8(ascii: "["), count: 65)
        + Array(repeating: UInt8(ascii: "]"), count: 65)
    ),
  ]

  @Test(arguments: malformed)
  func refusesMalformedInput(_ name: String, _ bytes: [UInt8]) {
    #expect(!Self.accepts(bytes), "\(name) was accepted")
  }

  @Test func acceptsNestingUpToTheLimit() {
    let depth = JSONReader.maximumDepth
    #expect(
      Self.accepts(
        Array(repeating: UInt8(ascii: "["), count: depth)
          + Array(repeating: UInt8(ascii: "]"), count: depth)))
  }

  /// A hostile file of 100,000 `[` is refused, not a stack overflow.
  @Test func refusesDeepNestingWithoutRecursingIntoIt() {
    #expect(!Self.accepts(Array(repeating: UInt8(ascii: "["), count: 100_000)))
    #expect(!Self.accepts(Array(repeating: Array(#"{"a":"#.utf8), count: 50_000).flatMap { $0 }))
  }

  static let strings = [
    #""""#, #""plain""#, #""\"\\\/\b\f\n\r\t""#, #""\u00e9\u00E9""#, #""\uD83D\uDE00 smile""#,
    #""\u0000 nul""#, "\"€ 😀 e\u{301}\"", #""a\/b""#, #""\u20AC\ud834\udd1e""#, #""x\u001fy""#,
  ]

  @Test(arguments: strings)
  func readsStringsAsJSONDecoderDoes(_ text: String) throws {
    var reader = JSONReader(Array(text.utf8))
    let read = try reader.string()
    try reader.finish()
    #expect(read == (try JSONDecoder().decode(String.self, from: Data(text.utf8))))
    #expect(
      read.utf8.elementsEqual(try JSONDecoder().decode(String.self, from: Data(text.utf8)).utf8))
  }

  /// Finite doubles over the whole range: random bit patterns (every exponent), subnormals,
  /// negative zero, the extremes, and everyday rates.
  static func doubles(count: Int, seed: UInt64) -> [Double] {
    var generator = SeededGenerator(state: seed)
    var values: [Double] = [
      0, -0.0, 1, -1, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
      .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0.1, 0.2, 0.3, 1e-300, 1e300,
      .leastNormalMagnitude.nextDown, 67_234.123_456_789, 1.0000000000000002,
      9_007_199_254_740_992, 9_007_199_254_740_994,
    ]
    while values.count < count {
      let bits = generator.next()
      switch values.count % 4 {
      case 0: values.append(Double(bitPattern: bits & 0x800F_FFFF_FFFF_FFFF))  // subnormal
      case 1: values.append(Double.random(in: 1e-9...1e7, using: &generator))
      default: values.append(Double(bitPattern: bits))
      }
      if !values[values.count - 1].isFinite { values.removeLast() }
    }
    return values
  }

  /// Prices the providers' gate accepts (``AnswerGate/isPrice(_:)``), what the cache holds:
  /// random bit patterns of every exponent in its range, its bounds, and everyday rates.
  static func prices(count: Int, seed: UInt64) -> [Double] {
    var generator = SeededGenerator(state: seed)
    var values: [Double] = [
      AnswerGate.smallestPrice, AnswerGate.largestPrice, AnswerGate.smallestPrice.nextUp,
      AnswerGate.largestPrice.nextDown, 0.1, 0.2, 0.3, 1, 67_234.123_456_789,
      1.0000000000000002, 123_456_789.987_654,
    ]
    while values.count < count {
      let exponent = UInt64(Int.random(in: (1023 - 66)...(1023 + 49), using: &generator))
      let value = Double(bitPattern: exponent << 52 | generator.next() & 0x000F_FFFF_FFFF_FFFF)
      if AnswerGate.isPrice(value) { values.append(value) }
    }
    return values
  }

  @Test func readsDoublesBitIdenticalToJSONDecoder() throws {
    let values = Self.doubles(count: 20_000, seed: 27)
    let data = try JSONCoders.encoder().encode(values)
    let decoded = try JSONCoders.decoder().decode([Double].self, from: data)
    var read: [Double] = []
    var reader = JSONReader([UInt8](data))
    try reader.array { reader throws(JSONReader.Failure) in read.append(try reader.double()) }
    try reader.finish()
    #expect(read.count == values.count)
    for (index, value) in read.enumerated() where value.bitPattern != decoded[index].bitPattern {
      Issue.record("\(values[index]): read \(value), JSONDecoder \(decoded[index])")
    }
    #expect(read.map(\.bitPattern) == values.map(\.bitPattern))
  }

  @Test(arguments: ["1e400", "-1e400", "1E+999"])
  func refusesNumbersPastDoubleRange(_ text: String) {
    var reader = JSONReader(Array(text.utf8))
    #expect(throws: JSONReader.Failure.self) { try reader.double() }
  }

  @Test func readsIntsOnlyFromWholeNumbers() throws {
    for (text, expected) in [("1", 1), ("-0", 0), ("9223372036854775807", Int.max)] {
      var reader = JSONReader(Array(text.utf8))
      #expect(try reader.int() == expected)
    }
    for text in ["1.0", "1e0", "9223372036854775808", "\"1\""] {
      var reader = JSONReader(Array(text.utf8))
      #expect(throws: JSONReader.Failure.self) { try reader.int() }
    }
  }

  @Test func objectsReadNamedMembersSkipOthersAndRefuseOneNamedTwice() throws {
    var found: [Int: String] = [:]
    var reader = JSONReader(Array(#" { "b" : "2", "x": [1, {"y": null}], "\u0061": "1" } "#.utf8))
    try reader.object(["a", "b"]) { index, reader throws(JSONReader.Failure) in
      found[index] = try reader.string()
    }
    try reader.finish()
    #expect(found == [0: "1", 1: "2"])
    var twice = JSONReader(Array(#"{"a":"1","a":"2"}"#.utf8))
    #expect(throws: JSONReader.Failure.self) {
      try twice.object(["a"]) { _, reader throws(JSONReader.Failure) in _ = try reader.string() }
    }
    var unnamedTwice = JSONReader(Array(#"{"z":1,"z":2}"#.utf8))
    try unnamedTwice.object(["a"]) { _, _ throws(JSONReader.Failure) in }
  }
}
