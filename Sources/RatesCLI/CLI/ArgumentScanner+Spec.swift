import RateCore

/// Reading options by their declaration: what commands use, so that the names a parser
/// accepts are exactly the ones its `--help` and completions show.
extension ArgumentScanner {
  /// Removes and reports a flag given by any of `spec`'s names.
  ///
  /// - Throws: `UsageError.flagTakesNoValue` for `--chart=x`.
  mutating func flag(_ spec: OptionSpec) throws(UsageError) -> Bool {
    try flag(anyOf: spec.names)
  }

  /// Removes an option and its value; the last occurrence wins.
  ///
  /// - Returns: The value, or nil when the option is absent.
  /// - Throws: `UsageError.missingValue` naming the spelling used.
  mutating func option(_ spec: OptionSpec) throws(UsageError) -> String? {
    try option(anyOf: spec.names)
  }

  /// Removes every occurrence of a repeatable option.
  ///
  /// - Returns: The values in command-line order; empty when absent.
  /// - Throws: `UsageError.missingValue` naming the spelling used.
  mutating func options(_ spec: OptionSpec) throws(UsageError) -> [String] {
    try options(anyOf: spec.names)
  }

  /// Removes an option and converts its value with `parse`; every occurrence is checked.
  ///
  /// - Parameters:
  ///   - spec: The option.
  ///   - expected: The accepted form, completing "expected …".
  ///   - parse: Converts a value; nil means it is invalid.
  /// - Returns: The last occurrence's value, or nil when the option is absent.
  /// - Throws: `UsageError.missingValue` or `UsageError.invalidValue`.
  mutating func option<T>(
    _ spec: OptionSpec, expected: @autoclosure () -> String, parse: (String) -> T?
  ) throws(UsageError) -> T? {
    try typedOption(spec.names, expected: expected(), parse: parse)
  }

  /// Removes an option whose value is a whole number in `range`.
  ///
  /// - Returns: The number, or nil when the option is absent.
  /// - Throws: `UsageError.invalidValue` expecting "a whole number from 1 to 365".
  mutating func integer(_ spec: OptionSpec, in range: ClosedRange<Int>) throws(UsageError)
    -> Int?
  {
    try option(spec, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)") {
      Int($0).flatMap { range.contains($0) ? $0 : nil }
    }
  }

  /// Removes a whole-number option declared with ``OptionSpec/integer(_:value:in:default:help:)``,
  /// checked against its declared range.
  ///
  /// - Returns: The number, or nil when the option is absent.
  /// - Throws: `UsageError.invalidValue` expecting "a whole number from 1 to 365".
  mutating func integer(_ spec: OptionSpec) throws(UsageError) -> Int? {
    try integer(spec, in: spec.integerRule?.range ?? Int.min...Int.max)
  }

  /// Removes a whole-number option and gives its value, or its declared default when absent
  /// (the lowest value of its range when it declares none).
  mutating func integerOrDefault(_ spec: OptionSpec) throws(UsageError) -> Int {
    let rule = spec.integerRule
    return try integer(spec) ?? rule?.defaultValue ?? rule?.range.lowerBound ?? 0
  }

  /// Removes an option whose value must be one of its declared `.choices`, in any case.
  ///
  /// - Returns: The value, lower-cased, or nil when the option is absent.
  /// - Throws: `UsageError.invalidValue` listing the choices.
  mutating func choice(_ spec: OptionSpec) throws(UsageError) -> String? {
    guard case .choices(let choices)? = spec.completion else { return try option(spec) }
    return try option(spec, expected: choices.values.joined(separator: ", ")) { value in
      choices.values.contains(value.lowercased()) ? value.lowercased() : nil
    }
  }

  /// Removes an option declared with ``OptionSpec/day(_:help:)``: `YYYY-MM-DD`, `today` or
  /// `yesterday`, read by the one rule for a day.
  ///
  /// - Returns: The day, or nil when the option is absent.
  /// - Throws: `UsageError.invalidValue` saying which forms a day takes.
  mutating func day(_ spec: OptionSpec, today: Day) throws(UsageError) -> Day? {
    let words = Day.relativeWords.map { "'\($0.word)'" }.joined(separator: " or ")
    return try option(spec, expected: "a date written YYYY-MM-DD, or \(words)") {
      Day(argument: $0, today: today)
    }
  }

  // MARK: - Arguments

  /// Removes the next positional, declared by `spec`, which must be there.
  ///
  /// - Throws: `UsageError.missingArgument` naming the spec's ``ArgumentSpec/errorName``.
  mutating func argument(_ spec: ArgumentSpec) throws(UsageError) -> String {
    guard let text = optionalArgument(spec) else { throw .missingArgument(spec.errorName) }
    return text
  }

  /// Removes the next positional, declared by `spec`, or gives nil when none is left.
  mutating func optionalArgument(_ spec: ArgumentSpec) -> String? {
    argumentsAskedFor.insert(spec)
    return positional()
  }

  /// Removes every remaining positional, declared by a repeating `spec`.
  ///
  /// - Returns: The positionals in order; empty when none is left and `spec` is optional.
  /// - Throws: `UsageError.missingArgument` when none is left and `spec` is not optional.
  mutating func arguments(_ spec: ArgumentSpec) throws(UsageError) -> [String] {
    argumentsAskedFor.insert(spec)
    let texts = positionals()
    if texts.isEmpty, !spec.isOptional { throw .missingArgument(spec.errorName) }
    return texts
  }
}
