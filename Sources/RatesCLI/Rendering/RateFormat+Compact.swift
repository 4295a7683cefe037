import RateCore

extension RateFormat {
  /// Large amounts in short form for tables: `1.21T`, `397.65B`, `31.23M`,
  /// `12.50K`, and below a thousand as ``number(_:)``.
  static func compact(_ value: Double) -> String {
    let magnitude = abs(value)
    let units: [(Double, String)] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")]
    guard magnitude < 1e15 else { return number(value) }
    for (size, suffix) in units where magnitude >= size {
      return fixed(value / size, decimals: 2) + suffix
    }
    return number(value)
  }
}

extension RateFormat {
  /// Formats an exchange rate or price with five significant digits, never fewer than
  /// two decimals (a whole part is never rounded): `85,999.00`, `152.31`, `15.420`,
  /// `1.2634`, `0.39120`, `0.0000010700`. At most ``maximumDecimals`` decimals; zero is
  /// `0.00`. Currency pairs near 1 need the decimals that ``number(_:)``'s two would drop.
  static func rate(_ value: Double) -> String {
    let magnitude = abs(value)
    switch magnitude {
    case 1e15...: return number(value)
    case 100...: return fixed(value, decimals: 2)
    case 10..<100: return fixed(value, decimals: 3)
    case 1..<10: return fixed(value, decimals: 4)
    case 0: return fixed(value, decimals: 2)
    default:
      guard value.isFinite else { return number(value) }
      // The exponent of the value rounded to 5 significant digits, read from `%e` so
      // that 0.999996 counts as 1.0000e+00.
      let scientific = NumberText.scientific(magnitude, digits: 4)
      let exponent = scientific.split(separator: "e").last.flatMap { Int($0) } ?? 0
      return fixed(value, decimals: Swift.min(Swift.max(4 - exponent, 2), maximumDecimals))
    }
  }
}

extension RateFormat {
  /// `values` as labels that tell different values apart: each as `format`
  /// writes it when that already keeps them distinct, otherwise all with the
  /// fewest common decimals that do (`1.0603`, `1.0617`, `1.0631` rather than
  /// `1.06` three times), at most ``maximumDecimals``.
  static func distinct(
    _ values: [Double], format: (Double) -> String = number
  ) -> [String] {
    let texts = values.map(format)
    let wanted = Set(values.filter(\.isFinite)).count
    guard Set(texts).count < wanted, wanted > 1 else { return texts }
    let shown = texts.map { text in text.split(separator: ".").dropFirst().first?.count ?? 0 }
    let start = (shown.max() ?? 0) + 1
    guard start <= maximumDecimals else { return texts }
    for decimals in start...maximumDecimals {
      let candidate = values.map { fixed($0, decimals: decimals) }
      if Set(candidate).count >= wanted { return candidate }
    }
    return texts
  }
}
