import RateCore

/// Locale-independent number formatting for people: the same text on every machine.
///
/// `Locale.current` is unreliable on Linux, so nothing here uses
/// `NumberFormatter` or format styles. Digits come from ``NumberText`` (C's printf)
/// without a locale, which always uses the POSIX `.` decimal point; the `,`
/// thousands separators are inserted by hand.
///
/// The rule of ``number(_:)``:
/// - `|v| >= 1`: two decimals, `85,999.00`, `1.23`.
/// - `0 < |v| < 1`: four significant digits, trailing zeros trimmed but never
///   fewer than two decimals: `0.3912`, `0.50`, `0.10`, `0.00000107`,
///   `0.0001235`. At most ``maximumDecimals`` decimals, so a value below
///   about 5e-16 shows as `0.00`. A value that rounds up to 1 shows as `1.00`.
/// - zero (and negative zero) is `0.00`; negative values keep a leading `-`.
/// - `NaN` is `nan`, infinities are `inf` and `-inf`.
enum RateFormat {
  /// The most decimals ``number(_:)`` writes for a small value.
  static let maximumDecimals = Figure.maximumDecimals

  /// Formats a rate or amount by magnitude, with `,` thousands separators.
  static func number(_ value: Double) -> String {
    if let special = nonFinite(value) { return special }
    let magnitude = abs(value)
    // Beyond 10^15 digits mean nothing and would swamp a table.
    guard magnitude < 1e15 else { return NumberText.scientific(value, digits: 3) }
    guard magnitude < 1 else { return fixed(value, decimals: 2) }
    guard magnitude > 0 else { return "0.00" }
    // The exponent of the value rounded to 4 significant digits, read from
    // `%e` so that 0.99996 counts as 1.000e+00 (log10 would misjudge it).
    let scientific = NumberText.scientific(magnitude, digits: 3)
    let exponent = scientific.split(separator: "e").last.flatMap { Int($0) } ?? 0
    let decimals = Swift.min(Swift.max(3 - exponent, 2), maximumDecimals)
    var text = fixed(value, decimals: decimals)
    while text.hasSuffix("0"), let dot = text.firstIndex(of: "."),
      text.distance(from: dot, to: text.endIndex) > 3
    {
      text.removeLast()
    }
    return text
  }

  /// Formats `value` with exactly `decimals` decimals (0...20) and `,` thousands separators.
  ///
  /// A value that rounds to zero never shows a minus sign: `-0.001` is `0.00`.
  static func fixed(_ value: Double, decimals: Int) -> String {
    if let special = nonFinite(value) { return special }
    let places = Swift.min(Swift.max(decimals, 0), 20)
    var digits = printf(abs(value), places: places)
    var fraction = ""
    if let dot = digits.firstIndex(of: ".") {
      fraction = String(digits[dot...])
      digits = String(digits[..<dot])
    }
    let isZero = (digits + fraction).allSatisfy { $0 == "0" || $0 == "." }
    let sign = value < 0 && !isZero ? "-" : ""
    return sign + grouped(digits) + fraction
  }

  /// Formats a change with an explicit sign: `+1,234.50`, `-3.00`, `+0.00`.
  ///
  /// Uses the ``number(_:)`` rule; zero and values that display as zero get `+`.
  static func signed(_ value: Double) -> String {
    let text = number(value)
    if value.isNaN || text.hasPrefix("-") { return text }
    return "+" + text
  }

  /// Formats a percentage given in percent units (`1.234` is `+1.23%`), always two decimals.
  static func percent(_ value: Double) -> String {
    let text = fixed(value, decimals: 2)
    if value.isNaN { return text + "%" }
    return (text.hasPrefix("-") ? "" : "+") + text + "%"
  }

  /// Formats an amount or rate followed by its currency code, with ``rate(_:)``'s
  /// precision: `85,999.00 EUR`, `1.2634 USD`.
  static func amount(_ value: Double, code: String) -> String {
    rate(value) + " " + code
  }

  /// C's `%.<places>f` of a finite value: integers where they are exact (a table of a
  /// hundred thousand rows), else ``NumberText/fixed(_:places:)``.
  private static func printf(_ value: Double, places: Int) -> String {
    exactFixed(value, places: places) ?? NumberText.fixed(value, places: places)
  }

  /// `%.<places>f` of a value from 0 to 10^15 with at most 4 places, computed with integers:
  /// the exact binary value times 10^places, rounded half to even, as glibc's printf rounds.
  /// Nil outside that range (printf writes it then).
  static func exactFixed(_ value: Double, places: Int) -> String? {
    guard value >= 0, value < 1e15, (0...4).contains(places) else { return nil }
    var significand = value.significandBitPattern
    var exponent = Int(value.exponentBitPattern)
    if exponent == 0 { exponent = 1 } else { significand |= 1 << 52 }
    exponent -= 1075  // value == significand × 2^exponent
    var power: UInt64 = 1
    for _ in 0..<places { power *= 5 }
    let scaled = significand * power  // < 2^53 × 5^4 < 2^63
    // value × 10^places == scaled × 2^(exponent + places), below 10^19 < 2^64.
    let shift = -(exponent + places)
    var whole: UInt64
    if shift <= 0 {
      whole = scaled << UInt64(-shift)
    } else if shift >= 64 {
      whole = 0  // scaled < 2^63 is below half of 2^shift
    } else {
      whole = scaled >> UInt64(shift)
      let rest = scaled & ((1 << UInt64(shift)) - 1)
      let half: UInt64 = 1 << UInt64(shift - 1)
      if rest > half || (rest == half && whole & 1 == 1) { whole += 1 }
    }
    var text = String(whole)
    guard places > 0 else { return text }
    if text.count <= places { text = String(repeating: "0", count: places - text.count + 1) + text }
    text.insert(".", at: text.index(text.endIndex, offsetBy: -places))
    return text
  }

  private static func nonFinite(_ value: Double) -> String? {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-inf" : "inf" }
    return nil
  }

  /// Inserts `,` every three digits from the right of a string of ASCII digits.
  private static func grouped(_ digits: String) -> String {
    var result = ""
    let count = digits.count
    for (index, digit) in digits.enumerated() {
      if index > 0, (count - index).isMultiple(of: 3) { result.append(",") }
      result.append(digit)
    }
    return result
  }
}
