import Foundation
import Testing

@testable import RateCore

/// JSON's lexical rules have one home (`JSONGrammar`): the cache's reader and the ledger's
/// line parser read escapes and numbers alike, and as JSONDecoder does.
@Suite struct JSONGrammarTests {
  static let strings = [
    #""plain""#, #""a\"b""#, #""\\\/\b\f\n\r\t""#, #""\u00e9\u20AC""#, #""\uD83D\uDE00""#,
    #""\uD83D""#, #""\uDE00""#, #""\uD83Dx""#, #""\uD83D\u0041""#, #""\u12""#, #""\u12G4""#,
    #""\x""#, #""\'""#, #""\""#, #""é""#,
  ]
  static let numbers = [
    "0", "-0", "1", "-12", "10", "01", "-01", "1.5", "1.", ".5", "1e5", "1E+5", "1e-5", "1e",
    "1e+", "-", "2.50e-3", "123456789012345678901234567890", "0.0", "00",
  ]

  /// What JSONDecoder reads from `text`, a JSON value; nil when it refuses it.
  static func decoded<Value: Decodable>(_ text: String, as type: Value.Type) -> Value? {
    try? JSONDecoder().decode([Value].self, from: Data("[\(text)]".utf8)).first
  }

  static func cacheReader<Value>(
    _ text: String, _ read: (inout JSONReader) throws(JSONReader.Failure) -> Value
  ) -> Value? {
    var reader = JSONReader(Array(text.utf8))
    do {
      let value = try read(&reader)
      try reader.finish()
      return value
    } catch {
      return nil
    }
  }

  /// The record the ledger's parser reads from an add line with a member it does not know
  /// (which it checks and skips), `member` set to `text`; nil when it refuses the line.
  static func ledgerLine(_ member: String, _ text: String) -> LedgerRecord? {
    let line = #"{"op":"add","id":1,"date":"2024-06-10","side":"sell","amount":100,"#
      + #""currency":"USD","counterAmount":8950000,"counterCurrency":"LBP","#
      + #""recordedAt":"2024-06-10T06:13:20Z","# + "\"\(member)\":\(text)}"
    let bytes = Array(line.utf8)
    return bytes.withUnsafeBufferPointer { try? LedgerLineParser.parse($0, 0..<$0.count) }
  }

  @Test(arguments: strings)
  func bothReadersReadAnEscapeAsJSONDecoderDoes(_ text: String) {
    let expected = Self.decoded(text, as: String.self)
    let read = Self.cacheReader(text) { reader throws(JSONReader.Failure) in try reader.string() }
    #expect(read == expected)
    #expect((Self.ledgerLine("note", text) != nil) == (expected != nil), "\(text)")
  }

  @Test(arguments: numbers)
  func bothReadersTakeTheNumbersJSONDecoderTakes(_ text: String) {
    let expected = Self.decoded(text, as: Double.self)
    let read = Self.cacheReader(text) { reader throws(JSONReader.Failure) in try reader.double() }
    #expect(read == expected)
    #expect((Self.ledgerLine("rateHint", text) != nil) == (expected != nil), "\(text)")
  }
}
