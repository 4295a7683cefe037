import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Each command's options and arguments are declared once; this suite checks that the parser,
/// `--help` and the completion scripts all agree with that declaration, for every command and
/// action, so that an option cannot be added to one of them and missing from another.
@Suite struct DeclarationAgreementTests {
  /// Every command that runs, by the words after `rates`: `history`, `ledger add`, …
  static let leaves = CommandTree.leaves.map(\.words)

  static func path(_ words: String) throws -> CommandPath {
    try require(try CommandTree.path(named: words.split(separator: " ").map(String.init)))
  }

  /// Parses a whole command line the way `rates` does, without running anything.
  static func parse(_ arguments: [String]) throws(UsageError) -> (CommandPath, any RatesCommand) {
    var scanner = ArgumentScanner(arguments)
    var options = GlobalOptions()
    try options.parse(&scanner)
    guard let name = scanner.positional() else { throw .missingArgument("command") }
    let path = try CommandTree.resolveActions(
      from: CommandPath(try CommandTree.command(named: name)), scanner: &scanner, lenient: false)
    return (
      path,
      try RatesCLI.parse(
        path, scanner, defaults: CommandDefaults(currency: "USD"),
        format: options.format)
    )
  }

  /// The arguments of an example (without `rates`), up to a pipe or a redirection.
  static func arguments(ofExample example: String) -> [String] {
    var words: [String] = []
    var word = ""
    var quote: Character?
    var started = false
    for character in example {
      if let open = quote {
        if character == open { quote = nil } else { word.append(character) }
      } else if character == "'" || character == "\"" {
        quote = character
        started = true
      } else if character == " " {
        if started { words.append(word) }
        word = ""
        started = false
      } else if "|<>".contains(character) {
        break
      } else {
        word.append(character)
        started = true
      }
    }
    if started { words.append(word) }
    return Array(words.dropFirst())
  }

  /// The first example's arguments: a command line that parses.
  static func baseArguments(_ words: String) throws -> [String] {
    let example = try require(try path(words).last.examples.first, "\(words) has no example")
    return arguments(ofExample: example)
  }

  // MARK: - Examples

  /// The lists help, completion and the rules read come from a command's `Declared` type: each
  /// kind of declaration in the order it is declared, nothing else of it.
  @Test func declarationsListEachKindInTheirOrder() {
    struct Sample: Declarations {
      let second = Option.flag("--second", help: "declared first")
      let argument = Argument.required("A", help: "between the options")
      let first = Option.option("--first", value: "X", help: "declared last")
      let other = "not a declaration"
    }
    expectEqual(Sample().options.map(\.name), ["--second", "--first"])
    expectEqual(Sample().arguments.map(\.name), ["A"])
    expect(NoDeclarations().options.isEmpty)
  }

  @Test(arguments: leaves)
  func everyExampleParsesAsTheCommandItDocuments(_ words: String) throws {
    let examples = try Self.path(words).last.examples
    expect(!examples.isEmpty, "\(words) has no example")
    for example in examples {
      expect(example.hasPrefix("rates "), "\(example)")
      do {
        let (parsed, _) = try Self.parse(Self.arguments(ofExample: example))
        expectEqual(parsed.words, words, "'\(example)' runs 'rates \(parsed.words)'")
      } catch {
        Issue.record("'\(example)' does not parse: \(error.localizedDescription)")
      }
    }
  }

  // MARK: - Parser

  /// Each declared spelling is read by the parser as declared: an option without its value
  /// is a missing value, a flag with one is refused as a flag.
  @Test(arguments: leaves)
  func parserAcceptsEveryDeclaredOption(_ words: String) throws {
    let base = try Self.baseArguments(words)
    for option in try Self.path(words).last.options {
      for name in option.names {
        let arguments = base + [option.takesValue ? name : "\(name)=x"]
        let expected: UsageError =
          option.takesValue ? .missingValue(option: name) : .flagTakesNoValue(option: name)
        #expect(throws: expected, "\(words) \(name)") { try Self.parse(arguments) }
      }
    }
  }

  /// The parser asks the scanner for exactly the declared spellings: an option read by a name
  /// the declaration lacks (which help and completions would not show) fails here.
  @Test(arguments: leaves)
  func parserReadsOnlyDeclaredNames(_ words: String) throws {
    let path = try Self.path(words)
    var scanner = ArgumentScanner(try Self.baseArguments(words))
    var options = GlobalOptions()
    try options.parse(&scanner)
    expectEqual(scanner.positional(), path.root.name)
    let resolved = try CommandTree.resolveActions(
      from: CommandPath(path.root), scanner: &scanner, lenient: false)
    expectEqual(resolved.words, words)
    let global = scanner.askedFor
    let type = try require(path.last as? any RatesCommand.Type)
    _ = try type.init(parsing: &scanner, defaults: CommandDefaults(currency: "USD"))
    expectEqual(scanner.askedFor.subtracting(global), Set(path.last.options.flatMap(\.names)))
    let parsedByRatesCLI: Set = ["--help", "-h", "--version"]
    expectEqual(global, Set(GlobalOptions.declared.options.flatMap(\.names)).subtracting(parsedByRatesCLI))
  }

  /// The parser reads positional arguments only by the command's declared ones, and every
  /// declared one on some example: an argument read by a declaration the command does not
  /// make (which help and completions would not show), or declared but never read, fails here.
  @Test(arguments: leaves)
  func parserReadsExactlyTheDeclaredArguments(_ words: String) throws {
    let path = try Self.path(words)
    let declared = Set(path.last.arguments)
    let runnable = path.last.runnable
    let type = try require(runnable)
    var read: Set<ArgumentSpec> = []
    for example in path.last.examples {
      var scanner = ArgumentScanner(Self.arguments(ofExample: example))
      var options = GlobalOptions()
      try options.parse(&scanner)
      expectEqual(scanner.positional(), path.root.name)
      _ = try CommandTree.resolveActions(from: CommandPath(path.root), scanner: &scanner, lenient: false)
      _ = try type.init(
        parsing: &scanner, defaults: CommandDefaults(currency: "USD"))
      expect(scanner.argumentsAskedFor.isSubset(of: declared), "'\(example)' reads an undeclared argument")
      read.formUnion(scanner.argumentsAskedFor)
    }
    expectEqual(read, declared, "\(words): no example reads \(declared.subtracting(read).map(\.name))")
  }

  /// A required argument left out is named as its declaration says.
  @Test func aMissingArgumentIsNamedByItsDeclaration() {
    let cases: [([String], String)] = [
      (["convert"], "amount"), (["convert", "1"], "from"), (["convert", "1", "USD"], "to"),
      (["history"], "base"), (["pairs", "add", "GBP"], "quote"), (["pairs", "remove"], "pair"),
      (["ledger", "add", "1", "USD", "--sell"], "amount"),
      (["ledger", "add", "1", "USD", "2", "--sell"], "currency"), (["ledger", "rate", "USD"], "quote"),
      (["ledger", "remove"], "id"), (["ledger", "import"], "file"), (["config", "set"], "key"),
      (["config", "set", "currency"], "value"), (["completions"], "shell"), (["info"], "coin"),
      (["coins", "add"], "coin"), (["search"], "query"),
    ]
    for (arguments, name) in cases {
      #expect(throws: UsageError.missingArgument(name), "\(arguments)") { try Self.parse(arguments) }
    }
  }

  /// Every option some other command declares is refused here: as unknown, or as not
  /// applying to this action.
  @Test(arguments: leaves)
  func parserRefusesEveryUndeclaredOption(_ words: String) throws {
    let base = try Self.baseArguments(words)
    let own = Set(try Self.path(words).last.options.flatMap(\.names))
    let others = Set(CommandTree.leaves.flatMap { $0.last.options.flatMap(\.names) })
      .subtracting(own).sorted()
    for name in others {
      do {
        _ = try Self.parse(base + [name])
        Issue.record("\(words) accepts \(name), which it does not declare")
      } catch {
        switch error {
        case .unknownOption(name): break
        case .invalid(let text) where text.hasPrefix("'\(name)' does not apply"): break
        default: Issue.record("\(words) \(name): \(error)")
        }
      }
    }
  }

  /// Options are shared by name only when they read alike, since the scripts (and the action
  /// word search) look an option up by name alone.
  @Test func anOptionNameMeansTheSameEverywhere() {
    var seen: [String: OptionSpec] = [:]
    let all = GlobalOptions.declared.options + CommandTree.leaves.flatMap { $0.last.options }
    for option in all {
      for name in option.names {
        if let other = seen[name] {
          expectEqual(other.takesValue, option.takesValue, "\(name)")
          expectEqual(other.completion, option.completion, "\(name)")
        }
        seen[name] = option
      }
    }
    let globals = Set(GlobalOptions.declared.options.flatMap(\.names))
    for path in CommandTree.leaves {
      let own = path.last.options.flatMap(\.names)
      expect(Set(own).isDisjoint(with: globals), "\(path.words) redeclares a global option")
      expectEqual(Set(own).count, own.count, "\(path.words) declares an option twice")
    }
  }

  @Test func usageGroupsHoldOnlyDeclaredOptions() {
    for path in CommandTree.leaves {
      for group in path.last.optionGroups {
        expect(Set(group.options).isSubset(of: path.last.options), "\(path.words)")
      }
    }
  }

  @Test(arguments: CommandTree.all.filter { !$0.last.subcommands.isEmpty }.map(\.words))
  func everyActionIsDispatchedAndATypoGetsASuggestion(_ words: String) throws {
    let group = try Self.path(words)
    for action in group.last.subcommands {
      for name in action.names {
        var scanner = ArgumentScanner([name])
        let path = try CommandTree.resolveActions(from: group, scanner: &scanner, lenient: false)
        expectEqual(ObjectIdentifier(path.last), ObjectIdentifier(action), "\(words) \(name)")
      }
      var scanner = ArgumentScanner([action.name + "x"])
      #expect(
        throws: UsageError.unknownAction(
          action.name + "x", command: group.fullName, suggestion: action.name)
      ) { try CommandTree.resolveActions(from: group, scanner: &scanner, lenient: false) }
    }
  }

  // MARK: - Help

  /// The option spellings in `lines`, such as `--days` and `-h`.
  static func optionNames(in lines: [String]) -> Set<String> {
    let pattern = /(?:^|[^\w<-])(--?[a-z][a-z0-9-]*)/
    return Set(lines.flatMap { line in line.matches(of: pattern).map { String($0.output.1) } })
  }

  /// The lines of a help section, from its title to the next blank line.
  static func section(_ title: String, in help: String) -> [String] {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: title) else { return [] }
    return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
  }

  /// A section's labels: what each row shows before its text, at column 2.
  static func labels(_ title: String, in help: String) -> [String] {
    section(title, in: help).filter { !$0.hasPrefix("   ") }.map { line in
      let label = line.dropFirst(2)
      let end = label.range(of: "  ")?.lowerBound ?? label.endIndex
      return String(label[..<end])
    }
  }

  @Test(arguments: leaves)
  func helpShowsExactlyTheDeclaredOptionsAndArguments(_ words: String) throws {
    let path = try Self.path(words)
    let help = CommandHelp.text(for: path)
    let usage = CommandHelp.usage(for: path)
    expect(help.contains("usage: " + usage.joined(separator: "\n       ")))
    let options = path.last.options
    expectEqual(Self.optionNames(in: usage), Set(options.map(\.name)), "usage of \(words)")
    let optionLabels = Self.labels("Options:", in: help)
    expectEqual(Self.optionNames(in: optionLabels), Set(options.flatMap(\.names)), "\(words)")
    expectEqual(optionLabels, options.map(\.label))
    let arguments = path.last.arguments
    expectEqual(Self.labels("Arguments:", in: help), arguments.map(\.label), "\(words)")
    for argument in arguments { expectContains(usage.joined(), argument.label) }
    for example in path.last.examples { expect(help.contains("  " + example + "\n")) }
  }

  @Test(arguments: CommandTree.all.filter { !$0.last.subcommands.isEmpty }.map(\.words))
  func groupHelpListsEveryAction(_ words: String) throws {
    let path = try Self.path(words)
    let help = CommandHelp.text(for: path)
    let actions = path.last.subcommands
    expectEqual(Self.labels("Actions:", in: help), actions.map { $0.names.joined(separator: ", ") })
    expectEqual(CommandHelp.usage(for: path).filter { $0.hasPrefix("rates") }.count, actions.count)
    let allOptions = CommandTree.leaves(below: path).flatMap { $0.last.options.map(\.name) }
    expectEqual(Self.optionNames(in: CommandHelp.usage(for: path)), Set(allOptions))
  }

  @Test func helpFitsInNinetyTwoColumns() {
    var texts = CommandTree.all.map { CommandHelp.text(for: $0) }
    texts.append(RatesCLI.mainHelp())
    for text in texts {
      for line in text.split(separator: "\n") {
        expect(line.count <= CommandHelp.width, "\(line)")
      }
    }
  }
}
