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

  init(_ spec: OptionSpec, _ value: String? = nil) {
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
    guard spec.takesValue else { return (try? copy.flag(spec)) == true }
    guard let given = (try? copy.option(spec)) ?? nil else { return false }
    return value.map { $0.lowercased() == given.lowercased() } ?? true
  }
}

/// A declared rule: `option` cannot be used with any of `excluded`, nor with any of
/// `formats` (the global `--json` and `--format`), refused before the command reads its
/// options with one line, `--interactive cannot be used with --date`, and `reason` after a
/// colon when given; help says it beside each option it names.
struct OptionExclusion: Sendable {
  /// The option the message names first.
  var option: OptionUse
  /// The options it cannot be used with.
  var excluded: [OptionUse]
  /// The output formats it cannot be used with.
  var formats: [OutputFormat]
  /// Why, or what to do instead: `a day has one rate`.
  var reason: String?

  init(
    _ option: OptionUse, excludes excluded: [OptionUse], formats: [OutputFormat] = [],
    reason: String? = nil
  ) {
    self.option = option
    self.excluded = excluded
    self.formats = formats
    self.reason = reason
  }

  /// The message for the command line in `scanner` and the output `format`, or nil when it
  /// keeps the rule.
  func violation(in scanner: ArgumentScanner, format: OutputFormat?) -> String? {
    guard option.isGiven(in: scanner) else { return nil }
    let other =
      excluded.first { $0.isGiven(in: scanner) }?.label
      ?? format.flatMap { formats.contains($0) ? OptionRules.label(of: $0) : nil }
    return other.map { "\(option.label) cannot be used with \($0)" + (reason.map { ": " + $0 } ?? "") }
  }
}

/// A declared rule: `option` only goes with one of `needs` (or one of the output `formats`),
/// refused before the command reads its options with one line, `--to needs --from`, and
/// `reason` after a colon when given; help says `only with --from` beside it.
struct OptionRequirement: Sendable {
  /// The option that needs another.
  var option: OptionUse
  /// The options, any one of which it goes with.
  var needs: [OptionUse]
  /// The output formats, any one of which it goes with.
  var formats: [OutputFormat]
  /// Why, or what to do instead: `give the first day too`.
  var reason: String?

  init(
    _ option: OptionUse, needs: [OptionUse], formats: [OutputFormat] = [], reason: String? = nil
  ) {
    self.option = option
    self.needs = needs
    self.formats = formats
    self.reason = reason
  }

  /// What it needs, as help and messages name it: `--from`, `--format ledger|beancount`.
  var needed: String {
    OptionRules.list(needs.map(\.label) + OptionRules.labels(of: formats))
  }

  /// The message for the command line in `scanner` and the output `format`, or nil when it
  /// keeps the rule.
  func violation(in scanner: ArgumentScanner, format: OutputFormat?) -> String? {
    guard option.isGiven(in: scanner), !needs.contains(where: { $0.isGiven(in: scanner) }),
      !(format.map(formats.contains) ?? false)
    else { return nil }
    return "\(option.label) needs \(needed)" + (reason.map { ": " + $0 } ?? "")
  }
}

/// The rules a command declares between its options, read from one declaration by both
/// sides: the parser refuses a command line that breaks one before the command reads its
/// options (``refusal(in:format:)``), and help states each beside the options it names
/// (``helpText(_:)``), so what help says and what the parser refuses cannot differ.
struct OptionRules: Sendable {
  /// The command's options, in the order help names them.
  var options: [OptionSpec]
  var exclusions: [OptionExclusion]
  var requirements: [OptionRequirement]
  var groups: [OptionGroup]

  /// The rules `type` declares.
  init(_ type: any CommandDeclaration.Type) {
    self.init(
      options: type.options, exclusions: type.exclusions, requirements: type.requirements,
      groups: type.optionGroups)
  }

  init(
    options: [OptionSpec], exclusions: [OptionExclusion] = [],
    requirements: [OptionRequirement] = [], groups: [OptionGroup] = []
  ) {
    self.options = options
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
      let given = group.options.filter { OptionUse($0).isGiven(in: scanner) }
      if given.count > 1 {
        return given.map(\.name).joined(separator: " and ") + " cannot be used together"
      }
    }
    return requirements.lazy.compactMap { $0.violation(in: scanner, format: format) }.first
  }

  /// `option`'s help, followed by what the rules say of it: `…; not with --from or --date`,
  /// `…; hourly not with --date`, `…; only with --from`.
  func helpText(_ option: OptionSpec) -> String {
    let clauses = excluded(with: option).map { value, labels in
      (value.map { $0 + " " } ?? "") + "not with " + Self.list(labels)
    } + requirements.filter { $0.option.spec == option }.map { "only with " + $0.needed }
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
        add(exclusion.option.value, exclusion.excluded.map(\.label) + Self.labels(of: exclusion.formats))
      }
      for use in exclusion.excluded where use.spec == option { add(use.value, [exclusion.option.label]) }
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
