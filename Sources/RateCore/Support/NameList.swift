/// A list of names for one line of a message: the first few, then how many
/// more, so 300 favorites make a short line, not 3,000 characters.
public enum NameList {
  /// How many names a message spells out before "and N more".
  public static let shown = 3

  /// `BTC, ETH, SOL and 297 more`, or every name when there are at most
  /// ``shown`` + 1.
  public static func capped(_ names: [String], shown: Int = NameList.shown) -> String {
    guard names.count > shown + 1 else { return names.joined(separator: ", ") }
    return names.prefix(shown).joined(separator: ", ") + " and \(names.count - shown) more"
  }
}
