/// The characters ``Swift/StringProtocol/trimming(_:)`` removes from both ends,
/// named after Foundation's character sets (which FoundationEssentials lacks)
/// and matching them scalar by scalar.
public enum TrimSet: Sendable {
  /// Spaces (Unicode category Zs) and tabs, not newlines.
  case whitespaces
  /// U+000A to U+000D, U+0085, U+2028 and U+2029.
  case newlines
  /// Both of the above.
  case whitespacesAndNewlines
  /// Exactly the scalars of the given text.
  case characters(String)

  /// Whether `scalar` is in the set.
  public func contains(_ scalar: Unicode.Scalar) -> Bool {
    switch self {
    case .whitespaces: Self.isSpace(scalar)
    case .newlines: Self.isNewline(scalar)
    case .whitespacesAndNewlines: Self.isSpace(scalar) || Self.isNewline(scalar)
    case .characters(let text): text.unicodeScalars.contains(scalar)
    }
  }

  private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
  }

  private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
    (0x0A...0x0D).contains(scalar.value) || [0x85, 0x2028, 0x2029].contains(scalar.value)
  }
}

extension StringProtocol {
  /// The text without leading and trailing scalars of `set`, as Foundation's
  /// `trimmingCharacters(in:)`; returns `self` unchanged (no copy of the
  /// scalars) when there is nothing to trim, which is nearly always.
  public func trimming(_ set: TrimSet) -> String {
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { !set.contains($0) }),
      let last = scalars.lastIndex(where: { !set.contains($0) })
    else { return "" }
    if start == scalars.startIndex, last == scalars.index(before: scalars.endIndex) {
      return String(self)
    }
    var trimmed = String.UnicodeScalarView()
    trimmed.append(contentsOf: scalars[start...last])
    return String(trimmed)
  }

  /// The text with every byte outside ASCII letters, digits and `keeping`
  /// percent-encoded as UTF-8 (`%C3%A9`), as RFC 3986 asks of a query value.
  public func percentEncoded(keeping: String = "") -> String {
    let kept = Set(keeping.utf8)
    var result = ""
    for byte in utf8 {
      let isAlphanumeric =
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      if isAlphanumeric || kept.contains(byte) {
        result.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        result += byte < 16 ? "%0" + hex : "%" + hex
      }
    }
    return result
  }
}
