/// The one reading of a pair written as one word: `BASE-QUOTE` or `BASE/QUOTE`.
///
/// Commands, the ledger, the stored pair lists and the home screen all split a pair's name
/// here; what each then accepts as a side (any code, a known code, a coin id) is theirs.
public struct PairName: Equatable, Sendable {
  /// The side before the separator, as written.
  public let base: String
  /// The side after the separator, as written.
  public let quote: String
  /// Whether a slash joined the sides (a dash otherwise): a dash also appears inside coin
  /// ids such as `usd-coin`, a slash never does.
  public let slashed: Bool

  /// The two sides of `text`, split at its one `/` or, failing that, its one `-`; `nil`
  /// unless that gives exactly two non-empty sides (`GBP-`, `-USD` and `A-B-C` are no pair).
  public init?(_ text: String) {
    for separator: Character in ["/", "-"] {
      let parts = text.split(separator: separator, omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { continue }
      base = String(parts[0])
      quote = String(parts[1])
      slashed = separator == "/"
      return
    }
    return nil
  }
}
