import Foundation

/// One `rates …` command line from the documentation, read the way a shell would: words
/// (quotes, backslashes), `# comments`, one `| jq [-r] FILTER`, and `>`, `>>` or `<` to a
/// file. A line with `;` or `&&` holds several.
struct DocsExample: Equatable, CustomStringConvertible {
  /// The words after `rates`.
  var arguments: [String]
  /// The jq filter stdout is piped into, and whether it prints raw strings (`-r`).
  var jq: (filter: String, raw: Bool)?
  /// The file stdout is redirected to.
  var output: String?
  /// The file stdin is read from.
  var input: String?
  /// Where it was found, for failure messages.
  var origin: String

  var description: String { "\(origin): rates \(arguments.joined(separator: " "))" }

  static func == (left: Self, right: Self) -> Bool {
    left.arguments == right.arguments && left.jq?.filter == right.jq?.filter
      && left.jq?.raw == right.jq?.raw && left.output == right.output
      && left.input == right.input
  }

  struct Unreadable: Error, CustomStringConvertible {
    let description: String
  }

  /// The commands of one shell line, or none when it does not run `rates`.
  static func parse(_ line: String, origin: String) throws -> [DocsExample] {
    var examples: [DocsExample] = []
    var words: [Word] = []
    for word in try tokens(line) + [.operator(";")] {
      if case .operator(let op) = word, op == ";" || op == "&&" {
        if !words.isEmpty { examples.append(try make(words, line: line, origin: origin)) }
        words = []
      } else {
        words.append(word)
      }
    }
    return examples
  }

  enum Word: Equatable {
    case text(String)
    case `operator`(String)
  }

  private static func make(_ words: [Word], line: String, origin: String) throws -> DocsExample {
    var example = DocsExample(arguments: [], origin: origin)
    var rest = words[...]
    var lastOperator: String?
    guard case .text("rates") = rest.popFirst() else {
      throw Unreadable(description: "\(origin): not a rates command: \(line)")
    }
    while let word = rest.popFirst() {
      switch word {
      case .operator(let op): lastOperator = op
      case .text(let text):
        switch lastOperator {
        case nil: example.arguments.append(text)
        case ">", ">>": example.output = text
        case "<": example.input = text
        case "|":
          guard text == "jq" else { throw Unreadable(description: "\(origin): pipe to \(text)") }
          var raw = false
          if case .text("-r") = rest.first {
            raw = true
            rest = rest.dropFirst()
          }
          guard case .text(let filter) = rest.popFirst() else {
            throw Unreadable(description: "\(origin): jq without a filter: \(line)")
          }
          example.jq = (filter, raw)
        default: throw Unreadable(description: "\(origin): cannot read \(line)")
        }
      }
    }
    return example
  }

  /// `line` split like `sh` would, operators apart, without its comment.
  static func tokens(_ line: String) throws -> [Word] {
    var words: [Word] = []
    var current: String?
    var quote: Character?
    var characters = Array(line)[...]
    func flush() {
      if let word = current { words.append(.text(word)) }
      current = nil
    }
    while let character = characters.popFirst() {
      if let open = quote {
        if character == open {
          quote = nil
        } else if open == "\"", character == "\\", let next = characters.popFirst() {
          current!.append(next)
        } else {
          current!.append(character)
        }
        continue
      }
      switch character {
      case "'", "\"":
        quote = character
        current = current ?? ""
      case " ", "\t": flush()
      case "#" where current == nil: characters = []
      case "\\":
        if let next = characters.popFirst() { current = (current ?? "") + String(next) }
      case ";", "|", "<", ">", "&":
        flush()
        var op = String(character)
        if let next = characters.first, (op == ">" && next == ">") || (op == "&" && next == "&") {
          op.append(characters.removeFirst())
        }
        words.append(.operator(op))
      default:
        current = (current ?? "") + String(character)
      }
    }
    guard quote == nil else { throw Unreadable(description: "unclosed quote: \(line)") }
    flush()
    return words
  }

  /// The `rates` lines of the `sh` code blocks of a Markdown text (a leading `$ ` dropped).
  static func codeLines(ofMarkdown text: String) -> [String] {
    var (inBlock, inShell) = (false, false)
    var lines: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("```") {
        inBlock.toggle()
        inShell = inBlock && ["```sh", "```bash", "```console", "```"].contains(trimmed)
        continue
      }
      guard inShell else { continue }
      let command = trimmed.hasPrefix("$ ") ? String(trimmed.dropFirst(2)) : trimmed
      if command.hasPrefix("rates ") { lines.append(command) }
    }
    return lines
  }
}
