import RateCore

/// A command and the commands above it: `[LedgerCommand, LedgerCommand.Add]` is
/// `rates ledger add`.
struct CommandPath: Sendable {
  /// The commands, the top-level one first; never empty.
  private(set) var types: [any CommandDeclaration.Type]

  /// A top-level command.
  init(_ root: any CommandDeclaration.Type) { types = [root] }

  /// The top-level command.
  var root: any CommandDeclaration.Type { types[0] }
  /// The command this path names.
  var last: any CommandDeclaration.Type { types[types.count - 1] }
  /// The path without its last command; nil for a top-level command.
  var parent: CommandPath? {
    guard types.count > 1 else { return nil }
    var parent = self
    parent.types.removeLast()
    return parent
  }
  /// The words after `rates`: `ledger add`.
  var words: String { types.map { $0.name }.joined(separator: " ") }
  /// `rates ledger add`.
  var fullName: String { "rates " + words }

  /// This path with `type` below it.
  func appending(_ type: any CommandDeclaration.Type) -> CommandPath {
    var path = self
    path.types.append(type)
    return path
  }
}

/// Finding commands and actions by name, and walking every declaration.
enum CommandTree {
  /// The top-level command called `name`.
  ///
  /// - Throws: `UsageError.unknownCommand` with the closest name, if one is close.
  static func command(named name: String) throws(UsageError) -> any CommandDeclaration.Type {
    if let type = RatesCLI.commands.first(where: { $0.names.contains(name) }) { return type }
    let names = RatesCLI.commands.flatMap { $0.names }
    throw .unknownCommand(name, suggestion: EditDistance.suggestion(for: name, in: names))
  }

  /// The path named by `words`, as in `rates help ledger add`.
  ///
  /// - Throws: `UsageError.unknownCommand` or `.unknownAction`.
  static func path(named words: [String]) throws(UsageError) -> CommandPath? {
    guard let first = words.first else { return nil }
    var path = CommandPath(try command(named: first))
    for word in words.dropFirst() {
      path = path.appending(try action(named: word, in: path))
    }
    return path
  }

  /// Follows actions down from `path`: while its command has subcommands, the next action
  /// word picks one (options before it are skipped, with their values), or the default
  /// runs when there is none.
  ///
  /// - Parameter lenient: Stop at the deepest command named, neither throwing nor taking a
  ///   default (for `--help`: `rates ledger --help` is the help of `ledger`, not `list`).
  /// - Throws: `UsageError.unknownAction` with the closest action, or
  ///   `.missingArgument("action")` for a group without a default.
  static func resolveActions(
    from path: CommandPath, scanner: inout ArgumentScanner, lenient: Bool
  ) throws(UsageError) -> CommandPath {
    var path = path
    while !path.last.subcommands.isEmpty {
      let word = scanner.actionWord {
        Set(leaves(below: path).flatMap { $0.last.options.filter(\.takesValue) }.flatMap(\.names))
      }
      if let word {
        do {
          path = path.appending(try action(named: word, in: path))
        } catch {
          if lenient { return path }
          throw error
        }
      } else if lenient {
        return path
      } else if let fallback = path.last.defaultSubcommand {
        path = path.appending(fallback)
      } else {
        throw .missingArgument("action")
      }
    }
    return path
  }

  /// The action of `path`'s command called `word`.
  static func action(
    named word: String, in path: CommandPath
  ) throws(UsageError) -> any CommandDeclaration.Type {
    let actions = path.last.subcommands
    if let type = actions.first(where: { $0.names.contains(word) }) { return type }
    let suggestion = EditDistance.suggestion(for: word, in: actions.flatMap { $0.names })
    throw .unknownAction(word, command: path.fullName, suggestion: suggestion)
  }

  /// Refuses an option that a sibling action declares but `path`'s action does not, with
  /// a sentence saying so (`'--csv' does not apply to 'rates ledger add'`); any other
  /// unknown option is left for the scanner's `finish()`.
  static func refuseSiblingOptions(
    _ path: CommandPath, scanner: ArgumentScanner
  ) throws(UsageError) {
    guard let parent = path.parent else { return }
    let own = Set(path.last.options.flatMap(\.names))
    let siblings = Set(leaves(below: parent).flatMap { $0.last.options }.flatMap(\.names))
    guard
      let stray = scanner.remainingOptionNames.first(where: {
        siblings.contains($0) && !own.contains($0)
      })
    else { return }
    throw .invalid(
      "'\(stray)' does not apply to '\(path.fullName)': see '\(parent.fullName) --help'")
  }

  /// Refuses a command line that breaks `type`'s declared rules (``OptionRules``): an
  /// ``OptionRule`` (`--interactive cannot be used with --chart`, also with the output
  /// `format`), two options of one ``OptionGroup`` (`--chart and --table cannot be used
  /// together`) or an ``OptionRule`` (`--to needs --from`). Checked before the command
  /// reads its options, so no command re-checks them.
  static func refuseExclusions(
    _ type: any CommandDeclaration.Type, scanner: ArgumentScanner, format: OutputFormat?
  ) throws(UsageError) {
    if let message = OptionRules(type).refusal(in: scanner, format: format) {
      throw .invalid(message)
    }
  }

  /// Every command that runs, with its path, in help order: top-level commands, and the
  /// actions of those that have them.
  static var leaves: [CommandPath] {
    RatesCLI.commands.flatMap { leaves(below: CommandPath($0)) }
  }

  /// `path` itself if it has no actions, else the commands below it that run.
  static func leaves(below path: CommandPath) -> [CommandPath] {
    let actions = path.last.subcommands
    guard !actions.isEmpty else { return [path] }
    return actions.flatMap { leaves(below: path.appending($0)) }
  }

  /// Every command and group, top-level ones first within each branch.
  static var all: [CommandPath] {
    func walk(_ path: CommandPath) -> [CommandPath] {
      [path] + path.last.subcommands.flatMap { walk(path.appending($0)) }
    }
    return RatesCLI.commands.flatMap { walk(CommandPath($0)) }
  }
}
