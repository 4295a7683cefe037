import RateCore

/// One option as help, completions and the option rules see it: its spellings, its value,
/// its help line and how the shell completes it.
///
/// A command declares each option once, as a stored property of its `Declared` type
/// (``Declarations``): an ``Option``, which holds this description and how the option is
/// read, and which the parser reads through the one accessor (`scanner.read(Self.declared.chart)`).
/// Its `--help` Options section and usage line (``CommandHelp``), the completion scripts
/// (``CompletionTable``) and the option rules list the descriptions from there, in
/// declaration order: a new option is its declaration and its read.
///
/// ```swift
/// struct Declared: Declarations {
///   let days = Option.integer("--days", value: "N", in: 1...365, default: 28) {
///     "how many days, \($0.rangeAndDefault))"
///   }
///   let chart = Option.flag("--chart", help: "a multi-row line chart")
/// }
///
/// init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
///   days = try scanner.read(Self.declared.days)   // an Int: 1 to 365, else 28
///   chart = try scanner.read(Self.declared.chart)  // a Bool
/// }
/// ```
struct OptionSpec: Hashable, Sendable {
  /// Every spelling, the long one first: `["--days"]`, `["--help", "-h"]`.
  var names: [String]
  /// The value's placeholder in help and usage (`N`, `LIST`); nil for a flag.
  var valueName: String?
  /// Whether every occurrence counts (`--alert A --alert B`), rather than the last.
  var isRepeatable: Bool
  /// What the option does, for `--help`; wrapped to the help's width.
  var help: String
  /// What completes the value in the shell; nil for a flag or a free value.
  var completion: Completion?
  /// For a whole-number option: its range and its value when left out.
  var integerRule: IntegerRule? = nil
  /// Whether the value is a day: `YYYY-MM-DD`, `today` or `yesterday`, the same for every
  /// option that takes one.
  var takesDay = false

  /// A day option's description: its help says which words a day takes.
  static func day(_ names: [String], help: String) -> OptionSpec {
    let words = Day.relativeWords.map { "'\($0.word)'" }.joined(separator: " or ")
    return OptionSpec(
      names: names, valueName: "YYYY-MM-DD", isRepeatable: false,
      help: help + "; YYYY-MM-DD, \(words) (UTC)", takesDay: true)
  }

  /// The main spelling, such as `--days`.
  var name: String { names[0] }

  /// Whether the option takes a value.
  var takesValue: Bool { valueName != nil }

  /// `-h, --help` or `--days N`: the spellings, short ones first, and the value's placeholder.
  var label: String {
    let spellings = names.sorted { $0.count < $1.count }.joined(separator: ", ")
    return valueName.map { "\(spellings) \($0)" } ?? spellings
  }

  /// `--days N`: the main spelling and the value, as the usage line shows it.
  var usageLabel: String { valueName.map { "\(name) \($0)" } ?? name }
}

/// A whole-number option's accepted values and its value when left out.
struct IntegerRule: Hashable, Sendable {
  /// The values accepted.
  var range: ClosedRange<Int>
  /// The value when the option is left out; nil when leaving it out means something else.
  var defaultValue: Int?

  /// `1 to 365`, as help writes the range.
  var rangeText: String { "\(range.lowerBound) to \(range.upperBound)" }

  /// `1 to 365 (default 28`: the range and the opening of the default's parenthesis, for
  /// help that goes on inside it.
  var rangeAndDefault: String { rangeText + " (default \(defaultValue.map(String.init) ?? "none")" }
}

/// One positional argument as a command declares it: its placeholder and help line, how the
/// shell completes it, and how its parser reads it.
///
/// A command declares each argument once, in order, as a stored property of its `Declared`
/// type (``Declarations``): an ``Argument``, which holds this description and how it is read,
/// and which its parser reads through the one accessor (`try scanner.read(Self.declared.amount)`),
/// naming a missing one by its ``errorName``; `--help` and the completion scripts list the
/// descriptions from the same declarations.
struct ArgumentSpec: Hashable, Sendable {
  /// The placeholder without brackets: `BASE` is shown `<BASE>`.
  var name: String
  /// What the argument is, for `--help`; wrapped to the help's width.
  var help: String
  /// Whether it may be left out.
  var isOptional: Bool = false
  /// Whether it takes every remaining positional (`<ID> [<ID> ...]`).
  var isRepeating: Bool = false
  /// Whether one word holds a comma-separated list (`<TO>[,<TO>...]`).
  var isCommaList: Bool = false
  /// What completes it in the shell; nil for free text.
  var completion: Completion?
  /// The word a usage error names when it is missing, if not the placeholder in lower case.
  var missingName: String? = nil

  /// The word a usage error names when it is missing: `missing argument <amount>`.
  var errorName: String { missingName ?? name.lowercased() }

  /// `<BASE>`, or `<TO>[,<TO>...]` for a comma-separated list.
  var label: String {
    isCommaList ? "<\(name)>[,<\(name)>...]" : "<\(name)>"
  }

  /// How the usage line shows it: `<BASE>`, `[<QUOTE>]`, `<ID> [<ID> ...]`, `[<COIN> ...]`.
  var usageLabel: String {
    switch (isOptional, isRepeating) {
    case (false, false): return label
    case (true, false): return "[\(label)]"
    case (false, true): return "\(label) [\(label) ...]"
    case (true, true): return "[\(label) ...]"
    }
  }
}

/// What completes an option's value or an argument in the shell.
enum Completion: Hashable, Sendable {
  /// Words from local data, printed by the hidden `rates __complete <kind>,...`.
  case local([LocalWords])
  /// A fixed list of words; for an option, also the only values its parser accepts.
  case choices(Choices)
  /// File and directory names.
  case files

  /// The kind's name in the completion scripts: `coins,currencies`, `providers`, `files`.
  var scriptName: String {
    switch self {
    case .local(let kinds): return kinds.map(\.rawValue).joined(separator: ",")
    case .choices(let choices): return choices.name
    case .files: return "files"
    }
  }
}

/// The kinds of words `rates __complete` prints, from local data only.
enum LocalWords: String, CaseIterable, Sendable {
  /// Well-known coin symbols, your coins and favorites, and coins resolved or cached before.
  case coins
  /// ECB and CoinGecko quote currencies.
  case currencies
  /// The user's pairs.
  case pairs
  /// The user's favorite coins.
  case favorites
  /// The user's own coins (`coins.json`; before the split, the favorites that will be them).
  case ownCoins = "own-coins"
}

/// A named, fixed list of words: an option's accepted values or an argument's.
struct Choices: Hashable, Sendable {
  /// The list's name in the completion scripts, such as `providers`.
  var name: String
  /// The words, in the order help shows them.
  var values: [String]

  /// `--provider`'s values.
  static let providers = Choices(name: "providers", values: Provider.allCases.map(\.rawValue))
  /// `--format`'s values.
  static let formats = Choices(
    name: "formats", values: OutputFormat.allCases.map(\.rawValue))
  /// The keys `rates config` manages.
  static let configKeys = Choices(name: "keys", values: ConfigKey.allCases.map(\.rawValue))
  /// The shells `rates completions` writes a script for.
  static let shells = Choices(name: "shells", values: ["bash", "zsh", "fish"])
}

extension Choices {
  /// `--interval`'s values.
  static let intervals = Choices(name: "intervals", values: ["daily", "hourly"])
  /// `--method`'s values: how a disposal takes its cost.
  static let methods = Choices(name: "methods", values: PortfolioMethod.allCases.map(\.rawValue))
}
