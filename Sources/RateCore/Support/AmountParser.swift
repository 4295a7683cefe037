/// Reads amounts the way people type them: `1500`, `1,500.25`, `1e3`.
///
/// `,` is accepted only as a thousands separator in groups of three after a
/// first group that does not start with `0`, so the European `1,5` and `0,500`
/// are refused rather than read as fifteen and five hundred. Amounts must be
/// positive, finite and at most 10^15.
public enum AmountParser {
  /// The largest amount accepted.
  public static let maximum = 1e15

  /// Why an amount was refused.
  public enum Problem: Error, Equatable, Sendable {
    case notANumber
    case ambiguousComma
    /// A comma after a whole part of zero, `0,500`: surely a decimal comma; `suggestion` is
    /// the amount written with a point (`0.500`).
    case decimalComma(suggestion: String)
    case notFinite
    case notPositive
    case tooLarge

    /// What is wrong, as the end of a sentence about the amount.
    public var message: String {
      switch self {
      case .notANumber: return "is not a number: write it like 1500, 1,500.25 or 1e3"
      case .ambiguousComma:
        return "has misplaced commas: use '.' for decimals and ',' only between groups of"
          + " three digits (1,500.25)"
      case .decimalComma(let suggestion):
        return "uses ',' as a decimal point: write \(suggestion) ('.' for decimals, ',' only"
          + " between groups of three digits, as in 1,500.25)"
      case .notFinite: return "is not a finite number"
      case .notPositive: return "must be more than zero"
      case .tooLarge: return "is too large (at most 1e15)"
      }
    }

    /// The whole sentence: `the amount '1,5' has misplaced commas: …`.
    public func sentence(about text: String, what: String = "amount") -> String {
      let shown = UntrustedText.sanitize(
        String(text.trimming(.whitespaces).prefix(40)))
      return "the \(what) '\(shown)' \(message)"
    }
  }

  /// The amount `text` stands for. Only digits, `.`, `,`, `e`, `E`, `+` and
  /// `-` are accepted: no `inf`, `nan` or hexadecimal floats.
  public static func parse(_ text: String) -> Result<Double, Problem> {
    let trimmed = text.trimming(.whitespaces)
    guard !trimmed.isEmpty, trimmed.utf8.allSatisfy(isAllowed) else {
      return .failure(.notANumber)
    }
    if trimmed.contains(",") && !hasWellPlacedCommas(trimmed) {
      return .failure(decimalCommaSuggestion(trimmed).map(Problem.decimalComma) ?? .ambiguousComma)
    }
    guard let value = Double(trimmed.contains(",") ? trimmed.filter { $0 != "," } : trimmed) else {
      return .failure(.notANumber)
    }
    guard value.isFinite else { return .failure(.notFinite) }
    guard value > 0 else { return .failure(.notPositive) }
    guard value <= maximum else { return .failure(.tooLarge) }
    return .success(value)
  }

  /// Whether every comma of `text` sits between groups of three digits before any `.` or
  /// exponent, after a first group without a leading zero: `1,500`, `-12,345,678.5`, but not
  /// `1,5`, `15,00`, `1.5,0`, `,100`, `0,500` or `01,500`.
  static func hasWellPlacedCommas(_ text: String) -> Bool {
    var whole = Substring(text)
    if let sign = whole.first, sign == "+" || sign == "-" { whole = whole.dropFirst() }
    if let end = whole.firstIndex(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
      guard !whole[end...].contains(",") else { return false }
      whole = whole[..<end]
    }
    let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
    guard let first = groups.first, (1...3).contains(first.count), first.first != "0" else {
      return false
    }
    return groups.dropFirst().allSatisfy { $0.count == 3 && $0.allSatisfy(\.isNumber) }
      && first.allSatisfy(\.isNumber)
  }

  /// `0.500` for `0,500` (or `-0,5`, `+0,25`): one comma right after a whole part of zero, with
  /// nothing but digits after it; nil for anything else.
  static func decimalCommaSuggestion(_ text: String) -> String? {
    var body = Substring(text)
    var sign = ""
    if let first = body.first, first == "+" || first == "-" {
      sign = String(first)
      body = body.dropFirst()
    }
    let parts = body.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0] == "0", !parts[1].isEmpty,
      parts[1].allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    return "\(sign)0.\(parts[1])"
  }

  /// Whether `byte` is one of `0123456789.,eE+-`.
  static func isAllowed(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || byte == 0x2E || byte == 0x2C || byte == 0x65 || byte == 0x45
      || byte == 0x2B || byte == 0x2D
  }
}
