import Foundation
import RatesExpectations
import Testing

@testable import RatesCLI

/// What `--help` (and so the man page, made from it) says an option cannot be used with, or
/// goes only with, is exactly what the parser refuses: every refusal the parser makes of two
/// options (or an option and an output format) that it makes of neither alone is stated beside
/// the option in help, and every rule help states is refused by the parser. The rules are
/// declared once (``OptionRules``); no option's own prose says "not with".
@Suite struct DeclaredRuleHelpTests {
  typealias Declarations = DeclarationAgreementTests

  /// One way of giving an option or an output format on a command line.
  struct Use: CustomStringConvertible {
    var words: [String]
    /// The option's main name, or `--json` / `--format`.
    var name: String
    /// The value that may matter: a choice, or the format.
    var value: String?
    var description: String { words.joined(separator: " ") }
  }

  /// A sample value an option accepts, by its placeholder.
  static func sample(_ spec: OptionSpec) -> String {
    switch spec.valueName {
    case "YYYY-MM-DD": return "2026-01-05"
    case "EXPR": return "BTC>1"
    case let name? where name.contains("AMOUNT"): return "20000 USD"
    case "BASE-QUOTE": return "USD-LBP"
    case "CUR", "LIST": return "EUR"
    default: return spec.name == "--every" ? "30s" : "7"
    }
  }

  /// Every way of giving `spec`: once, or once per value for a fixed list.
  static func uses(_ spec: OptionSpec) -> [Use] {
    guard spec.takesValue else { return [Use(words: [spec.name], name: spec.name)] }
    if case .choices(let choices)? = spec.completion {
      return choices.values.map { Use(words: [spec.name, $0], name: spec.name, value: $0) }
    }
    return [Use(words: [spec.name, sample(spec)], name: spec.name)]
  }

  /// `--json`, and `--format` with every other format but the table.
  static let formats: [Use] = OutputFormat.allCases.filter { $0 != .table }.map {
    $0 == .json
      ? Use(words: ["--json"], name: "--json", value: "json")
      : Use(words: ["--format", $0.rawValue], name: "--format", value: $0.rawValue)
  }

  /// The message the parser refuses `arguments` with, or nil when it accepts them.
  static func refusal(_ arguments: [String]) -> String? {
    do {
      _ = try Declarations.parse(arguments)
      return nil
    } catch {
      return error.localizedDescription
    }
  }

  /// What help says of each option, by its main name: `(value, other)` for "value not with
  /// other" (value nil for any), and what it goes only with, as help lists it.
  struct Stated {
    var notWith: [String: [(value: String?, other: String)]] = [:]
    var onlyWith: [String: [String]] = [:]
  }

  /// `--a, --b or --format csv|ledger`, as the labels one by one.
  static func labels(_ list: String) -> [String] {
    list.replacing(" or ", with: ", ").split(separator: ", ").flatMap { label -> [String] in
      guard label.hasPrefix("--format ") else { return [String(label)] }
      return label.dropFirst("--format ".count).split(separator: "|").map { "--format \($0)" }
    }
  }

  /// Reads the rules from the Options section of `help`, one row per option.
  static func stated(in help: String, options: [OptionSpec]) -> Stated {
    var rows: [String] = []
    for line in Declarations.section("Options:", in: help) {
      if line.hasPrefix("  -") { rows.append(line) } else if !rows.isEmpty { rows[rows.count - 1] += line }
    }
    var stated = Stated()
    for row in rows {
      let text = row.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
      guard let option = options.first(where: { text.hasPrefix($0.label + " ") }) else { continue }
      for clause in text.dropFirst(option.label.count + 1).components(separatedBy: "; ") {
        if let match = clause.wholeMatch(of: /(?:([a-z]+) )?not with (.+)/) {
          stated.notWith[option.name, default: []] += labels(String(match.2)).map {
            (match.1.map(String.init), $0)
          }
        } else if let match = clause.wholeMatch(of: /only with (.+)/) {
          stated.onlyWith[option.name, default: []].append(String(match.1))
        }
      }
    }
    return stated
  }

  /// `--interval hourly` as (`--interval`, `hourly`); a format label as itself.
  static func split(_ label: String) -> (name: String, value: String?) {
    let parts = label.split(separator: " ", maxSplits: 1).map(String.init)
    return (parts[0], parts.count > 1 ? parts[1] : nil)
  }

  /// Whether help says `first` (with its value, if named) cannot be used with `second`.
  static func says(_ stated: Stated, _ first: String, _ second: String) -> Bool {
    let (name, value) = split(first)
    return stated.notWith[name, default: []].contains { $0.value == value && $0.other == second }
  }

  @Test(arguments: Declarations.leaves)
  func everyRefusalOfTwoIsStatedInHelp(_ words: String) throws {
    let path = try Declarations.path(words)
    let stated = Self.stated(in: CommandHelp.text(for: path), options: path.last.options)
    let base = try DeclaredExclusionTests.positionals(words)
    let uses = path.last.options.flatMap(Self.uses)
    let alone = Dictionary(
      (uses + Self.formats).map { ($0.description, Self.refusal(base + $0.words)) },
      uniquingKeysWith: { first, _ in first })
    for use in uses {
      guard let message = alone[use.description] ?? nil, message.contains(" needs ") else { continue }
      let needed = try require(message.wholeMatch(of: /(.+?) needs ([^:]+)(?::.*)?/))
      expect(stated.onlyWith[use.name, default: []].contains(String(needed.2)), "\(words) \(message)")
    }
    for first in uses {
      for second in uses + Self.formats where second.name != first.name {
        guard let message = Self.refusal(base + first.words + second.words),
          message != alone[first.description] ?? nil, message != alone[second.description] ?? nil
        else { continue }
        let pair =
          message.wholeMatch(of: /(.+?) cannot be used with ([^:]+)(?::.*)?/).map { ($0.1, $0.2) }
          ?? message.wholeMatch(of: /(.+?) and (.+?) cannot be used together/).map { ($0.1, $0.2) }
        let (one, other) = try require(pair, "\(words) \(first) \(second): \(message)")
        expect(Self.says(stated, String(one), String(other)), "\(words): \(message)")
        if !other.hasPrefix("--json"), !other.hasPrefix("--format") {
          expect(Self.says(stated, String(other), String(one)), "\(words): \(message)")
        }
      }
    }
  }

  @Test(arguments: Declarations.leaves)
  func everyRuleHelpStatesIsRefused(_ words: String) throws {
    let path = try Declarations.path(words)
    let stated = Self.stated(in: CommandHelp.text(for: path), options: path.last.options)
    let base = try DeclaredExclusionTests.positionals(words)
    let options = path.last.options
    func given(_ label: String) throws -> [String] {
      let (name, value) = Self.split(label)
      if name == "--json" || name == "--format" { return label.split(separator: " ").map(String.init) }
      let spec = try require(options.first { $0.name == name }, "\(words) \(label)")
      return [name] + (spec.takesValue ? [value ?? Self.sample(spec)] : [])
    }
    for (name, rules) in stated.notWith {
      for rule in rules {
        let first = try given(rule.value.map { "\(name) \($0)" } ?? name)
        let message = Self.refusal(base + first + (try given(rule.other)))
        expectEqual(message?.contains("cannot be used"), true, "\(words) \(name) \(rule)")
      }
    }
    for (name, lists) in stated.onlyWith {
      for needs in lists {
        let message = Self.refusal(base + (try given(name)))
        expectEqual(message?.hasPrefix("\(name) needs \(needs)"), true, "\(words)")
        for label in Self.labels(needs) {
          let satisfied = Self.refusal(base + (try given(name)) + (try given(label)))
          expect(satisfied?.contains(" needs ") != true, "\(words) \(name) with \(label)")
        }
      }
    }
  }

  @Test func noOptionSaysItsRulesInItsOwnWords() {
    let all = GlobalOptions.declared.options + CommandTree.leaves.flatMap { $0.last.options }
    for option in all {
      expect(!option.help.contains("not with"), "\(option.name): \(option.help)")
      expect(!option.help.contains("only with"), "\(option.name): \(option.help)")
    }
  }

  @Test func globalHelpSaysWhatTheGlobalParserRefuses() throws {
    let help = CommandHelp.globalOptions(width: 200)
    expectContains(help, "never touch the network; not with --refresh\n")
    expectContains(help, "the stored days answered are replaced; not with --offline\n")
    var scanner = ArgumentScanner(["--refresh", "--offline"])
    var options = GlobalOptions()
    #expect(throws: UsageError.invalid("--offline and --refresh cannot be used together")) {
      try options.parse(&scanner)
    }
  }

  @Test func helpNamesTheRulesOfHistory() throws {
    let help = CommandHelp.text(for: try Declarations.path("history"), width: 200)
    expectContains(help, "today's latest price; not with --from, --to or --date\n")
    expectContains(help, "(ECB rates are daily); hourly not with --date or --interactive\n")
    expect(
      help.contains(
        "(else exit 64); not with --date, --interval hourly, --chart, --table, --json or "
          + "--format csv|ledger|beancount\n"))
    expect(
      help.contains(
        "(default: today); YYYY-MM-DD, 'today' or 'yesterday' (UTC); not with --days or --date; "
          + "only with --from\n"))
  }
}
