import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The completion scripts in real shells, with the built binary on PATH. Each test runs only
/// where its shell is installed.
@Suite struct CompletionShellTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  /// A temporary home with XDG directories, and PATH leading to the built `rates`.
  func sandbox() throws -> (home: URL, variables: [String: String]) {
    let home = try scratch.folder()
    let binaryDirectory = try BinaryRunner.binary.deletingLastPathComponent().path
    return (
      home,
      [
        "HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
        "XDG_DATA_HOME": home.appendingPathComponent("data").path,
        "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
        "PATH": "\(binaryDirectory):/usr/bin:/bin", "LANG": "C.UTF-8",
      ]
    )
  }

  /// Writes `rates completions <shell>` to a file and returns its path.
  static func script(_ shell: String, in home: URL, environment: [String: String]) async throws -> String {
    let rates = try BinaryRunner.binary.path
    let result = try await Shells.run(rates, ["completions", shell], environment: environment)
    expectEqual(result.status, 0, "\(result.stderr)")
    let file = home.appendingPathComponent("rates.\(shell)")
    try Data(result.stdout.utf8).write(to: file)
    return file.path
  }

  @Test(.enabled(if: Shells.path("bash") != nil)) func bashAcceptsTheScript() async throws {
    let (home, environment) = try sandbox()
    let file = try await Self.script("bash", in: home, environment: environment)
    let check = try await Shells.run(
      try require(Shells.path("bash")), ["-n", file], environment: environment)
    expectEqual(check.status, 0, "\(check.stderr)")
  }

  @Test(.enabled(if: Shells.path("zsh") != nil)) func zshAcceptsTheScript() async throws {
    let (home, environment) = try sandbox()
    let file = try await Self.script("zsh", in: home, environment: environment)
    let check = try await Shells.run(
      try require(Shells.path("zsh")), ["-n", file], environment: environment)
    expectEqual(check.status, 0, "\(check.stderr)")
  }

  @Test(.enabled(if: Shells.path("fish") != nil)) func fishAcceptsTheScript() async throws {
    let (home, environment) = try sandbox()
    let file = try await Self.script("fish", in: home, environment: environment)
    let check = try await Shells.run(
      try require(Shells.path("fish")), ["--no-execute", file], environment: environment)
    expectEqual(check.status, 0, "\(check.stderr)")
  }

  /// Sources the bash script and calls `_rates` as bash's completion would, printing COMPREPLY.
  @Test(.enabled(if: Shells.path("bash") != nil)) func bashCompletesCommandsAndCoins() async throws {
    let (home, environment) = try sandbox()
    let data = home.appendingPathComponent("data/rates")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    try Data(
      #"{"version":1,"pairs":[{"base":"GBP","quote":"USD","addedAt":"2026-01-01T00:00:00Z"}]}"#.utf8
    ).write(to: data.appendingPathComponent("pairs.json"))
    let file = try await Self.script("bash", in: home, environment: environment)
    let program = """
      source "$1"
      complete_line() {
        COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=()
        _rates
        echo "${COMPREPLY[*]}"
      }
      complete_line rates hist
      complete_line rates history B
      complete_line rates history BTC --d
      complete_line rates pairs remove ""
      complete_line rates --provider coing
      complete_line rates current --in EUR,G
      complete -p rates
      """
    let result = try await Shells.run(
      try require(Shells.path("bash")), ["-c", program, "bash", file], environment: environment)
    expectEqual(result.status, 0, "\(result.stderr)")
    expect(result.stderr.isEmpty)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    expect(lines.count >= 7)
    guard lines.count >= 7 else { return }
    expectEqual(lines[0], "history")
    let coins = Set(lines[1].split(separator: " ").map(String.init))
    expect(coins.isSuperset(of: ["BTC", "BCH", "BNB", "BRL", "BGN"]), "\(lines[1])")
    expect(coins.allSatisfy { $0.hasPrefix("B") })
    expectEqual(lines[2], "--days --date")
    expectEqual(lines[3], "GBP-USD")
    expectEqual(lines[4], "coingecko")
    expectEqual(lines[5], "EUR,GBP EUR,GEL")
    expectEqual(lines[6], "complete -F _rates rates")
  }
}
