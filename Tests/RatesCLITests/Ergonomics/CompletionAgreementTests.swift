import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The completion scripts, run in real shells, offer for every command and action exactly
/// what its declaration says: its options, what completes each option's value, its actions
/// and what completes each argument. Runs where the shell is installed.
///
/// A stand-in `rates` on PATH answers `rates __complete <kind>` with `KIND-<kind>`, so a
/// script's dynamic words show which kind it asked for.
@Suite struct CompletionAgreementTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  /// One completion request: the words, the last being the one at the cursor.
  struct Case: Sendable {
    var words: [String]
    var expected: Set<String>
  }

  /// What completes a value or argument of `completion` at an empty cursor.
  static func words(for completion: Completion?) -> Set<String> {
    switch completion {
    case nil: return []
    case .local(let kinds)?: return ["KIND-" + kinds.map(\.rawValue).joined(separator: ",")]
    case .choices(let list)?: return Set(list.values)
    case .files?: return ["data.csv"]
    }
  }

  /// Every request to check, from the declarations.
  static func cases() -> [Case] {
    let globals = GlobalOptions.declared.options.flatMap(\.names).filter { $0.hasPrefix("--") }
    var cases: [Case] = []
    for path in CommandTree.leaves {
      let line = ["rates"] + path.words.split(separator: " ").map(String.init)
      let options = path.last.options
      let flags = Set(globals + options.flatMap(\.names).filter { $0.hasPrefix("--") })
      cases.append(Case(words: line + ["--"], expected: flags))
      if let parent = path.parent, parent.last.runsByDefault(path.last) {
        cases.append(Case(words: ["rates", parent.words, "--"], expected: flags))
      }
      for option in options where option.takesValue {
        for name in option.names {
          cases.append(Case(words: line + [name, ""], expected: words(for: option.completion)))
        }
      }
      for (index, argument) in path.last.arguments.enumerated() {
        let filler = Array(repeating: "X", count: index)
        cases.append(Case(words: line + filler + [""], expected: words(for: argument.completion)))
      }
    }
    for group in CommandTree.all where !group.last.subcommands.isEmpty {
      let names = group.last.subcommands.map { $0.name }
      cases.append(Case(words: ["rates", group.words, ""], expected: Set(names)))
    }
    for option in GlobalOptions.declared.options where option.takesValue {
      cases.append(
        Case(words: ["rates", option.name, ""], expected: words(for: option.completion)))
    }
    return cases
  }

  /// A directory holding the stand-in `rates` and a directory holding only `data.csv`.
  func sandbox() throws -> (bin: URL, cwd: URL) {
    let root = try scratch.folder()
    let bin = root.appendingPathComponent("bin")
    let cwd = root.appendingPathComponent("cwd")
    for directory in [bin, cwd] {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    let fake = bin.appendingPathComponent("rates")
    try Data("#!/bin/sh\nif [ \"$1\" = __complete ]; then echo \"KIND-$2\"; fi\n".utf8)
      .write(to: fake)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
    try Data().write(to: cwd.appendingPathComponent("data.csv"))
    return (bin, cwd)
  }

  /// Runs `program` in `shell` with the script for it as `$1`, and splits the output at `@@`.
  func run(_ shell: String, program: String) async throws -> [Set<String>] {
    let (bin, cwd) = try sandbox()
    let script = cwd.deletingLastPathComponent().appendingPathComponent("rates.\(shell)")
    try Data(CompletionScripts.script(for: shell).utf8).write(to: script)
    let result = try await Shells.run(
      try require(Shells.path(shell)),
      // bash takes the next argument as $0; fish puts them all in $argv.
      ["-c", "cd '\(cwd.path)'; " + program] + (shell == "bash" ? [shell] : []) + [script.path],
      environment: ["PATH": "\(bin.path):/usr/bin:/bin", "HOME": cwd.path, "LANG": "C.UTF-8"])
    expectEqual(result.status, 0, "\(result.stderr)")
    expect(result.stderr.isEmpty, "\(result.stderr)")
    let blocks = result.stdout.components(separatedBy: "@@\n").dropLast()
    return blocks.map { block in
      Set(block.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") })
    }
  }

  static func quoted(_ word: String) -> String { "'\(word)'" }

  @Test(.enabled(if: Shells.path("bash") != nil)) func bashOffersWhatIsDeclared() async throws {
    let cases = Self.cases()
    var program = """
      source "$1"
      cl() {
        COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=()
        _rates
        (( ${#COMPREPLY[@]} )) && printf '%s\\n' "${COMPREPLY[@]}"
        echo @@
      }

      """
    for item in cases {
      program += "cl " + item.words.map(Self.quoted).joined(separator: " ") + "\n"
    }
    let answers = try await run("bash", program: program)
    expectEqual(answers.count, cases.count)
    for (item, answer) in zip(cases, answers) {
      expectEqual(answer, item.expected, "bash: \(item.words)")
    }
  }

  @Test(.enabled(if: Shells.path("fish") != nil)) func fishOffersWhatIsDeclared() async throws {
    let cases = Self.cases()
    var program = "source $argv[1]\n"
    for item in cases {
      program += "complete -C \(Self.quoted(item.words.joined(separator: " "))); echo @@\n"
    }
    let answers = try await run("fish", program: program)
    expectEqual(answers.count, cases.count)
    for (item, answer) in zip(cases, answers) {
      expectEqual(answer, item.expected, "fish: \(item.words)")
    }
  }

  /// zsh needs a terminal to complete, so its script is checked by its tables: every
  /// command's and action's options, and every option that takes a value with its kind.
  @Test func zshTablesMatchTheDeclarations() {
    let script = CompletionScripts.script(for: "zsh")
    for path in CommandTree.leaves where !path.last.options.isEmpty {
      let (command, actions, _) = CompletionTable.pattern(path)
      let pattern = CompletionScripts.patterns(command, actions).joined(separator: "|")
      let flags = path.last.options.flatMap(\.names).joined(separator: " ")
      expectContains(script, "    (\(pattern)) flags+=(\(flags)) ;;\n", "\(path.words)")
    }
    let options = GlobalOptions.declared.options + CommandTree.leaves.flatMap { $0.last.options }
    for option in options where option.takesValue {
      let kind = option.completion.map { "kind=\($0.scriptName)" } ?? "return 1"
      expectContains(script, "    (\(option.name)) \(kind) ;;\n", "\(option.name)")
    }
  }
}
