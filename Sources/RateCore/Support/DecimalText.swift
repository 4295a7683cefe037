/// Numbers as plain decimal text for files other programs read back: the
/// shortest digits that parse to the very same `Double`, without exponent,
/// grouping or padding (`3.3e-15` → `0.0000000000000033`, `1e21` →
/// `1000000000000000000000`, `85999.0` → `85999`).
///
/// Every export (CSV, ledger, beancount) writes numbers through here, so what
/// a journal holds is exactly what `--json` holds.
public enum DecimalText {
  /// `value` as the shortest plain decimal that round-trips, or `nil` when
  /// it is not finite (no file format here has a spelling for it).
  public static func shortest(_ value: Double) -> String? {
    guard value.isFinite else { return nil }
    if value == 0 { return "0" }
    // Swift's description is the shortest round-tripping form, sometimes in
    // exponent notation (`3.3e-15`, `1e+21`); move its point instead.
    let (digits, pointAfter) = parts(value.magnitude.description)
    let text = place(digits: digits, pointAfter: pointAfter)
    return value < 0 ? "-" + text : text
  }

  /// The significant digits of a positive `Double`'s description (no leading or
  /// trailing zeros) and how many of them stand before the decimal point
  /// (negative or beyond their count when zeros must be added).
  static func parts(_ description: String) -> (digits: [Character], pointAfter: Int) {
    var text = Substring(description)
    var power = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      power = Int(text[text.index(after: e)...]) ?? 0
      text = text[..<e]
    }
    let point = text.firstIndex(of: ".")
    let whole = point.map { text[..<$0] } ?? text
    let fraction = point.map { text[text.index(after: $0)...] } ?? ""
    var digits = Array(whole) + Array(fraction)
    var pointAfter = whole.count + power
    while digits.first == "0" {
      digits.removeFirst()
      pointAfter -= 1
    }
    while digits.last == "0" { digits.removeLast() }
    return (digits, pointAfter)
  }

  /// `digits` with a decimal point after `pointAfter` of them, padding with
  /// zeros on either side as needed.
  static func place(digits: [Character], pointAfter: Int) -> String {
    guard !digits.isEmpty else { return "0" }
    if pointAfter <= 0 {
      return "0." + String(repeating: "0", count: -pointAfter) + String(digits)
    }
    if pointAfter >= digits.count {
      return String(digits) + String(repeating: "0", count: pointAfter - digits.count)
    }
    return String(digits[..<pointAfter]) + "." + String(digits[pointAfter...])
  }
}
