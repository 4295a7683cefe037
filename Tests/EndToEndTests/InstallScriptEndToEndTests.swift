import Foundation
import RatesTestSupport
import Testing

/// Issue 15, the first run: `scripts/install.sh` puts the binary, its completions and its
/// manual page under a prefix, creating the folders, and says when `bin` is not on PATH.
/// It installs the binary the tests built (`--binary`), so nothing is compiled here.
@Suite struct InstallScriptEndToEndTests {
  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/install.sh")

  func install(prefix: URL, path: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      Self.script.path, "--binary", try BinaryRunner.binary.path, "--prefix", prefix.path,
    ]
    process.environment = ["PATH": path, "HOME": prefix.deletingLastPathComponent().path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func installsBinaryCompletionsAndManPageUnderAFreshPrefix() throws {
    let root = try makeTemporaryDirectory()
    let prefix = root.appendingPathComponent("fresh/.local")
    let first = try install(prefix: prefix, path: "/usr/bin:/bin")
    #expect(first.status == 0, "\(first.output)")
    let files = [
      "bin/rates", "share/man/man1/rates.1", "share/bash-completion/completions/rates",
      "share/zsh/site-functions/_rates", "share/fish/vendor_completions.d/rates.fish",
    ]
    for file in files {
      let text = try? String(contentsOf: prefix.appendingPathComponent(file), encoding: .isoLatin1)
      #expect((text?.count ?? 0) > 100, "\(file)")
    }
    let page = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/rates.1"), encoding: .utf8)
    #expect(page.hasPrefix(".TH RATES 1"))
    #expect(FileManager.default.isExecutableFile(atPath: prefix.appendingPathComponent("bin/rates").path))
    #expect(first.output.contains("\(prefix.path)/bin is not on your PATH"), "\(first.output)")

    let again = try install(prefix: prefix, path: "\(prefix.path)/bin:/usr/bin:/bin")
    #expect(again.status == 0, "\(again.output)")
    #expect(!again.output.contains("not on your PATH"), "\(again.output)")
  }
}
