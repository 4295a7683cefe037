/// Strings, numbers, literals and the dates and days the cache writes as strings.
extension JSONReader {
  /// A string's content as it lies in the buffer (between the quotes), already checked.
  struct StringToken {
    var range: Range<Int>
    var hasEscapes: Bool
  }

  /// Reads a string.
  public mutating func string() throws(Failure) -> String {
    decoded(try stringToken())
  }

  /// Reads a number as a `Double`: the correctly rounded value of its text, finite.
  public mutating func double() throws(Failure) -> Double {
    let token = try numberToken()
    guard let value = Double(String(decoding: bytes[token.range], as: UTF8.self)),
      value.isFinite
    else { throw .shape("a number that fits in a Double") }
    return value
  }

  /// Reads a whole number written without fraction or exponent, as `Int`.
  public mutating func int() throws(Failure) -> Int {
    let token = try numberToken()
    guard token.isInteger, let value = Int(String(decoding: bytes[token.range], as: UTF8.self))
    else { throw .shape("a whole number that fits in an Int") }
    return value
  }

  /// Reads `true` or `false`.
  public mutating func bool() throws(Failure) -> Bool {
    switch try peek() {
    case UInt8(ascii: "t"):
      try literal("true")
      return true
    case UInt8(ascii: "f"):
      try literal("false")
      return false
    default: throw .shape("true or false")
    }
  }

  /// Consumes a `null` and returns true, or returns false (consuming nothing) at another value.
  public mutating func null() throws(Failure) -> Bool {
    guard try peek() == UInt8(ascii: "n") else { return false }
    try literal("null")
    return true
  }

  /// Reads a date string the way ``JSONCoders/decoder()`` does (``ISO8601/parse(_:)``).
  public mutating func date() throws(Failure) -> Date {
    guard let date = ISO8601.parse(try string()) else { throw .shape("an ISO 8601 date") }
    return date
  }

  /// Reads a `YYYY-MM-DD` day string, as ``Day``'s `Decodable` conformance does.
  public mutating func day() throws(Failure) -> Day {
    guard let day = Day(try string()) else { throw .shape("a YYYY-MM-DD day") }
    return day
  }

  // MARK: Tokens

  /// Reads a string's token, checking escapes, control characters and UTF-8.
  mutating func stringToken() throws(Failure) -> StringToken {
    guard try peek() == UInt8(ascii: "\"") else { throw .shape("a string") }
    position += 1
    let start = position
    var hasEscapes = false
    while position < end {
      switch bytes[position] {
      case UInt8(ascii: "\""):
        defer { position += 1 }
        return StringToken(range: start..<position, hasEscapes: hasEscapes)
      case UInt8(ascii: "\\"):
        hasEscapes = true
        _ = try escapedScalar()
      case ..<0x20: throw syntaxError()
      case 0x80...: try skipUTF8Scalar()
      default: position += 1
      }
    }
    throw syntaxError()
  }

  /// The text of a checked token.
  func decoded(_ token: StringToken) -> String {
    guard token.hasEscapes else { return String(decoding: bytes[token.range], as: UTF8.self) }
    var text: [UInt8] = []
    text.reserveCapacity(token.range.count)
    var reader = self
    reader.position = token.range.lowerBound
    while reader.position < token.range.upperBound {
      let byte = bytes[reader.position]
      guard byte == UInt8(ascii: "\\") else {
        text.append(byte)
        reader.position += 1
        continue
      }
      // The token was checked: a failure here cannot happen, and would show as U+FFFD.
      let scalar = (try? reader.escapedScalar()) ?? "\u{FFFD}"
      UTF8.encode(scalar) { text.append($0) }
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Reads one escape (the reader at its backslash), by ``JSONGrammar/escape(_:at:end:)``.
  mutating func escapedScalar() throws(Failure) -> Unicode.Scalar {
    var index = position
    let scalar = bytes.withUnsafeBufferPointer { buffer -> Unicode.Scalar? in
      do throws(JSONGrammar.EscapeError) {
        return try JSONGrammar.escape(buffer, at: &index, end: end)
      } catch {
        // An unknown letter is reported at its backslash, other failures where they stopped.
        if error == .letter { index = position }
        return nil
      }
    }
    position = index
    guard let scalar else { throw syntaxError() }
    return scalar
  }

  /// Skips one well-formed multi-byte UTF-8 sequence (Unicode's table 3-7: no overlong
  /// forms, no surrogates, nothing past U+10FFFF).
  private mutating func skipUTF8Scalar() throws(Failure) {
    let lead = bytes[position]
    let (count, second): (Int, ClosedRange<UInt8>)
    switch lead {
    case 0xC2...0xDF: (count, second) = (2, 0x80...0xBF)
    case 0xE0: (count, second) = (3, 0xA0...0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: (count, second) = (3, 0x80...0xBF)
    case 0xED: (count, second) = (3, 0x80...0x9F)
    case 0xF0: (count, second) = (4, 0x90...0xBF)
    case 0xF1...0xF3: (count, second) = (4, 0x80...0xBF)
    case 0xF4: (count, second) = (4, 0x80...0x8F)
    default: throw syntaxError()
    }
    guard end - position >= count, second.contains(bytes[position + 1]) else {
      throw syntaxError()
    }
    for offset in 2..<count where !(0x80...0xBF).contains(bytes[position + offset]) {
      throw syntaxError()
    }
    position += count
  }

  /// A number's text: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
  struct NumberToken {
    var range: Range<Int>
    var isInteger: Bool
  }

  /// Reads a number's token, by ``JSONGrammar/number(_:from:end:)``.
  mutating func numberToken() throws(Failure) -> NumberToken {
    skipWhitespace()
    let start = position
    let found = bytes.withUnsafeBufferPointer { JSONGrammar.number($0, from: start, end: end) }
    guard let (tokenEnd, isInteger) = found else { throw syntaxError() }
    position = tokenEnd
    return NumberToken(range: start..<tokenEnd, isInteger: isInteger)
  }
}
