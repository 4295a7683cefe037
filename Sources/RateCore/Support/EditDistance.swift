/// Levenshtein distance and "did you mean" suggestions for mistyped commands and options.
public enum EditDistance {
  /// Levenshtein distance between `a` and `b` in characters, O(n*m) time with two rows.
  ///
  /// - Parameters:
  ///   - a: One string.
  ///   - b: The other string.
  ///   - caseInsensitive: Lower-case both strings first.
  /// - Returns: The fewest insertions, deletions and substitutions from `a` to `b`.
  public static func distance(_ a: String, _ b: String, caseInsensitive: Bool = false) -> Int {
    let source = Array(caseInsensitive ? a.lowercased() : a)
    let target = Array(caseInsensitive ? b.lowercased() : b)
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

  /// The closest candidates to a mistyped name, best first, ties in candidate order.
  ///
  /// - Parameters:
  ///   - input: What the user typed.
  ///   - candidates: The valid names.
  ///   - maxDistance: The largest distance suggested; default `max(1, input.count / 3)`.
  ///   - limit: The most names returned.
  ///   - caseInsensitive: Ignore case, so `History` suggests `history` (the default).
  /// - Returns: Up to `limit` candidates within `maxDistance`.
  public static func suggestions(
    for input: String,
    in candidates: [String],
    maxDistance: Int? = nil,
    limit: Int = 3,
    caseInsensitive: Bool = true
  ) -> [String] {
    guard limit > 0 else { return [] }
    let threshold = maxDistance ?? max(1, input.count / 3)
    var scored: [(score: Int, offset: Int, name: String)] = []
    for (offset, candidate) in candidates.enumerated() {
      let score = distance(input, candidate, caseInsensitive: caseInsensitive)
      if score <= threshold { scored.append((score, offset, candidate)) }
    }
    let ranked = scored.sorted { ($0.score, $0.offset) < ($1.score, $1.offset) }
    return ranked.prefix(limit).map(\.name)
  }
}
