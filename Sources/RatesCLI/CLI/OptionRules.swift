import RateCore

/// Options that exclude each other, shown together on the usage line: `[--chart | --table]`,
/// or `(--sell | --buy)` when one is required; a required group of one is shown bare
/// (`--csv`).
///
/// The parser refuses two of a group before the command reads its options
/// (``OptionRules/refusal(in:format:)``): `--chart and --table cannot be used together`, and
/// help says it beside each of them. Whether a required group got one is the command's to
/// say, in its own words.
struct OptionGroup: Hashable, Sendable {
  /// The options, in the order shown.
  var options: [OptionSpec]
  /// Whether one of them must be given.
  var isRequired: Bool = false

  /// The group of `options`, in the order shown.
  init(_ options: any OptionDeclaration..., isRequired: Bool = false) {
    self.options = options.map(\.spec)
    self.isRequired = isRequired
  }

  /// `[--chart | --table]`, `(--sell | --buy)` or `--csv`.
  var usageLabel: String {
    let inner = options.map(\.usageLabel).joined(separator: " | ")
    if isRequired { return options.count == 1 ? inner : "(\(inner))" }
    return "[\(inner)]"
  }
}

/// An option as a rule names it: given at all (`--interactive`), or given with one value
/// (`--interval hourly`).
struct OptionUse: Sendable {
  /// The option.
  var spec: OptionSpec
  /// The value that counts, compared in any case; nil for any.
  var value: String? = nil

  init(_ option: some OptionDeclaration, _ value: String? = nil) {
    self.init(spec: option.spec, value: value)
  }

  init(spec: OptionSpec, value: String? = nil) {
    self.spec = spec
    self.value = value
  }

  /// `--interval hourly` or `--interactive`, as messages name it.
  var label: String { value.map { "\(spec.name) \($0)" } ?? spec.name }

  /// Whether the command line left in `scanner` uses the option this way, read as the parser
  /// reads it (the last occurrence's value); a malformed one (`--chart=x`, `--date` without a
  /// value) is not, so the parser reports it in its own words.
  func isGiven(in scanner: ArgumentScanner) -> Bool {
    guard scanner.remainingOptionNames.contains(where: spec.names.contains) else { return false }
    var copy = scanner
    guard spec.takesValue else { return (try? copy.flag(anyOf: spec.names)) == true }
    guard let given = (try? copy.option(anyOf: spec.names)) ?? nil else { return false }
    return value.map { $0.lowercased() == given.lowercased() } ?? true
  }
}

/// A declared rule between an option and others: it cannot be used with any of them
/// (`excludes`), or it goes only with one of them (`needs`); the others may be output formats
/// (the global `--json` and `--format`). The parser refuses a command line that breaks it
/// before the command reads its options, with one line (`--interactive cannot be used with
/// --date`, `--to needs --from`) and `reason` after a colon when given; help says it beside
/// each option it names (``OptionRules``).
struct OptionRule: Sendable {
  enum Kind: Sendable { case excludes, needs }

  var kind: Kind
  /// The option the message names first.
  var option: OptionUse
  /// The options it cannot be used with, or any one of which it needs.
  var others: [OptionUse]
  /// The output formats it cannot be used with, or any one of which it needs.
  var formats: [OutputFormat]
  /// Why, or what to do instead: `a day has one rate`.
  var reason: String?

  /// The options an `excludes` rule names; none for a `needs` rule.
  var excluded: [OptionUse] { kind == .excludes ? others : [] }

  /// What it names, as help and messages list them: `--from`, `--format ledger|beancount`.
  var othersText: String {
    OptionRules.list(others.map(\.label) + OptionRules.labels(of: formats))
  }

  /// The message for the command line in `scanner` and the output `format`, or nil when it
  /// keeps the rule.
  func violation(in scanner: ArgumentScanner, format: OutputFormat?) -> String? {
    guard option.isGiven(in: scanner) else { return nil }
    let given =
      others.first { $0.isGiven(in: scanner) }?.label
      ?? format.flatMap { formats.contains($0) ? OptionRules.label(of: $0) : nil }
    let why = reason.map { ": " + $0 } ?? ""
    switch kind {
    case .excludes: return given.map { "\(option.label) cannot be used with \($0)" + why }
    case .needs: return given == nil ? "\(option.label) needs \(othersText)" + why : nil
    }
  }
}

extension OptionRule {
  /// `option` cannot be used with any of `excluded`, nor with any of `formats`.
  init(
    _ option: OptionUse, excludes excluded: [OptionUse], formats: [OutputFormat] = [],
    reason: String? = nil
  ) {
    self.init(kind: .excludes, option: option, others: excluded, formats: formats, reason: reason)
  }

  /// `option` goes only with one of `needs` or of `formats`.
  init(_ option: OptionUse, needs: [OptionUse], formats: [OutputFormat] = [], reason: String? = nil) {
    self.init(kind: .needs, option: option, others: needs, formats: formats, reason: reason)
  }
}

/// The rules a command declares between its options, read from one declaration by both
/// sides: the parser refuses a command line that breaks one before the command reads its
/// options (``refusal(in:format:)``), and help states each beside the options it names
/// (``helpText(_:)``), so what help says and what the parser refuses cannot differ.
struct OptionRules: Sendable {
  /// The command's options, in the order help names them: listed only when help's wording
  /// asks (listing a command's reflects on its declarations, which a run that breaks no rule
  /// never needs).
  var options: [OptionSpec] { listOptions() }
  private let listOptions: @Sendable () -> [OptionSpec]
  /// The `excludes` rules.
  var exclusions: [OptionRule]
  /// The `needs` rules.
  var requirements: [OptionRule]
  var groups: [OptionGroup]

  /// The rules `type` declares.
  init(_ type: any CommandDeclaration.Type) {
    self.init(
      options: type.options, exclusions: type.exclusions, requirements: type.requirements,
      groups: type.optionGroups)
  }

  init(
    options: @autoclosure @escaping @Sendable () -> [OptionSpec], exclusions: [OptionRule] = [],
    requirements: [OptionRule] = [], groups: [OptionGroup] = []
  ) {
    self.listOptions = options
    self.exclusions = exclusions
    self.requirements = requirements
    self.groups = groups
  }

  /// The one line for the first rule the command line in `scanner` (with the output
  /// `format`) breaks, or nil: exclusions, then two of one group, then requirements.
  func refusal(in scanner: ArgumentScanner, format: OutputFormat?) -> String? {
    if let message = exclusions.lazy.compactMap({ $0.violation(in: scanner, format: format) })
      .first
    {
      return message
    }
    for group in groups {
      let given = group.options.filter { OptionUse(spec: $0).isGiven(in: scanner) }
      if given.count > 1 {
        return given.map(\.name).joined(separator: " and ") + " cannot be used together"
      }
    }
    return requirements.lazy.compactMap { $0.violation(in: scanner, format: format) }.first
  }

  /// `option`'s help, followed by what the rules say of it: `…; not with --from or --date`,
  /// `…; hourly not with --date`, `…; only with --from`.
  func helpText(_ option: OptionSpec) -> String {
    let clauses =
      excluded(with: option).map { value, labels in
        (value.map { $0 + " " } ?? "") + "not with " + Self.list(labels)
      } + requirements.filter { $0.option.spec == option }.map { "only with " + $0.othersText }
    return ([option.help] + clauses).joined(separator: "; ")
  }

  /// What `option` cannot be used with, by the value it is given with (nil: any): the other
  /// options of its groups and what its exclusions name, in the order of ``options``, then
  /// the output formats.
  func excluded(with option: OptionSpec) -> [(value: String?, labels: [String])] {
    var clauses: [(value: String?, labels: [String])] = []
    func add(_ value: String?, _ labels: [String]) {
      if !clauses.contains(where: { $0.value == value }) { clauses.append((value, [])) }
      guard let index = clauses.firstIndex(where: { $0.value == value }) else { return }
      for label in labels where !clauses[index].labels.contains(label) {
        clauses[index].labels.append(label)
      }
    }
    for group in groups where group.options.contains(option) {
      add(nil, group.options.filter { $0 != option }.map(\.name))
    }
    for exclusion in exclusions {
      if exclusion.option.spec == option {
        add(exclusion.option.value, exclusion.others.map(\.label) + Self.labels(of: exclusion.formats))
      }
      for use in exclusion.others where use.spec == option { add(use.value, [exclusion.option.label]) }
    }
    return clauses.filter { !$0.labels.isEmpty }.map { ($0.value, ordered($0.labels)) }
  }

  /// `labels` in the order of ``options`` (by the option each names), formats last, else as
  /// they were.
  func ordered(_ labels: [String]) -> [String] {
    let names = options.map(\.name)
    func rank(_ label: String) -> Int {
      names.firstIndex(of: String(label.prefix { $0 != " " })) ?? names.count
    }
    return labels.enumerated()
      .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
  }

  /// `--json` for JSON, `--format csv` for another format, as a message names the one given.
  static func label(of format: OutputFormat) -> String {
    format == .json ? "--json" : "--format \(format.rawValue)"
  }

  /// `--json` and `--format csv|ledger`, as help names several formats.
  static func labels(of formats: [OutputFormat]) -> [String] {
    let others = formats.filter { $0 != .json }.map(\.rawValue)
    return (formats.contains(.json) ? ["--json"] : [])
      + (others.isEmpty ? [] : ["--format " + others.joined(separator: "|")])
  }

  /// `a`, `a or b`, `a, b or c`.
  static func list(_ items: [String]) -> String {
    guard let last = items.last, items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " or " + last
  }
}
