import RateCore

/// What several ledger actions read the same way.
extension LedgerCommand {
  /// The `--days` option of `rate` and `stats`, each with its own default.
  static func daysOption(default days: Int, note: String = "") -> Option<Int> {
    .integer("--days", value: "N", in: 1...3650, default: days) { daysHelp($0, note: note) }
  }

  /// The `--days` option of `list`: all days when left out.
  static let allDaysOption = Option.integer("--days", value: "N", in: 1...3650) { daysHelp($0) }

  /// `--days`'s help, from its rule.
  private static func daysHelp(_ rule: IntegerRule, note: String = "") -> String {
    "the last N days, today included, \(rule.rangeText) (default"
      + (rule.defaultValue.map { " \($0)" } ?? ": all") + note + ")"
  }

  /// The pair `rate` and `stats` read: `<BASE> <QUOTE>` or `BASE-QUOTE`.
  static let pairBase = Argument.required(
    "BASE",
    help: "the pair, also written BASE-QUOTE; rates are QUOTE per BASE, and buy and sell mean "
      + "buying and selling BASE",
    completion: .local([.currencies]))
  static let pairQuote = Argument.optional(
    "QUOTE", help: "the currency BASE is rated in",
    completion: .local([.currencies]))

  /// Reads `<BASE> <QUOTE>` or `BASE-QUOTE` (any two codes, split by ``PairName``): two
  /// different currency codes, upper-cased.
  static func readPair(_ scanner: inout ArgumentScanner) throws(UsageError) -> (CurrencyCode, CurrencyCode) {
    let pair = try PairArguments.read(
      &scanner, base: pairBase, quote: pairQuote,
      splitting: { PairName($0).map { ($0.base, $0.quote) } })
    return try check { () throws(LedgerInput.Invalid) in try LedgerInput.pair(pair.0, pair.1) }
  }

  /// Runs `body`, turning its input error into a usage error with the same words.
  static func check<T>(_ body: () throws(LedgerInput.Invalid) -> T) throws(UsageError) -> T {
    do { return try body() } catch { throw UsageError.invalid(error.message) }
  }
}

/// `ledger rate` and `ledger stats`: a pair and `--days`, read the same way.
protocol LedgerPairCommand: RatesCommand where Declared: LedgerPairDeclarations {
  /// The command's fields, read by ``init(parsing:defaults:)``.
  init(base: CurrencyCode, quote: CurrencyCode, days: Int)
}

/// What `rate` and `stats` declare: the pair, and `--days` with each one's default.
protocol LedgerPairDeclarations: Declarations {
  var days: Option<Int> { get }
}

extension LedgerPairCommand {
  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    let days = try scanner.read(Self.declared.days)
    let (base, quote) = try LedgerCommand.readPair(&scanner)
    self.init(base: base, quote: quote, days: days)
  }
}
