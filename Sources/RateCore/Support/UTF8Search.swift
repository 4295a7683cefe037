/// Substring search on UTF-8 bytes, for the warm path: the standard library's search
/// (`contains(_:)`, `replacing(_:with:)`, `firstRange(of:)` with a string) builds a table
/// keyed by `Character`, and the first such table costs a command a run-time lookup of
/// `Character`'s `Hashable` conformance: a scan of every conformance in the binary, about
/// 200,000 instructions. These match byte sequences, not grapheme clusters (`"é"` written
/// as `e` and a combining accent contains `"e"` here), which is what keys, paths and locale
/// names need.
extension String {
  /// Whether `pattern` occurs in the text, byte for byte (an empty one always does).
  public func containsUTF8(_ pattern: String) -> Bool {
    Self.offset(of: Array(pattern.utf8), in: Array(utf8), from: 0) != nil
  }

  /// The text with every occurrence of `pattern`, left to right and not overlapping,
  /// replaced by `replacement`; unchanged for an empty pattern.
  public func replacingUTF8(_ pattern: String, with replacement: String) -> String {
    let bytes = Array(utf8)
    let target = Array(pattern.utf8)
    guard !target.isEmpty else { return self }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var start = 0
    while let found = Self.offset(of: target, in: bytes, from: start) {
      result.append(contentsOf: bytes[start..<found])
      result.append(contentsOf: replacement.utf8)
      start = found + target.count
    }
    result.append(contentsOf: bytes[start...])
    return String(decoding: result, as: UTF8.self)
  }

  /// The offset of the first `pattern` in `bytes` at or after `start`.
  static func offset(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard pattern.count <= bytes.count - start else { return nil }
    for index in start...(bytes.count - pattern.count)
    where bytes[index..<index + pattern.count].elementsEqual(pattern) {
      return index
    }
    return nil
  }
}
