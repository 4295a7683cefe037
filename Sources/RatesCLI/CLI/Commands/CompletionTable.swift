/// What the completion scripts know, derived from the command declarations: the commands,
/// their actions, each command's and action's options, which options take a value and what
/// completes it, and what completes each argument.
///
/// ``CompletionScripts`` writes it out for bash, zsh and fish. Scripts match a command and
/// its action as one `command/action` word, so patterns such as `ledger/add`,
/// `ledger/remove|ledger/rm` (aliases), `ledger/` (no action typed yet: the default's) and
/// `history/*` (a command without actions, whatever its first argument) work alike in all
/// three shells.
struct CompletionTable: Sendable {
  /// Options for the command and action one pattern matches.
  struct FlagEntry: Sendable, Equatable {
    /// The command.
    var command: String
    /// The action's names; empty for any action (or none).
    var actions: [String]
    /// Whether the entry also applies when no action is typed yet (the default action).
    var isDefault: Bool
    /// The options, in declaration order.
    var flags: [String]
  }

  /// What completes the arguments of the commands one pattern matches.
  struct ArgumentRule: Sendable, Equatable {
    /// The command.
    var command: String
    /// The action's names; empty for a command without actions.
    var actions: [String]
    /// From which position on (counting the action, if any, as 0) which kind completes an
    /// argument, highest position first: the first step at or below the position wins. A kind
    /// is the scripts' name (`coins,currencies`, `keys`, `files`), empty for nothing.
    var steps: [Step]

    /// One step: from `from` on, `kind`.
    struct Step: Sendable, Equatable {
      var from: Int
      var kind: String
    }
  }

  /// The top-level commands with their abstracts, in help order.
  var commands: [(name: String, abstract: String)]
  /// Every spelling of every global option.
  var globalFlags: [String]
  /// Every spelling of every option that takes a value, with its kind (nil for a free value),
  /// sorted by name.
  var valueOptions: [(option: String, kind: String?)]
  /// The options of each command and action.
  var flags: [FlagEntry]
  /// The words that may follow a command as its first argument: its action names, and for
  /// `help`, the commands.
  var actions: [(command: String, words: [String])]
  /// What completes arguments.
  var rules: [ArgumentRule]
  /// The fixed word lists, by name, for the scripts' word function.
  var choices: [Choices]

  /// The table of `rates` itself.
  static var current: CompletionTable {
    CompletionTable(commands: RatesCLI.commands, globals: GlobalOptions.declared.options)
  }

  /// Builds the table from top-level declarations and the global options.
  init(commands: [any CommandDeclaration.Type], globals: [OptionSpec]) {
    let leaves = commands.flatMap { CommandTree.leaves(below: CommandPath($0)) }
    self.commands = commands.map { ($0.name, $0.abstract) }
    globalFlags = globals.flatMap(\.names)
    let allOptions = globals + leaves.flatMap { $0.last.options }
    var kinds: [String: String?] = [:]
    for option in allOptions where option.takesValue {
      for name in option.names { kinds.updateValue(option.completion?.scriptName, forKey: name) }
    }
    valueOptions = kinds.keys.sorted().map { ($0, kinds[$0] ?? nil) }
    flags = leaves.compactMap(Self.flagEntry)
    actions =
      commands.filter { !$0.subcommands.isEmpty }.map { command in
        (command.name, command.subcommands.map { $0.name })
      } + [("help", commands.map { $0.name })]
    rules = leaves.compactMap(Self.rule)
    let completions =
      allOptions.compactMap(\.completion)
      + leaves.flatMap { $0.last.arguments.compactMap(\.completion) }
    var seen = Set<String>()
    choices = completions.compactMap { completion in
      guard case .choices(let list) = completion, seen.insert(list.name).inserted else {
        return nil
      }
      return list
    }
  }

  /// The command and action names of `path`: `("ledger", ["remove", "rm"], false)`.
  static func pattern(_ path: CommandPath) -> (command: String, actions: [String], isDefault: Bool) {
    guard let parent = path.parent else { return (path.root.name, [], false) }
    return (path.root.name, path.last.names, parent.last.runsByDefault(path.last))
  }

  /// The options of the command `path` names, or nil when it has none.
  static func flagEntry(_ path: CommandPath) -> FlagEntry? {
    let flags = path.last.options.flatMap(\.names)
    guard !flags.isEmpty else { return nil }
    let (command, actions, isDefault) = pattern(path)
    return FlagEntry(command: command, actions: actions, isDefault: isDefault, flags: flags)
  }

  /// The argument rule of the command `path` names, or nil when nothing completes its
  /// arguments: one step per run of arguments completed alike, the last argument also
  /// covering any after it.
  static func rule(_ path: CommandPath) -> ArgumentRule? {
    let (command, actions, _) = pattern(path)
    let offset = actions.isEmpty ? 0 : 1
    var steps: [ArgumentRule.Step] = []
    for (index, argument) in path.last.arguments.enumerated() {
      let kind = argument.completion?.scriptName ?? ""
      if steps.last?.kind == kind { continue }
      steps.append(ArgumentRule.Step(from: index + offset, kind: kind))
    }
    while steps.first?.kind == "" { steps.removeFirst() }
    guard !steps.isEmpty else { return nil }
    return ArgumentRule(command: command, actions: actions, steps: steps.reversed())
  }

  /// The entries as the bash and zsh scripts match them: a default action's options also
  /// under the pattern for no action typed yet (`ledger/`).
  var flagsByPattern: [FlagEntry] {
    flags
      + flags.filter(\.isDefault).map {
        FlagEntry(command: $0.command, actions: [""], isDefault: true, flags: $0.flags)
      }
  }
}
