import RateCore

/// A price alert such as `BTC>100000` or `GBP-USD<=1.25`, from `--alert`.
struct AlertRule: Sendable, Equatable, CustomStringConvertible {
  /// How the price is compared with the threshold.
  enum Comparison: String, Sendable, Equatable, CaseIterable {
    case above = ">"
    case atLeast = ">="
    case below = "<"
    case atMost = "<="

    /// Whether `value` satisfies the comparison with `threshold`.
    func holds(_ value: Double, _ threshold: Double) -> Bool {
      switch self {
      case .above: return value > threshold
      case .atLeast: return value >= threshold
      case .below: return value < threshold
      case .atMost: return value <= threshold
      }
    }
  }

  /// The coin or currency, as typed (`BTC`, `bitcoin`, `GBP`).
  var base: String
  /// The quote currency when the rule names a pair (`GBP-USD`); `nil` for a
  /// coin alone, which means its price in the first `--in` currency.
  var quote: String?
  var comparison: Comparison
  var threshold: Double
  /// The expression as typed, without spaces, for messages and JSON.
  var text: String

  /// The expression, as typed.
  var description: String { text }

  /// Parses `BTC>100000`, `GBP-USD<1.25`, `eth >= 3,000` (`>`, `>=`, `<`, `<=`).
  ///
  /// - Throws: ``UsageError`` naming the expression when it cannot be read.
  static func parse(_ expression: String) throws(UsageError) -> AlertRule {
    let compact = expression.filter { !$0.isWhitespace }
    func bad(_ why: String) -> UsageError {
      UsageError.invalid(
        "bad --alert '\(TerminalText.sanitize(expression))': \(why); write e.g. 'BTC>100000' or 'GBP-USD<=1.25'")
    }
    guard let operatorStart = compact.firstIndex(where: { $0 == ">" || $0 == "<" }) else {
      throw bad("no comparison (>, >=, <, <=)")
    }
    let subject = String(compact[..<operatorStart])
    var rest = compact[operatorStart...]
    let symbol: String
    if rest.hasPrefix(">=") || rest.hasPrefix("<=") {
      symbol = String(rest.prefix(2))
      rest = rest.dropFirst(2)
    } else {
      symbol = String(rest.prefix(1))
      rest = rest.dropFirst()
    }
    guard let comparison = Comparison(rawValue: symbol) else { throw bad("unknown comparison") }
    guard !subject.isEmpty else { throw bad("no coin or pair before '\(symbol)'") }
    let number = String(rest)
    let threshold: Double
    switch AmountParser.parse(number) {
    case .success(let value): threshold = value
    case .failure(let problem):
      throw bad(problem.sentence(about: number, what: "threshold"))
    }
    var base = subject
    var quote: String?
    if let (pairBase, pairQuote) = PairArguments.split(subject) {
      base = pairBase
      quote = CurrencyCode(pairQuote).text
      try PairArguments.validate(base: pairBase, quote: pairQuote)
    } else {
      guard subject.count <= 100,
        subject.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
      else { throw bad("'\(TerminalText.sanitize(subject))' is not a coin or a pair") }
    }
    return AlertRule(
      base: base, quote: quote, comparison: comparison, threshold: threshold, text: compact)
  }
}
