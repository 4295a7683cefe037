import RateCore
extension RateFormat {
  /// Large amounts in short form for tables: `1.21T`, `397.65B`, `31.23M`,
  /// `12.50K`, and below a thousand as ``number(_:)``.
  public static func compact(_ value: Double) -> String {
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
  /// Formats an exchange rate or price so it keeps at least five significant
  /// digits: `85,999.00`, `152.31`, `15.420`, `1.2634`, and below 1 as
  /// ``number(_:)`` (`0.3912`, `0.00000107`). Currency pairs near 1 need the
  /// extra decimals that ``number(_:)``'s two would drop.
  public static func rate(_ value: Double) -> String {
    let magnitude = abs(value)
    switch magnitude {
    case 1e15...: return number(value)
    case 100...: return fixed(value, decimals: 2)
    case 10..<100: return fixed(value, decimals: 3)
    case 1..<10: return fixed(value, decimals: 4)
    default: return number(value)
    }
  }
}
