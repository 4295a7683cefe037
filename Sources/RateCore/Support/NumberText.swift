#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Numbers as text, with C's `printf` rounding (what `String(format:)` gave,
/// without Foundation's internationalization): the one home of fixed-point,
/// scientific and zero-padded formatting. Always the C locale's `.`.
public enum NumberText {
  /// `value` with exactly `places` digits after the point (`%.*f`).
  public static func fixed(_ value: Double, places: Int) -> String {
    printf("%.*f", Int32(clamping: max(0, min(places, 40))), value)
  }

  /// `value` in scientific notation with `digits` after the point (`%.3e`).
  public static func scientific(_ value: Double, digits: Int) -> String {
    printf("%.*e", Int32(clamping: max(0, min(digits, 40))), value)
  }

  /// `value` in `radix` (8 or 10), left-padded with zeros to `width` (`%04d`, `%04o`).
  public static func padded(_ value: Int, width: Int, radix: Int = 10) -> String {
    let digits = String(value.magnitude, radix: radix)
    let sign = value < 0 ? "-" : ""
    let padding = max(0, width - digits.count - sign.count)
    return sign + String(repeating: "0", count: padding) + digits
  }

  private static func printf(_ format: String, _ arguments: any CVarArg...) -> String {
    withVaList(arguments) { list in
      withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer -> String in
        guard let base = buffer.baseAddress, vsnprintf(base, 512, format, list) > 0 else {
          return ""
        }
        return String(cString: base)
      }
    }
  }
}
