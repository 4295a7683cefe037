/// Reading JSON values.
extension LedgerLineParser {
  // MARK: - Values

  func peek() -> UInt8? { index < end ? bytes[index] : nil }

  mutating func skipSpace() {
    while index < end {
      let byte = bytes[index]
      guard byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A else { return }
      index += 1
    }
  }

  mutating func expect(_ byte: UInt8) throws(LedgerLineError) {
    guard peek() == byte else {
      if index >= end { throw LedgerLineError(detail: "the record ends too early (truncated?)") }
      throw LedgerLineError(
        detail: "expected '\(Character(Unicode.Scalar(byte)))' at column \(column(index))")
    }
    index += 1
  }

  mutating func optionalString() throws(LedgerLineError) -> String? {
    if literal("null") { return nil }
    return try string()
  }

  mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard end - index >= count else { return false }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
    index += count
    return true
  }

  mutating func string() throws(LedgerLineError) -> String {
    let start = index + 1
    if let range = try plainString() { return try utf8(range) }
    return try escapedString(from: start)
  }

  /// The bytes of a string without escapes (the parser then stands after it); nil, with the
  /// parser at the first escape, for one with escapes.
  mutating func plainString() throws(LedgerLineError) -> Range<Int>? {
    try expect(UInt8(ascii: "\""))
    let start = index
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return start..<(index - 1)
      }
      if byte == UInt8(ascii: "\\") { return nil }
      guard byte >= 0x20 else { throw LedgerLineError(detail: "a control character in a string") }
      index += 1
    }
    throw LedgerLineError(detail: "a string is not closed (truncated?)")
  }

  /// A `recordedAt` instant: `YYYY-MM-DDTHH:MM:SSZ` read from the bytes, any other ISO 8601
  /// form through ``ISO8601/parse(_:)``.
  mutating func instant() throws(LedgerLineError) -> Date {
    let start = index
    if let range = try plainString(), let date = ISO8601.parseWritten(utf8: bytes[range]) { return date }
    index = start
    let text = try string()
    guard let date = ISO8601.parse(text) else {
      throw LedgerLineError(detail: "recordedAt '\(text)' is not an ISO 8601 date-time")
    }
    return date
  }

  func utf8(_ range: Range<Int>) throws(LedgerLineError) -> String {
    if bytes[range].allSatisfy({ $0 < 0x80 }) {
      return String(decoding: bytes[range], as: UTF8.self)
    }
    guard let text = String(validating: bytes[range], as: UTF8.self) else {
      throw LedgerLineError(detail: "a string is not valid UTF-8")
    }
    return text
  }

  mutating func escapedString(from start: Int) throws(LedgerLineError) -> String {
    var text = try utf8(start..<index)
    while index < end {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return text
      case UInt8(ascii: "\\"):
        text.unicodeScalars.append(try escape())
      default:
        guard byte >= 0x20 else {
          throw LedgerLineError(detail: "a control character in a string")
        }
        let run = index
        while index < end, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
          bytes[index] >= 0x20
        {
          index += 1
        }
        text += try utf8(run..<index)
      }
    }
    throw LedgerLineError(detail: "a string is not closed (truncated?)")
  }

  /// Reads the escape whose backslash is at `index`, by ``Grammar/escape(_:at:end:)``.
  mutating func escape() throws(LedgerLineError) -> Unicode.Scalar {
    do throws(Grammar.EscapeError) {
      return try Grammar.escape(bytes, at: &index, end: end)
    } catch {
      switch error {
      case .truncated: throw LedgerLineError(detail: "a string is not closed")
      case .letter: throw LedgerLineError(detail: "an invalid escape in a string")
      case .unicode: throw LedgerLineError(detail: "an invalid \\u escape")
      }
    }
  }

  /// The extent of a JSON number at `index`, by ``Grammar/number(_:from:end:)``.
  mutating func numberRange() throws(LedgerLineError) -> (Range<Int>, isInteger: Bool) {
    let start = index
    guard let (numberEnd, isInteger) = Grammar.number(bytes, from: start, end: end) else {
      throw LedgerLineError(detail: "a malformed number at column \(column(start))")
    }
    index = numberEnd
    return (start..<numberEnd, isInteger)
  }

  mutating func number(_ key: String) throws(LedgerLineError) -> Double {
    guard peek() != UInt8(ascii: "\"") else {
      throw LedgerLineError(detail: "'\(key)' is a string, not a number")
    }
    let (range, isInteger) = try numberRange()
    if isInteger, range.count <= 15 {
      var value = 0
      var negative = false
      for byte in bytes[range] {
        if byte == UInt8(ascii: "-") {
          negative = true
        } else {
          value = value * 10 + Int(byte - 0x30)
        }
      }
      return Double(negative ? -value : value)
    }
    guard let value = Double(String(decoding: bytes[range], as: UTF8.self)), value.isFinite else {
      throw LedgerLineError(detail: "'\(key)' is not a finite number")
    }
    return value
  }

  mutating func integer(_ key: String) throws(LedgerLineError) -> Int {
    guard peek() != UInt8(ascii: "\"") else {
      throw LedgerLineError(detail: "'\(key)' is a string, not a number")
    }
    let (range, isInteger) = try numberRange()
    guard isInteger, range.count <= 18,
      let value = Int(String(decoding: bytes[range], as: UTF8.self))
    else { throw LedgerLineError(detail: "'\(key)' is not a whole number") }
    return value
  }

  mutating func integers(_ key: String) throws(LedgerLineError) -> [Int] {
    try expect(UInt8(ascii: "["))
    var values: [Int] = []
    skipSpace()
    if peek() == UInt8(ascii: "]") {
      index += 1
      return values
    }
    while true {
      skipSpace()
      values.append(try integer(key))
      skipSpace()
      if peek() == UInt8(ascii: ",") {
        index += 1
        continue
      }
      try expect(UInt8(ascii: "]"))
      return values
    }
  }

  mutating func day(_ key: String) throws(LedgerLineError) -> Day {
    let start = index
    if let range = try plainString(), let day = Day(utf8: bytes[range]) { return day }
    index = start
    let text = try string()
    guard let day = Day(text) else {
      throw LedgerLineError(detail: "'\(key)' '\(text)' is not a date (YYYY-MM-DD)")
    }
    return day
  }

  /// Checks and skips any JSON value (a member this version does not know).
  mutating func skipValue(depth: Int) throws(LedgerLineError) {
    guard depth < 64 else { throw LedgerLineError(detail: "values nested too deeply") }
    switch peek() {
    case UInt8(ascii: "\"")?: _ = try string()
    case UInt8(ascii: "{")?, UInt8(ascii: "[")?:
      let isObject = peek() == UInt8(ascii: "{")
      let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
      index += 1
      skipSpace()
      if peek() == close {
        index += 1
        return
      }
      while true {
        skipSpace()
        if isObject {
          _ = try string()
          skipSpace()
          try expect(UInt8(ascii: ":"))
          skipSpace()
        }
        try skipValue(depth: depth + 1)
        skipSpace()
        if peek() == UInt8(ascii: ",") {
          index += 1
          continue
        }
        try expect(close)
        return
      }
    default:
      if literal("true") || literal("false") || literal("null") { return }
      _ = try numberRange()
    }
  }
}
