import RateCore

/// What several ledger actions read the same way.
extension LedgerCommand {
  /// The `--days` option of `list`, `rate` and `stats`, each with its own default.
  static func daysOption(default days: Int?, note: String = "") -> OptionSpec {
    .integer("--days", value: "N", in: 1...3650, default: days) { rule in
      "the last N days, today included, \(rule.rangeText) (default"
        + (rule.defaultValue.map { " \($0)" } ?? ": all") + note + ")"
    }
  }

  /// The pair `rate` and `stats` read: `<BASE> <QUOTE>` or `BASE-QUOTE`.
  static let pairArguments = [
    ArgumentSpec(
      name: "BASE",
      help: "the pair, also written BASE-QUOTE; rates are QUOTE per BASE, and buy and sell mean "
        + "buying and selling BASE",
      completion: .local([.currencies])),
    ArgumentSpec(
      name: "QUOTE", help: "the currency BASE is rated in", isOptional: true,
      completion: .local([.currencies])),
  ]

  /// Reads `<BASE> <QUOTE>` or `BASE-QUOTE`: two different currency codes, upper-cased.
  static func readPair(_ scanner: inout ArgumentScanner) throws(UsageError) -> (String, String) {
    guard let first = scanner.positional() else { throw UsageError.missingArgument("base") }
    let pair: (String, String)
    if let name = PairName(first) {
      pair = (name.base, name.quote)
    } else {
      guard let second = scanner.positional() else { throw UsageError.missingArgument("quote") }
      pair = (first, second)
    }
    return try check { () throws(LedgerInput.Invalid) in try LedgerInput.pair(pair.0, pair.1) }
  }

  /// Runs `body`, turning its input error into a usage error with the same words.
  static func check<T>(_ body: () throws(LedgerInput.Invalid) -> T) throws(UsageError) -> T {
    do { return try body() } catch { throw UsageError.invalid(error.message) }
  }
}
