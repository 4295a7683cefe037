extension RateFormat {
  /// Large amounts in short form for tables: `1.21T`, `397.65B`, `31.23M`,
  /// `12.50K`, and below a thousand as ``number(_:)``.
  public static func compact(_ value: Double) -> String {
    let magnitude = abs(value)
    let units: [(Double, String)] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")]
    for (size, suffix) in units where magnitude >= size {
      return fixed(value / size, decimals: 2) + suffix
    }
    return number(value)
  }
}
