import RatesExpectations
import Testing

@testable import RateCore

/// The ledger's line parser reads JSON's escapes and numbers as JSONDecoder does.
@Suite struct LedgerLineGrammarTests {
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

  /// The record the ledger's parser reads from an add line with a member it does not know
  /// (which it checks and skips), `member` set to `text`; nil when it refuses the line.
  static func ledgerLine(_ member: String, _ text: String) -> LedgerRecord? {
    let line =
      #"{"op":"add","id":1,"date":"2024-06-10","side":"sell","amount":100,"#
      + #""currency":"USD","counterAmount":8950000,"counterCurrency":"LBP","#
      + #""recordedAt":"2024-06-10T06:13:20Z","# + "\"\(member)\":\(text)}"
    let bytes = Array(line.utf8)
    return bytes.withUnsafeBufferPointer { try? LedgerLineParser.parse($0, 0..<$0.count) }
  }

  @Test(arguments: strings)
  func anEscapeIsReadAsJSONDecoderReadsIt(_ text: String) {
    let expected = Self.decoded(text, as: String.self)
    expectEqual((Self.ledgerLine("note", text) != nil), (expected != nil), "\(text)")
  }

  @Test(arguments: numbers)
  func theNumbersJSONDecoderTakesAreTaken(_ text: String) {
    let expected = Self.decoded(text, as: Double.self)
    expectEqual((Self.ledgerLine("rateHint", text) != nil), (expected != nil), "\(text)")
  }
}
