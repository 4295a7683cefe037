import RateCore

/// A command line, split into tokens once, that commands consume piece by piece.
///
/// Modelled on swift-argument-parser's `SplitArguments`. Each token is one of:
/// - an option: `--name`, `--name=value`, `-n` (split at the first `=` too);
/// - a value: anything else, including a lone `-` and negative numbers such
///   as `-5` or `-1.5e3`, so `convert -5 USD EUR` reaches the command's own
///   validation;
/// - the terminator `--`, after which every token is a positional, even `--json`.
///
/// Combined short flags (`-abc`) are not split: `-abc` is one option name,
/// unknown unless a command asks for it. Names match exactly, case included.
///
/// Pull flags and options first (an option takes the value token right after
/// it), then positionals, then call `finish()` to reject anything left:
///
/// ```swift
/// var scanner = ArgumentScanner(["BTC", "--days", "7", "EUR"], today: today)
/// let days = try scanner.option(anyOf: ["--days", "-d"])   // "7"
/// let base = scanner.positional()   // "BTC"
/// let quote = scanner.positional()  // "EUR"
/// try scanner.finish()
/// ```
///
/// A value that starts with `-` and is not a number must be attached with `=`:
/// `--provider=-x`. Commands read by declaration instead, through one accessor
/// (`scanner.read(Self.declared.chart)`: ``Option`` and ``Argument``).
struct ArgumentScanner: Sendable {
  /// One classified command-line token.
  enum Token: Equatable, Sendable {
    /// `--name`, `-n` or `--name=value`.
    case option(name: String, value: String?)
    /// A token before `--` that is not an option; a positional or an option's value.
    case value(String)
    /// The first bare `--`.
    case terminator
    /// A token after `--`; only ever a positional.
    case literal(String)
  }

  /// A token with its position in the original arguments.
  struct Element: Equatable, Sendable {
    var token: Token
    var index: Int

    /// The text of a token that can be a positional, or nil.
    var positionalText: String? {
      switch token {
      case .value(let text), .literal(let text): return text
      case .option, .terminator: return nil
      }
    }

    /// The name of an option token, or nil.
    var optionName: String? {
      if case .option(let name, _) = token { return name }
      return nil
    }
  }

  /// The tokens not consumed yet, in their original order.
  private(set) var elements: [Element]

  /// Every option name asked for so far, present or not: what a command's parser reads,
  /// which a test compares with what the command declares.
  private(set) var askedFor: Set<String> = []

  /// Every positional argument asked for so far by its declaration, present or not: what
  /// ``nextArgument(_:)`` records, which a test compares with what
  /// the command declares.
  var argumentsAskedFor: Set<ArgumentSpec> = []

  /// The day `today` and `yesterday` in a day option are read against (UTC).
  let today: Day

  /// Tokenizes `arguments`, which must not include the program name; a day option's
  /// `today` is `today`.
  init(_ arguments: [String], today: Day) {
    self.today = today
    var elements: [Element] = []
    elements.reserveCapacity(arguments.count)
    var afterTerminator = false
    for (index, argument) in arguments.enumerated() {
      let token: Token
      if afterTerminator {
        token = .literal(argument)
      } else if argument == "--" {
        afterTerminator = true
        token = .terminator
      } else {
        token = Self.classify(argument)
      }
      elements.append(Element(token: token, index: index))
    }
    self.elements = elements
  }

  // MARK: - Flags and options

  /// Removes and reports a boolean flag given by any of `names`, such as `["--json", "-j"]`.
  ///
  /// - Returns: Whether the flag appeared at least once before `--`.
  /// - Throws: `UsageError.flagTakesNoValue` for `--json=x` (or `--json=`).
  mutating func flag(anyOf names: [String]) throws(UsageError) -> Bool {
    askedFor.formUnion(names)
    var found = false
    var kept: [Element] = []
    for element in elements {
      guard case .option(let name, let value) = element.token, names.contains(name) else {
        kept.append(element)
        continue
      }
      if value != nil { throw .flagTakesNoValue(option: name) }
      found = true
    }
    elements = kept
    return found
  }

  /// Removes an option and its value: `--days 7`, `--days=7` or `-d 7`.
  ///
  /// The last occurrence wins. A separate value must be the next argument
  /// and not an option or `--`; write `--opt=-x` for a value starting with `-`
  /// (negative numbers such as `-5` also work separately).
  ///
  /// - Parameter names: Every spelling of the option, such as `["--days", "-d"]`.
  /// - Returns: The value of the last occurrence, or nil when absent.
  /// - Throws: `UsageError.missingValue` naming the spelling used, when an
  ///   occurrence ends the line, precedes an option or `--`, or is empty
  ///   (`--days=`, `--days ""`).
  mutating func option(anyOf names: [String]) throws(UsageError) -> String? {
    try options(anyOf: names).last
  }

  /// Removes an option whose value is an amount and a currency code, written as one
  /// argument (`--cost "20000 USD"`, `--cost=20000USD`) or as two (`--cost 20000 USD`,
  /// `--cost=20000 USD`): an amount without letters takes the argument right after it when
  /// `isCode` accepts that argument.
  ///
  /// - Returns: The value of the last occurrence, amount and code joined by a space.
  /// - Throws: `UsageError.missingValue`, as `option(_:)` does.
  mutating func amountAndCodeOption(
    anyOf names: [String], isCode: (String) -> Bool
  ) throws(UsageError) -> String? {
    var position = elements.startIndex
    while position < elements.endIndex {
      defer { position += 1 }
      guard case .option(let name, let inline) = elements[position].token, names.contains(name) else {
        continue
      }
      // The element holding the amount: the option itself (`--cost=20000`) or the next one.
      let holder = inline == nil ? position + 1 : position
      let next = holder + 1
      guard next < elements.endIndex, elements[next].index == elements[holder].index + 1,
        case .value(let code) = elements[next].token, isCode(code)
      else { continue }
      // A bare amount (`20000`, `1e16`, `+5`, `.5`): a number, its exponent too, so that one
      // too large is refused as such, not as a malformed cost; not one with its code.
      let isAmount = { (text: String) in
        (text.first.map { $0.isNumber || "+-.".contains($0) } ?? false)
          && !text.contains { ($0.isLetter && $0 != "e" && $0 != "E") || $0.isWhitespace }
      }
      switch elements[holder].token {
      case .option(let name, .some(let amount)) where isAmount(amount):
        elements[holder].token = .option(name: name, value: amount + " " + code)
      case .value(let amount) where holder != position && isAmount(amount):
        elements[holder].token = .value(amount + " " + code)
      default: continue
      }
      elements.remove(at: next)
    }
    return try option(anyOf: names)
  }

  /// Removes every occurrence of a repeatable option such as `--alert`.
  ///
  /// - Parameter names: Every spelling of the option.
  /// - Returns: The values in command-line order; empty when absent.
  /// - Throws: `UsageError.missingValue`, as `option(_:)` does.
  mutating func options(anyOf names: [String]) throws(UsageError) -> [String] {
    askedFor.formUnion(names)
    let (taken, kept) = try split(names)
    elements = kept
    return taken.map(\.value)
  }

  // MARK: - Positionals

  /// Removes and returns the next positional, skipping options.
  ///
  /// A positional is a token that is not an option (including `-` and
  /// negative numbers), or any token after `--`. Pull options first, or an
  /// option's separate value would be taken as a positional.
  ///
  /// - Returns: The positional, or nil when none is left.
  mutating func positional() -> String? {
    guard let position = elements.firstIndex(where: { $0.positionalText != nil }) else {
      return nil
    }
    return elements.remove(at: position).positionalText
  }

  /// Removes and returns the first positional that is not the separate value of one of
  /// `valued`, the options that take a value: the word naming an action, which may follow
  /// options (`rates ledger --days 90 stats USD LBP`).
  ///
  /// - Parameter valued: Every spelling of every option that takes a value, asked for only
  ///   when an option comes before the word.
  /// - Returns: The word, or nil when no positional is left.
  mutating func actionWord(skippingValuesOf valued: () -> Set<String>) -> String? {
    var position = elements.startIndex
    lazy var names = valued()
    while position < elements.endIndex {
      let element = elements[position]
      if case .option(let name, nil) = element.token, names.contains(name),
        position + 1 < elements.endIndex, elements[position + 1].index == element.index + 1,
        case .value = elements[position + 1].token
      {
        position += 2
        continue
      }
      if let text = element.positionalText {
        elements.remove(at: position)
        return text
      }
      position += 1
    }
    return nil
  }

  /// The names of the options not consumed yet, in order, without their values.
  var remainingOptionNames: [String] { elements.compactMap(\.optionName) }

  /// Removes and returns every remaining positional, in order.
  ///
  /// - Returns: The positionals; empty when none is left.
  mutating func positionals() -> [String] {
    let texts = elements.compactMap(\.positionalText)
    elements.removeAll { $0.positionalText != nil }
    return texts
  }

  // MARK: - Finishing

  /// Rejects anything no command asked for.
  ///
  /// - Throws: `UsageError.unknownOption` for the first option left (by name,
  ///   without any `=value`), else `UsageError.unexpectedArgument` for the
  ///   first positional left.
  func finish() throws(UsageError) {
    if let name = elements.lazy.compactMap(\.optionName).first {
      throw .unknownOption(name)
    }
    if let text = elements.lazy.compactMap(\.positionalText).first {
      throw .unexpectedArgument(text)
    }
  }

  // MARK: - Implementation

  /// Parses every occurrence of `names` with `parse`, then removes them.
  mutating func typedOption<T>(
    _ names: [String],
    expected: @autoclosure () -> String,
    parse: (String) -> T?
  ) throws(UsageError) -> T? {
    askedFor.formUnion(names)
    let (taken, kept) = try split(names)
    var result: T?
    for (name, value) in taken {
      guard let parsed = parse(value) else {
        throw .invalidValue(option: name, value: value, expected: expected())
      }
      result = parsed
    }
    elements = kept
    return result
  }

  /// Finds every occurrence of the option `names` with its value, and the elements left.
  ///
  /// A separate value must be the very next original argument: if a flag
  /// between them was already removed (`--days --json 7`), the value is missing.
  private func split(
    _ names: [String]
  ) throws(UsageError) -> (taken: [(name: String, value: String)], kept: [Element]) {
    var taken: [(name: String, value: String)] = []
    var kept: [Element] = []
    var position = elements.startIndex
    while position < elements.endIndex {
      let element = elements[position]
      guard case .option(let name, let inlineValue) = element.token, names.contains(name) else {
        kept.append(element)
        position += 1
        continue
      }
      if let inlineValue {
        guard !inlineValue.isEmpty else { throw .missingValue(option: name) }
        taken.append((name, inlineValue))
        position += 1
        continue
      }
      let next = position + 1
      guard next < elements.endIndex, elements[next].index == element.index + 1,
        case .value(let value) = elements[next].token, !value.isEmpty
      else { throw .missingValue(option: name) }
      taken.append((name, value))
      position += 2
    }
    return (taken, kept)
  }

  /// Classifies one argument before `--`.
  static func classify(_ argument: String) -> Token {
    guard argument.hasPrefix("-"), argument.count > 1, !isNegativeNumber(argument) else {
      return .value(argument)
    }
    let prefixLength = argument.hasPrefix("--") ? 2 : 1
    if let equals = argument.firstIndex(of: "="),
      argument.distance(from: argument.startIndex, to: equals) > prefixLength
    {
      let name = String(argument[..<equals])
      let value = String(argument[argument.index(after: equals)...])
      return .option(name: name, value: value)
    }
    return .option(name: argument, value: nil)
  }

  /// True for `-` followed by a decimal number: `-5`, `-0.25`, `-.5`, `-1.5e3`, `-2E-4`.
  static func isNegativeNumber(_ argument: String) -> Bool {
    var bytes = argument.utf8[...]
    guard bytes.popFirst() == UInt8(ascii: "-") else { return false }

    func skipDigits() -> Int {
      var count = 0
      while let byte = bytes.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        bytes.removeFirst()
        count += 1
      }
      return count
    }

    var mantissaDigits = skipDigits()
    if bytes.first == UInt8(ascii: ".") {
      bytes.removeFirst()
      mantissaDigits += skipDigits()
    }
    guard mantissaDigits > 0 else { return false }
    if let byte = bytes.first, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
      bytes.removeFirst()
      if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
        bytes.removeFirst()
      }
      guard skipDigits() > 0 else { return false }
    }
    return bytes.isEmpty
  }
}
