import RateCore

/// A declared option and the value reading it gives: `Option<Bool>` for a flag, `Option<Int>`
/// for `--days N` with its default, `Option<Day?>` for `--date`. One declaration, a stored
/// property of a command's `Declared` type, gives its parsing, default, help, completion and
/// the "not with …" prose; the command reads it through the one accessor,
/// ``ArgumentScanner/read(_:)-(Option<Value>)``, and the compiler checks the value's type.
struct Option<Value>: Sendable {
  /// Its spellings, value placeholder, help and completion: what help, completions and the
  /// option rules list.
  let spec: OptionSpec
  /// Removes its occurrences from a scanner and gives its value, checked as declared.
  fileprivate let read: @Sendable (inout ArgumentScanner) throws(UsageError) -> Value
}

/// A declared positional argument and the value reading it gives: `Argument<String>` when it
/// must be there, `Argument<String?>` when it may be left out, `Argument<[String]>` for every
/// remaining one. Read through ``ArgumentScanner/read(_:)-(Argument<Value>)``.
struct Argument<Value>: Sendable {
  /// Its placeholder, help and completion: what help and completions list.
  let spec: ArgumentSpec
  /// Removes it from a scanner and gives its value; a missing required one is a usage error.
  fileprivate let read: @Sendable (inout ArgumentScanner) throws(UsageError) -> Value
}

/// What the declarations of a command's options have in common, for listing them
/// (``Declarations/options``).
protocol OptionDeclaration { var spec: OptionSpec { get } }
/// What the declarations of a command's arguments have in common, for listing them.
protocol ArgumentDeclaration { var spec: ArgumentSpec { get } }
extension Option: OptionDeclaration {}
extension Argument: ArgumentDeclaration {}

extension ArgumentScanner {
  /// Removes a declared option's occurrences and gives its value, read as it is declared.
  ///
  /// - Throws: `UsageError` for a missing or invalid value (`--days 0`, `--date someday`,
  ///   `--chart=x`), naming the spelling used.
  mutating func read<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
    try option.read(&self)
  }

  /// Removes a declared positional argument (every remaining one, for a repeating one) and
  /// gives its value.
  ///
  /// - Throws: `UsageError.missingArgument` naming it, when a required one is missing.
  mutating func read<Value>(_ argument: Argument<Value>) throws(UsageError) -> Value {
    try argument.read(&self)
  }

  /// Removes an argument declared optional that this command line needs after all (an
  /// exchange's `FOR-AMOUNT`, a pair's `QUOTE` without a default) and gives it.
  ///
  /// - Throws: `UsageError.missingArgument` naming it, when it is missing.
  mutating func require(_ argument: Argument<String?>) throws(UsageError) -> String {
    guard let text = try read(argument) else { throw .missingArgument(argument.spec.errorName) }
    return text
  }

  /// Removes the next positional, recording that `spec` asked for it (what a test compares
  /// with the declarations).
  fileprivate mutating func nextArgument(_ spec: ArgumentSpec) -> String? {
    argumentsAskedFor.insert(spec)
    return positional()
  }
}

// MARK: - Options

extension Option where Value == Bool {
  /// A boolean flag such as `--chart`: true when given.
  static func flag(_ names: String..., help: String) -> Option {
    let spec = OptionSpec(names: names, valueName: nil, isRepeatable: false, help: help)
    return Option(spec: spec) { scanner throws(UsageError) in try scanner.flag(anyOf: spec.names) }
  }
}

extension Option where Value == String? {
  /// An option that takes a value, such as `--with NAME`: the last occurrence's value, or nil.
  /// With `.choices` completion the value must be one of them, in any case, and is given
  /// lower-cased.
  static func option(
    _ names: String..., value: String, help: String, completion: Completion? = nil
  ) -> Option {
    valueOption(names, value: value, help: help, completion: completion)
  }

  /// ``option(_:value:help:completion:)`` with its spellings in an array.
  fileprivate static func valueOption(
    _ names: [String], value: String, help: String, completion: Completion?
  ) -> Option {
    let spec = OptionSpec(
      names: names, valueName: value, isRepeatable: false, help: help, completion: completion)
    guard case .choices(let choices)? = completion else {
      return Option(spec: spec) { scanner throws(UsageError) in try scanner.option(anyOf: spec.names) }
    }
    return Option(spec: spec) { scanner throws(UsageError) in
      try scanner.typedOption(spec.names, expected: choices.values.joined(separator: ", ")) { value in
        choices.values.contains(value.lowercased()) ? value.lowercased() : nil
      }
    }
  }

  /// An option whose value is an amount and a currency code, one argument or two
  /// (`--cost "20000 USD"`, `--cost 20000 USD`: ``ArgumentScanner/amountAndCodeOption(anyOf:isCode:)``,
  /// `isCode` telling a code from the next word); the last occurrence's value, amount and
  /// code joined by a space.
  static func amountAndCode(
    _ names: String..., value: String, help: String, isCode: @escaping @Sendable (String) -> Bool
  ) -> Option {
    let spec = OptionSpec(names: names, valueName: value, isRepeatable: false, help: help)
    return Option(spec: spec) { scanner throws(UsageError) in
      try scanner.amountAndCodeOption(anyOf: spec.names, isCode: isCode)
    }
  }

  /// A day option read as it is written (`ledger add --date`, `portfolio --as-of`), for a
  /// command that checks it by its own rule with its own limits; help says which words a
  /// day takes, as for ``day(_:help:)``.
  static func dayText(_ names: String..., help: String) -> Option {
    let spec = OptionSpec.day(names, help: help)
    return Option(spec: spec) { scanner throws(UsageError) in try scanner.option(anyOf: spec.names) }
  }
}

extension Option {
  /// An option whose value is one of `Choice`'s cases by its raw value, in any case
  /// (`--format CSV`, `--method hifo`): help, completion and the parser take the words from
  /// `choices`; nil when absent.
  static func choice<Choice: RawRepresentable & Sendable>(
    _ names: String..., value: String, help: String, choices: Choices, as type: Choice.Type
  ) -> Option where Value == Choice?, Choice.RawValue == String {
    let text = Option<String?>.valueOption(names, value: value, help: help, completion: .choices(choices))
    return Option(spec: text.spec) { scanner throws(UsageError) in
      try scanner.read(text).flatMap(Choice.init(rawValue:))
    }
  }
}

extension Option where Value == [String] {
  /// A repeatable option such as `--alert A --alert B`: every value, in command-line order.
  static func repeated(_ names: String..., value: String, help: String, completion: Completion? = nil)
    -> Option
  {
    let spec = OptionSpec(
      names: names, valueName: value, isRepeatable: true, help: help, completion: completion)
    return Option(spec: spec) { scanner throws(UsageError) in try scanner.options(anyOf: spec.names) }
  }

  /// `--in LIST`: the currencies coins are shown in, comma-separated or repeated, read by
  /// the one rule for a list of them (`CurrencyList.parse`).
  static func currencies(help: String) -> Option {
    .repeated("--in", value: "LIST", help: help, completion: .local([.currencies]))
  }
}

extension Option where Value == Day? {
  /// An option whose value is a day (`--date`, `--from`, `--to`): `YYYY-MM-DD`, `today` or
  /// `yesterday` (against the scanner's ``ArgumentScanner/today``), read by the one rule for
  /// a day (``RateCore/Day/init(argument:today:)``); its help says which words it takes.
  static func day(_ names: String..., help: String) -> Option {
    let spec = OptionSpec.day(names, help: help)
    let words = Day.relativeWords.map { "'\($0.word)'" }.joined(separator: " or ")
    return Option(spec: spec) { scanner throws(UsageError) in
      let today = scanner.today
      return try scanner.typedOption(spec.names, expected: "a date written YYYY-MM-DD, or \(words)") {
        Day(argument: $0, today: today)
      }
    }
  }
}

extension Option {
  /// An option whose value `parse` converts (nil: invalid, "expected `expected`"); every
  /// occurrence is checked, the last one's value given, nil when absent.
  static func option<Parsed>(
    _ names: String..., value: String, help: String, expected: String,
    parse: @escaping @Sendable (String) -> Parsed?
  ) -> Option where Value == Parsed? {
    let spec = OptionSpec(names: names, valueName: value, isRepeatable: false, help: help)
    return Option(spec: spec) { scanner throws(UsageError) in
      try scanner.typedOption(spec.names, expected: expected, parse: parse)
    }
  }

  /// A whole-number option with no default: its range declared once, which the parser
  /// checks and `help` writes from `rule` (`1970 to 9999`); nil when left out.
  static func integer(
    _ names: String..., value: String, in range: ClosedRange<Int>, help: (IntegerRule) -> String
  ) -> Option where Value == Int? {
    .integerOption(names, value: value, rule: IntegerRule(range: range, defaultValue: nil), help: help)
  }

  /// A whole-number option, its range and default declared once: the parser reads it by
  /// them and `help` writes them from `rule` (`1 to 365 (default 28)`), so the prose cannot
  /// drift from the code; the default when left out.
  static func integer(
    _ names: String..., value: String, in range: ClosedRange<Int>, default defaultValue: Int,
    help: (IntegerRule) -> String
  ) -> Option where Value == Int {
    let rule = IntegerRule(range: range, defaultValue: defaultValue)
    let read = Option<Int?>.integerOption(names, value: value, rule: rule, help: help)
    return Option(spec: read.spec) { scanner throws(UsageError) in
      try scanner.read(read) ?? defaultValue
    }
  }

  /// A whole-number option checked against `rule`'s range: nil when left out.
  fileprivate static func integerOption(
    _ names: [String], value: String, rule: IntegerRule, help: (IntegerRule) -> String
  ) -> Option where Value == Int? {
    let spec = OptionSpec(
      names: names, valueName: value, isRepeatable: false, help: help(rule), integerRule: rule)
    let range = rule.range
    return Option(spec: spec) { scanner throws(UsageError) in
      try scanner.typedOption(spec.names, expected: "a whole number from \(rule.rangeText)") {
        Int($0).flatMap { range.contains($0) ? $0 : nil }
      }
    }
  }
}

// MARK: - Arguments

extension Argument where Value == String {
  /// A positional that must be there: `<AMOUNT>`; missing, a usage error names it
  /// (``ArgumentSpec/errorName``: `missingName`, else the placeholder in lower case).
  static func required(
    _ name: String, help: String, isCommaList: Bool = false, completion: Completion? = nil,
    missingName: String? = nil
  ) -> Argument {
    let spec = ArgumentSpec(
      name: name, help: help, isCommaList: isCommaList, completion: completion,
      missingName: missingName)
    return Argument(spec: spec) { scanner throws(UsageError) in
      guard let text = scanner.nextArgument(spec) else { throw .missingArgument(spec.errorName) }
      return text
    }
  }
}

extension Argument where Value == String? {
  /// A positional that may be left out: `[<QUOTE>]`; nil when none is left. `missingName` is
  /// the word a usage error names when a command requires it after all (an exchange's
  /// `FOR-AMOUNT`).
  static func optional(
    _ name: String, help: String, completion: Completion? = nil, missingName: String? = nil
  ) -> Argument {
    let spec = ArgumentSpec(
      name: name, help: help, isOptional: true, completion: completion, missingName: missingName)
    return Argument(spec: spec) { scanner throws(UsageError) in scanner.nextArgument(spec) }
  }
}

extension Argument where Value == [String] {
  /// Every remaining positional: `<ID> [<ID> ...]`, or `[<COIN> ...]` when `isOptional`
  /// (else none left is a usage error naming it).
  static func repeating(
    _ name: String, help: String, isOptional: Bool = false, completion: Completion? = nil
  ) -> Argument {
    let spec = ArgumentSpec(
      name: name, help: help, isOptional: isOptional, isRepeating: true, completion: completion)
    return Argument(spec: spec) { scanner throws(UsageError) in
      scanner.argumentsAskedFor.insert(spec)
      let texts = scanner.positionals()
      if texts.isEmpty, !spec.isOptional { throw .missingArgument(spec.errorName) }
      return texts
    }
  }
}
