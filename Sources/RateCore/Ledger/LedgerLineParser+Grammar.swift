extension LedgerLineParser {
  /// The lexical rules of JSON (RFC 8259) as the ledger's lines are read: what an escape
  /// means and what a number looks like (as JSONDecoder reads them).
  enum Grammar {
    /// Why an escape was refused.
    enum EscapeError: Error {
      /// The text ends inside the escape.
      case truncated
      /// A letter that is not one of JSON's escapes (`\x`).
      case letter
      /// A `\u` escape without four hex digits, or a surrogate without its other half.
      case unicode
    }

    /// Reads the escape whose backslash is at `index` (`\n`, `\u00e9`, a `\uD83D\uDE00`
    /// surrogate pair), leaving `index` after it; a lone surrogate is refused.
    static func escape(
      _ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, end: Int
    ) throws(EscapeError) -> Unicode.Scalar {
      guard end - index >= 2 else { throw .truncated }
      let letter = bytes[index + 1]
      index += 2
      switch letter {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(letter)
      case UInt8(ascii: "b"): return "\u{08}"
      case UInt8(ascii: "f"): return "\u{0C}"
      case UInt8(ascii: "n"): return "\n"
      case UInt8(ascii: "r"): return "\r"
      case UInt8(ascii: "t"): return "\t"
      case UInt8(ascii: "u"): break
      default: throw .letter
      }
      let unit = try hexUnit(bytes, at: &index, end: end)
      if let scalar = Unicode.Scalar(unit) { return scalar }
      // A surrogate: only a high one followed by an escaped low one makes a scalar.
      guard unit < 0xDC00, end - index >= 2, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else { throw .unicode }
      index += 2
      let low = try hexUnit(bytes, at: &index, end: end)
      guard (0xDC00...0xDFFF).contains(low),
        let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
      else { throw .unicode }
      return scalar
    }

    /// Four hex digits at `index`.
    private static func hexUnit(
      _ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, end: Int
    ) throws(EscapeError) -> UInt32 {
      guard end - index >= 4 else { throw .unicode }
      var unit: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: throw .unicode
        }
        unit = unit << 4 | UInt32(digit)
        index += 1
      }
      return unit
    }

    /// The end of the number starting at `start`, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`,
    /// and whether it has neither fraction nor exponent; nil when the text there is not one
    /// (a leading zero followed by a digit included).
    static func number(
      _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int
    ) -> (end: Int, isInteger: Bool)? {
      var index = start
      func consume(_ byte: UInt8) -> Bool {
        guard index < end, bytes[index] == byte else { return false }
        index += 1
        return true
      }
      func digits() -> Int {
        let first = index
        while index < end, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
          index += 1
        }
        return index - first
      }
      _ = consume(UInt8(ascii: "-"))
      let whole = index
      guard digits() > 0, bytes[whole] != UInt8(ascii: "0") || index - whole == 1 else { return nil }
      var isInteger = true
      if consume(UInt8(ascii: ".")) {
        guard digits() > 0 else { return nil }
        isInteger = false
      }
      if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
        if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
        guard digits() > 0 else { return nil }
        isInteger = false
      }
      return (index, isInteger)
    }
  }
}
