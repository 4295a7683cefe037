extension Array where Element == String {
  /// The strings with `separator` between each two, as `joined(separator:)` gives them,
  /// concatenated here for the warm path: the standard library's `joined` runs unspecialized,
  /// and its first call costs a command a run-time lookup of `[String]: Collection` (a scan
  /// of every conformance in the binary, about 200,000 instructions).
  public func joinedText(separator: String = "") -> String {
    var capacity = separator.utf8.count * Swift.max(count - 1, 0)
    for element in self { capacity += element.utf8.count }
    var text = ""
    text.reserveCapacity(capacity)
    for index in indices {
      if index > 0 { text += separator }
      text += self[index]
    }
    return text
  }
}
