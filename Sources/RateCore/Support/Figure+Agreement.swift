#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Figure {
  /// Whether two figures for the same thing agree to the precision of the less precise one
  /// (its decimal places, as written by ``DecimalText/shortest(_:)``): `1.0883` and
  /// `1.08830000001` agree, `1.0883` and `1.0884` do not. The one rule for "the same
  /// figure, written to another precision" (`cache verify` against a fallback that rounds).
  public static func agree(_ one: Double, _ other: Double) -> Bool {
    if one == other { return true }
    guard one.isFinite, other.isFinite else { return false }
    let places = min(decimalPlaces(one), decimalPlaces(other))
    let half = 0.5 * pow(10.0, -Double(places))
    return (one - other).magnitude <= half * (1 + 1e-9)
  }

  /// The decimal places of `value` as written in its shortest form (`110419.02` → 2).
  static func decimalPlaces(_ value: Double) -> Int {
    guard let text = DecimalText.shortest(value), let point = text.firstIndex(of: ".") else {
      return 0
    }
    return text.distance(from: point, to: text.endIndex) - 1
  }
}
