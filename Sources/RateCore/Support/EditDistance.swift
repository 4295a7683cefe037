/// Levenshtein distance and "did you mean" suggestions for mistyped commands and options.
public enum EditDistance {
  /// Levenshtein distance between `a` and `b` in characters, O(n*m) time with two rows.
  ///
  /// - Parameters:
  ///   - a: One string.
  ///   - b: The other string.
  /// - Returns: The fewest insertions, deletions and substitutions from `a` to `b`.
  public static func distance(_ a: String, _ b: String) -> Int {
    let source = Array(a)
    let target = Array(b)
    if source.isEmpty { return target.count }
    if target.isEmpty { return source.count }

    var previous = Array(0...target.count)
    var current = [Int](repeating: 0, count: target.count + 1)
    for (i, sourceCharacter) in source.enumerated() {
      current[0] = i + 1
      for (j, targetCharacter) in target.enumerated() {
        let substitution = previous[j] + (sourceCharacter == targetCharacter ? 0 : 1)
        current[j + 1] = min(substitution, previous[j + 1] + 1, current[j] + 1)
      }
      swap(&previous, &current)
    }
    return previous[target.count]
  }

  /// The closest candidate to a mistyped name, ignoring case (`History` suggests `history`):
  /// the first of the nearest within `max(1, input.count / 3)` edits.
  ///
  /// - Parameters:
  ///   - input: What the user typed.
  ///   - candidates: The valid names.
  /// - Returns: The candidate, or nil when none is that near.
  public static func suggestion(for input: String, in candidates: [String]) -> String? {
    let typed = input.lowercased()
    let scored = candidates.map { (score: distance(typed, $0.lowercased()), name: $0) }
    return scored.filter { $0.score <= max(1, input.count / 3) }.min { $0.score < $1.score }?.name
  }
}
