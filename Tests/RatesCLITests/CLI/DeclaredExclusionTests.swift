import Foundation
import RatesExpectations
import Testing

@testable import RatesCLI

/// The options a command declares as excluding each other (its ``OptionRule``s and
/// ``OptionGroup``s) are refused by the parser, for every command, from the declaration
/// alone: no command re-checks them by hand.
@Suite struct DeclaredExclusionTests {
  typealias Declarations = DeclarationAgreementTests

  /// The words that give `use`: the flag, or the option and a value it accepts.
  static func words(_ use: OptionUse) -> [String] {
    guard use.spec.takesValue else { return [use.spec.name] }
    if let value = use.value { return [use.spec.name, value] }
    if case .choices(let choices)? = use.spec.completion { return [use.spec.name, choices.values[0]] }
    return [use.spec.name, use.spec.valueName == "YYYY-MM-DD" ? "2026-01-05" : "7"]
  }

  /// The first example's arguments up to its first option: the command and its positionals.
  static func positionals(_ words: String) throws -> [String] {
    Array(try Declarations.baseArguments(words).prefix { !$0.hasPrefix("-") })
  }

  @Test(arguments: Declarations.leaves)
  func everyDeclaredExclusionIsRefused(_ words: String) throws {
    let path = try Declarations.path(words)
    let type = try require(path.last as? any RatesCommand.Type)
    for exclusion in type.exclusions {
      for other in exclusion.excluded {
        let arguments = try Self.positionals(words) + Self.words(exclusion.option) + Self.words(other)
        let message =
          "\(exclusion.option.label) cannot be used with \(other.label)"
          + (exclusion.reason.map { ": " + $0 } ?? "")
        #expect(throws: UsageError.invalid(message), "\(arguments)") {
          try Declarations.parse(arguments)
        }
      }
    }
  }

  @Test(arguments: Declarations.leaves)
  func twoOptionsOfAGroupAreRefused(_ words: String) throws {
    let path = try Declarations.path(words)
    for group in path.last.optionGroups where group.options.count > 1 {
      let pair = Array(group.options.prefix(2))
      let arguments = try Self.positionals(words) + pair.flatMap { Self.words(OptionUse(spec: $0)) }
      let exclusion = (path.last as? any RatesCommand.Type)?.exclusions.lazy
        .first { ex in ex.option.spec == pair[1] && ex.excluded.contains { $0.spec == pair[0] } }
      let message =
        exclusion.map { "\($0.option.label) cannot be used with \(pair[0].name)" }
        ?? "\(pair[0].name) and \(pair[1].name) cannot be used together"
      #expect(throws: UsageError.invalid(message), "\(arguments)") {
        try Declarations.parse(arguments)
      }
    }
  }

  /// A whole-number option's range and default are declared once: its help writes them and
  /// the parser reads by them.
  @Test(arguments: Declarations.leaves)
  func everyDeclaredNumberIsReadAndShownAsDeclared(_ words: String) throws {
    let path = try Declarations.path(words)
    for option in path.last.options {
      guard let rule = option.integerRule else { continue }
      expectContains(option.help, rule.rangeText, "\(words) \(option.name)")
      if let value = rule.defaultValue {
        expectContains(option.help, "(default \(value)", "\(words) \(option.name)")
      }
      let base = try Self.positionals(words)
      #expect(throws: UsageError.self, "\(words) \(option.name)") {
        try Declarations.parse(base + [option.name, String(rule.range.upperBound + 1)])
      }
      #expect(throws: Never.self, "\(words) \(option.name)") {
        try Declarations.parse(base + [option.name, String(rule.range.lowerBound)])
      }
    }
  }

  @Test func aLeftOutNumberIsItsDeclaredDefault() throws {
    var scanner = ArgumentScanner([])
    expectEqual(try scanner.read(LedgerCommand.Rate.declared.days), 3)
    expectEqual(try scanner.read(HistoryCommand.declared.days), 28)
    expectEqual(try scanner.read(LedgerCommand.List.declared.days), nil)
    var given = ArgumentScanner(["--days", "7"])
    expectEqual(try given.read(LedgerCommand.Rate.declared.days), 7)
  }

  @Test func theCommandsKeepTheirWords() throws {
    let cases: [([String], String)] = [
      (["history", "BTC", "--interactive", "--date", "2026-01-05"], "--interactive cannot be used with --date"),
      (
        ["history", "BTC", "--date", "2026-01-05", "--interval", "HOURLY"],
        "--interval hourly cannot be used with --date: a day has one rate"
      ),
      (["stats", "USD", "LBP", "--ledger", "--from", "2026-01-05"], "--from cannot be used with --ledger: use --days"),
      (["convert", "1", "USD", "EUR", "--ledger", "--date", "2026-01-05"], "--date cannot be used with --ledger"),
      (["ledger", "list", "--with", "Sam", "--with-anyone"], "--with and --with-anyone cannot be used together"),
      (["history", "BTC", "--table", "--chart"], "--chart and --table cannot be used together"),
      (["history", "BTC", "--interactive", "--format", "csv"], "--interactive cannot be used with --format csv"),
      (["history", "BTC", "--days", "3", "--to", "2026-01-05"], "--days cannot be used with --to: pick one"),
      (["history", "BTC", "--to", "2026-01-05"], "--to needs --from: give the first day too"),
      (["ledger", "add", "1", "USD", "--deposit", "--sell"], "--sell cannot be used with --deposit"),
      (
        ["ledger", "add", "1", "USD", "2", "EUR", "--sell", "--cost", "2 EUR"],
        "--cost needs --deposit: an exchange's cost is its FOR-AMOUNT"
      ),
      (["ledger", "export", "--csv", "--format", "ledger"], "--csv cannot be used with --format ledger"),
      (["ledger", "export", "--csv", "--in", "EUR"], "--in needs --format ledger|beancount"),
      (["watch", "BTC", "--exit-on-alert"], "--exit-on-alert needs --alert"),
    ]
    for (arguments, message) in cases {
      #expect(throws: UsageError.invalid(message), "\(arguments)") { try Declarations.parse(arguments) }
    }
    // A daily interval is no hourly one: the rule names the value.
    #expect(throws: Never.self) {
      try Declarations.parse(["history", "EUR", "USD", "--date", "2026-01-05", "--interval", "daily"])
    }
  }
}
