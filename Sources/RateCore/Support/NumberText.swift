import CNumberFormat

/// Numbers as text, with C's `printf` rounding (what `String(format:)` gave,
/// without Foundation's internationalization): the one home of fixed-point,
/// scientific and zero-padded formatting. Always the C locale's `.`.
public enum NumberText {
  /// `value` with exactly `places` digits after the point (`%.*f`).
  public static func fixed(_ value: Double, places: Int) -> String {
    printf("f", places: places, value)
  }

  /// `value` in scientific notation with `digits` after the point (`%.3e`).
  public static func scientific(_ value: Double, digits: Int) -> String {
    printf("e", places: digits, value)
  }

  /// `value` in `radix` (8 or 10), left-padded with zeros to `width` (`%04d`, `%04o`).
  public static func padded(_ value: Int, width: Int, radix: Int = 10) -> String {
    let digits = String(value.magnitude, radix: radix)
    let sign = value < 0 ? "-" : ""
    let padding = max(0, width - digits.count - sign.count)
    return sign + String(repeating: "0", count: padding) + digits
  }

  /// `%.*f` or `%.*e` (`conversion`) of `value` with `places` (0 to 40) digits after the point,
  /// through C (`rates_format_double`): `withVaList` would cast each argument to a protocol at
  /// run time, and the first casts of `Int32` and `Double` cost a conformance scan each.
  private static func printf(_ conversion: Unicode.Scalar, places: Int, _ value: Double) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer -> String in
      guard let base = buffer.baseAddress,
        rates_format_double(
          base, 512, CChar(UInt8(ascii: conversion)), Int32(clamping: max(0, min(places, 40))), value)
          > 0
      else { return "" }
      return String(cString: base)
    }
  }
}
