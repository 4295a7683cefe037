extension String {
  /// The text cut or right-padded with spaces to `length` characters, as
  /// Foundation's `padding(toLength:withPad:startingAt:)` with a space (which
  /// FoundationEssentials lacks): for aligning help and doctor columns.
  func padded(toLength length: Int) -> String {
    let count = self.count
    if count >= length { return String(prefix(length)) }
    return self + String(repeating: " ", count: length - count)
  }

  /// The text without its trailing spaces, for lines drawn wider than their content.
  var withoutTrailingSpaces: String {
    String(self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)])
  }
}
