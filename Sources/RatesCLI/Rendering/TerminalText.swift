import RateCore

/// Making untrusted text safe for a terminal, and measuring it in columns.
enum TerminalText {
  /// Removes escape sequences and control characters: see ``UntrustedText/sanitize(_:)``.
  static func sanitize(_ text: String) -> String { UntrustedText.sanitize(text) }

  /// A code as shown: sanitized, as it may be a provider's symbol.
  static func sanitize(_ code: CurrencyCode) -> String { UntrustedText.sanitize(code.text) }

  /// A coin's name as shown, sanitized: never blank, its symbol when the name is empty or
  /// only spaces (or escapes) once sanitized.
  static func name(_ name: String, symbol: String) -> String {
    let shown = sanitize(name)
    return shown.allSatisfy(\.isWhitespace) ? sanitize(symbol) : shown
  }

  /// The number of terminal columns `text` occupies.
  ///
  /// Escape sequences, control characters and combining marks count 0;
  /// East Asian wide and fullwidth characters and emoji count 2; everything
  /// else counts 1. Widths are measured per grapheme cluster, so `e` plus a
  /// combining accent is 1 and a flag or a ZWJ emoji sequence is 2. The
  /// tables are a compact approximation of `wcwidth`, not a full copy.
  static func displayWidth(_ text: String) -> Int {
    // Printable ASCII, nearly every cell of a table, is one column a byte.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    // So is every scalar of printable Latin-1 (but the soft hyphen), of U+2010–U+2027
    // (dashes, quotes, bullets, `…`), of the arrows U+2190–U+21FF and of the box, block
    // and shape characters U+2500–U+25FC (sparklines, `▲`): none combines, joins or is
    // wide. An SGR sequence (`ESC [ 1 ; 32 m`, what ``Style`` writes) counts 0.
    var count = 0
    var inSGR = false
    var afterEscape = false
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if afterEscape {
        guard value == 0x5B else { return measuredWidth(text) }
        afterEscape = false
        inSGR = true
        continue
      }
      if inSGR {
        switch value {
        case 0x30...0x39, 0x3B: continue
        case 0x6D: inSGR = false
        default: return measuredWidth(text)
        }
        continue
      }
      switch value {
      case 0x1B: afterEscape = true
      case 0x20...0x7E, 0xA0...0xAC, 0xAE...0xFF, 0x2010...0x2027: count += 1
      case 0x2190...0x21FF, 0x2500...0x25FC: count += 1
      default: return measuredWidth(text)
      }
    }
    return afterEscape || inSGR ? measuredWidth(text) : count
  }

  /// The width measured per grapheme cluster, every escape sequence skipped.
  static func measuredWidth(_ text: String) -> Int {
    UntrustedText.visibleScalars(of: text).reduce(0) { $0 + width(of: $1) }
  }

  /// Cuts `text` to at most `width` columns, ending with `…` (or `...` when
  /// `ascii`) if anything was cut.
  ///
  /// Escape sequences before the cut are kept; if any were present and text
  /// was cut, an SGR reset (`ESC [0m`) follows the ellipsis.
  static func truncate(_ text: String, toWidth width: Int, ascii: Bool) -> String {
    guard width > 0 else { return "" }
    guard displayWidth(text) > width else { return text }
    let ellipsis = ascii ? "..." : "…"
    let ellipsisWidth = ascii ? 3 : 1
    guard width > ellipsisWidth else { return String(ellipsis.prefix(width)) }
    let budget = width - ellipsisWidth
    var result = ""
    var used = 0
    var sawEscape = false
    for segment in UntrustedText.segments(of: text) {
      switch segment {
      case .escape(let sequence):
        sawEscape = true
        result += sequence
      case .text(let character):
        let columns = self.width(of: character)
        if used + columns > budget { return finish(result, ellipsis, sawEscape) }
        used += columns
        result.append(character)
      }
    }
    return finish(result, ellipsis, sawEscape)
  }

  /// `parts` in order on as few lines as fit `width` columns, `separator` between two on a
  /// line; a part is never cut (one wider than `width` stands on a line of its own).
  static func packed(_ parts: [String], separator: String, width: Int) -> [String] {
    var lines: [String] = []
    for part in parts {
      if let last = lines.last, displayWidth(last + separator + part) <= width {
        lines[lines.count - 1] = last + separator + part
      } else {
        lines.append(part)
      }
    }
    return lines
  }

  /// Pads `text` with spaces to `width` columns, on the right (`leading: false`) or left.
  static func pad(_ text: String, toWidth width: Int, leading: Bool = false) -> String {
    let missing = Swift.max(width - displayWidth(text), 0)
    let spaces = String(repeating: " ", count: missing)
    return leading ? spaces + text : text + spaces
  }

  private static func finish(_ text: String, _ ellipsis: String, _ sawEscape: Bool) -> String {
    text + ellipsis + (sawEscape ? "\u{1B}[0m" : "")
  }

  // MARK: - Widths

  /// The columns one grapheme cluster occupies: 0, 1 or 2.
  static func width(of character: Character) -> Int {
    var visible = false
    for scalar in character.unicodeScalars {
      if isZeroWidth(scalar) { continue }
      visible = true
      if isWide(scalar) { return 2 }
    }
    guard visible else { return 0 }
    // An emoji presentation selector turns a text symbol (❤) into a wide emoji.
    if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    return 1
  }

  private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: return true
    case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF: return true
    case 0xFE00...0xFE0F, 0xE0100...0xE01EF: return true  // variation selectors
    case 0x1160...0x11FF: return true  // Hangul medial vowels and final consonants
    default: break
    }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return true
    default: return false
    }
  }

  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
    0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
    0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
    0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
    0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
    0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
    0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
    0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18CFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004,
    0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F1E6...0x1F1FF,
    0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
    0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]

  private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    guard value >= 0x1100 else { return false }
    return wideRanges.contains { $0.contains(value) }
  }
}
