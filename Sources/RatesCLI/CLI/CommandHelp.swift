import RateCore

/// `--help` and the usage lines, generated from a command's declaration.
///
/// A command's help is its abstract, its usage line (arguments, then options, then groups
/// such as `[--chart | --table]`), an Arguments and an Options section from the specs, its
/// discussion and examples, then one line pointing to `rates help` for the global options,
/// environment and exit codes. A command with actions shows every action's usage line and an
/// Actions section instead. Every text wraps to the width it is given (the terminal's, at most
/// ``width``).
enum CommandHelp {
  /// The widest line help writes, in columns.
  static let width = 92
  /// The narrowest width help wraps to.
  static let minimumWidth = 40
  /// Where the text of a labelled row starts.
  static let column = 22
  /// The line a command's help ends with.
  static let globalPointer = "Global options, environment and exit codes: see 'rates help'."

  /// The width help wraps to on a terminal (or `COLUMNS`) `columns` wide.
  static func width(forTerminal columns: Int) -> Int {
    min(max(columns, minimumWidth), width)
  }

  /// The whole `--help` text for `path`, ending with a newline.
  static func text(for path: CommandPath, width: Int = width) -> String {
    let type = path.last
    let title = "\(path.fullName): "
    // The abstract's continuation lines align under its first word where that leaves room.
    let indent = width - title.count >= 40 ? title.count : 2
    var sections = [
      wrap(title + type.abstract, width: width, indent: indent).joined(separator: "\n"),
      "usage: " + usage(for: path, width: width).joined(separator: "\n       "),
    ]
    if type.subcommands.isEmpty {
      sections.append(section("Arguments:", type.arguments.map { ($0.label, $0.help) }, width: width))
      let rules = OptionRules(type)
      sections.append(
        section("Options:", type.options.map { ($0.label, rules.helpText($0)) }, width: width))
    } else {
      sections.append(
        section("Actions:", type.subcommands.map { actionRow($0, of: type) }, width: width))
    }
    sections.append(reflow(type.discussion, width: width))
    sections.append(examples(type.examples, width: width))
    if !type.subcommands.isEmpty {
      sections.append(
        wrap(
          "See '\(path.fullName) <action> --help' for an action's arguments and options.",
          width: width
        ).joined(separator: "\n"))
    }
    sections.append(wrap(globalPointer, width: width).joined(separator: "\n"))
    return sections.filter { !$0.isEmpty }.joined(separator: "\n\n") + "\n"
  }

  /// The `Examples:` section, each command line indented by two; one longer than `width`
  /// goes on over further lines as a shell reads it, each but the last ending in ` \`, broken
  /// only between words (never inside quotes). Empty without examples.
  static func examples(_ lines: [String], width: Int = width) -> String {
    guard !lines.isEmpty else { return "" }
    return (["Examples:"] + lines.flatMap { exampleLines($0, width: width) })
      .joined(separator: "\n")
  }

  /// One example, continued with ` \` over as many lines as `width` needs.
  static func exampleLines(_ example: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = "  "
    for word in shellWords(example) {
      let head = lines.isEmpty ? "  " : "      "
      if line != head && line.count + 1 + word.count + 2 > width {
        lines.append(line + " \\")
        line = "      " + word
      } else {
        line += (line == head ? "" : " ") + word
      }
    }
    return lines + [line]
  }

  /// `text` split at the spaces outside quotes, each word as written (quotes kept).
  static func shellWords(_ text: String) -> [String] {
    var words: [String] = []
    var word = ""
    var quote: Character?
    for character in text {
      if character == " " && quote == nil {
        if !word.isEmpty { words.append(word) }
        word = ""
        continue
      }
      if character == "'" || character == "\"" {
        quote = quote == character ? nil : (quote ?? character)
      }
      word.append(character)
    }
    if !word.isEmpty { words.append(word) }
    return words
  }

  /// The `Global options:` section.
  static func globalOptions(width: Int = width) -> String {
    let rules = GlobalOptions.rules
    return section(
      "Global options:", GlobalOptions.declared.options.map { ($0.label, rules.helpText($0)) }, width: width)
  }

  /// The usage lines for `path`, without `usage: `: one for a command, one per action for a
  /// command with actions (the default action's name in brackets).
  static func usage(for path: CommandPath, width: Int = width) -> [String] {
    let type = path.last
    guard !type.subcommands.isEmpty else { return usageLine(path.fullName, type, width: width) }
    return type.subcommands.flatMap { action in
      let subpath = path.appending(action)
      guard action.subcommands.isEmpty else { return usage(for: subpath, width: width) }
      let name = type.runsByDefault(action) ? "\(path.fullName) [\(action.name)]" : subpath.fullName
      return usageLine(name, action, width: width)
    }
  }

  /// `rates history <BASE> [<QUOTE>] [--days N] [--chart | --table]`, wrapped under the
  /// first argument.
  static func usageLine(
    _ name: String, _ type: any CommandDeclaration.Type, width: Int = width
  ) -> [String] {
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
  static func section(
    _ title: String, _ rows: [(label: String, text: String)], width: Int = width
  ) -> String {
    guard !rows.isEmpty else { return "" }
    return ([title] + rows.flatMap { row($0.label, $0.text, width: width) })
      .joined(separator: "\n")
  }

  /// `  --days N            how many days…`, continued at ``column``; a label too long for
  /// the column gets its text on the next line.
  static func row(_ label: String, _ text: String, width: Int = width) -> [String] {
    let head = "  " + label
    let body = wrap(text, width: width - column)
    let margin = String(repeating: " ", count: column)
    guard let first = body.first, !text.isEmpty else { return [head] }
    if head.count >= column - 1 { return [head] + body.map { margin + $0 } }
    let padded = head.padded(toLength: column)
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

  /// `text` (a discussion) rewrapped to `width`: the lines of a paragraph join and wrap
  /// again; an indented line (a list row) wraps on its own, continued under its text (after
  /// the first run of two spaces past its indent), and a line indented just that far continues
  /// the row above; blank lines stay.
  static func reflow(_ text: String, width: Int) -> String {
    var out: [String] = []
    var paragraph: [Substring] = []
    var row: String?
    func flush() {
      if !paragraph.isEmpty { out += wrap(paragraph.joined(separator: " "), width: width) }
      if let row { out += wrapIndented(row, width: width) }
      paragraph = []
      row = nil
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let lead = line.prefix { $0 == " " }.count
      if line.trimming(.whitespaces).isEmpty {
        flush()
        out.append("")
      } else if lead > 0 {
        if let current = row, let hang = textColumn(current), lead == hang {
          row = current + " " + line.dropFirst(lead)
          continue
        }
        flush()
        row = String(line)
      } else {
        if row != nil { flush() }
        paragraph.append(line)
      }
    }
    flush()
    return out.joined(separator: "\n")
  }

  /// Where the text of a list row starts: after its label and the run of spaces after it;
  /// nil for a row without a label.
  static func textColumn(_ line: String) -> Int? {
    let lead = line.prefix { $0 == " " }.count
    let body = line.dropFirst(lead)
    guard let gap = body.firstRange(of: "  ") else { return nil }
    let spaces = body[gap.lowerBound...].prefix { $0 == " " }.count
    return lead + body.distance(from: body.startIndex, to: gap.lowerBound) + spaces
  }

  /// An indented list row wrapped to `width`, continued under its text; the label and the
  /// spaces after it are kept as they are.
  static func wrapIndented(_ line: String, width: Int) -> [String] {
    guard line.count > width else { return [line] }
    let lead = line.prefix { $0 == " " }.count
    var hang = textColumn(line) ?? lead
    if width - hang < 20 { hang = lead }
    let head = String(line.prefix(hang))
    let text = wrap(String(line.dropFirst(hang)), width: width - hang)
    let margin = String(repeating: " ", count: hang)
    return [head + (text.first ?? "")] + text.dropFirst().map { margin + $0 }
  }
}
