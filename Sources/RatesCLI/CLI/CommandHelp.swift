import Foundation

/// `--help` and the usage lines, generated from a command's declaration.
///
/// A command's help is its abstract, its usage line (arguments, then options, then groups
/// such as `[--chart | --table]`), an Arguments and an Options section from the specs, its
/// discussion and examples, then the global options and exit codes. A command with actions
/// shows every action's usage line and an Actions section instead.
enum CommandHelp {
  /// The widest line help writes, in columns.
  static let width = 92
  /// Where the text of a labelled row starts.
  static let column = 22

  /// The whole `--help` text for `path`, ending with a newline.
  static func text(for path: CommandPath) -> String {
    let type = path.last
    var sections = [
      wrap("\(path.fullName): \(type.abstract)", indent: 2).joined(separator: "\n"),
      "usage: " + usage(for: path).joined(separator: "\n       "),
    ]
    if type.subcommands.isEmpty {
      sections.append(section("Arguments:", type.arguments.map { ($0.label, $0.help) }))
      sections.append(section("Options:", type.options.map { ($0.label, $0.help) }))
    } else {
      sections.append(section("Actions:", type.subcommands.map { actionRow($0, of: type) }))
    }
    sections.append(type.discussion)
    sections.append(section("Examples:", type.examples.map { ($0, "") }))
    if !type.subcommands.isEmpty {
      sections.append(
        "See '\(path.fullName) <action> --help' for an action's arguments and options.")
    }
    sections.append(globalOptions)
    sections.append(RatesCLI.exitCodeHelp)
    return sections.filter { !$0.isEmpty }.joined(separator: "\n\n") + "\n"
  }

  /// The `Global options:` section.
  static var globalOptions: String {
    section("Global options:", GlobalOptions.Specs.all.map { ($0.label, $0.help) })
  }

  /// The usage lines for `path`, without `usage: `: one for a command, one per action for a
  /// command with actions (the default action's name in brackets).
  static func usage(for path: CommandPath) -> [String] {
    let type = path.last
    guard !type.subcommands.isEmpty else { return usageLine(path.fullName, type) }
    return type.subcommands.flatMap { action in
      let subpath = path.appending(action)
      guard action.subcommands.isEmpty else { return usage(for: subpath) }
      let name = type.runsByDefault(action) ? "\(path.fullName) [\(action.name)]" : subpath.fullName
      return usageLine(name, action)
    }
  }

  /// `rates history <BASE> [<QUOTE>] [--days N] [--chart | --table]`, wrapped under the
  /// first argument.
  static func usageLine(_ name: String, _ type: any CommandDeclaration.Type) -> [String] {
    var tokens = type.arguments.map(\.usageLabel)
    var shown = Set<OptionSpec>()
    for option in type.options where !shown.contains(option) {
      if let group = type.optionGroups.first(where: { $0.options.contains(option) }) {
        tokens.append(group.usageLabel)
        shown.formUnion(group.options)
      } else {
        tokens.append("[\(option.usageLabel)]" + (option.isRepeatable ? "..." : ""))
        shown.insert(option)
      }
    }
    let indent = String(repeating: " ", count: name.count + 1)
    let limit = width - "usage: ".count
    var lines: [String] = []
    var line = name
    var hasToken = false
    for token in tokens {
      if hasToken && line.count + 1 + token.count > limit {
        lines.append(line)
        line = indent + token
      } else {
        line += " " + token
      }
      hasToken = true
    }
    return lines + [line]
  }

  /// `list, ls` and the action's abstract, marked when `group` runs it by default.
  static func actionRow(
    _ action: any CommandDeclaration.Type, of group: any CommandDeclaration.Type
  ) -> (String, String) {
    let mark = group.runsByDefault(action) ? " (the default)" : ""
    return (action.names.joined(separator: ", "), action.abstract + mark)
  }

  /// A titled list of labelled rows, each text wrapped at ``column``; empty without rows.
  static func section(_ title: String, _ rows: [(label: String, text: String)]) -> String {
    guard !rows.isEmpty else { return "" }
    return ([title] + rows.flatMap { row($0.label, $0.text) }).joined(separator: "\n")
  }

  /// `  --days N            how many days…`, continued at ``column``; a label too long for
  /// the column gets its text on the next line.
  static func row(_ label: String, _ text: String) -> [String] {
    let head = "  " + label
    let body = wrap(text, width: width - column)
    let margin = String(repeating: " ", count: column)
    guard let first = body.first, !text.isEmpty else { return [head] }
    if head.count >= column - 1 { return [head] + body.map { margin + $0 } }
    let padded = head.padding(toLength: column, withPad: " ", startingAt: 0)
    return [padded + first] + body.dropFirst().map { margin + $0 }
  }

  /// `text` in lines of at most `width` columns, broken at spaces; later lines indented by
  /// `indent` spaces (within the width).
  static func wrap(_ text: String, width: Int = width, indent: Int = 0) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      let limit = lines.isEmpty ? width : width - indent
      if !line.isEmpty && line.count + 1 + word.count > limit {
        lines.append(line)
        line = String(word)
      } else {
        line += (line.isEmpty ? "" : " ") + word
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    let margin = String(repeating: " ", count: indent)
    return lines.enumerated().map { $0.offset == 0 ? $0.element : margin + $0.element }
  }
}
