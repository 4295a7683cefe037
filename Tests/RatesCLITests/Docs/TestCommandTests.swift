import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

/// CI runs exactly README's test command (`swift test -q`: a line of output per failure, none
/// per passing test): the one line of the `sh` block under "## Tests" is a line of `.ci/run`.
@Suite struct TestCommandTests {
  static func text(_ name: String) throws -> String {
    let root = Fixtures.directory.deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
  }

  @Test func ciRunsReadmesTestCommandByteForByte() throws {
    let section = try require(
      try Self.text("README.md").components(separatedBy: "\n## Tests\n").dropFirst().first)
    let block = try require(
      section.components(separatedBy: "```sh\n").dropFirst().first?
        .components(separatedBy: "\n```").first)
    expect(!block.isEmpty && !block.contains("\n"), "one command: \(block)")
    expect(block.hasPrefix("swift test") && block.contains(" -q"), "quiet on success: \(block)")
    let runsIt = try Self.text(".ci/run").split(separator: "\n").contains(Substring(block))
    expect(runsIt, "`.ci/run` has no line that is README's test command, \(block)")
  }
}
