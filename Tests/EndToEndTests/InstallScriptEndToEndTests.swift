import Foundation
import RateCore
import RatesExpectations
import RatesTestSupport
import Testing

/// Issue 15, the first run: `scripts/install.sh` puts the binary, its completions and its
/// manual page under a prefix, creating the folders, and says when `bin` is not on PATH.
/// It installs the binary the tests built (`--binary`), so nothing is compiled here.
@Suite struct InstallScriptEndToEndTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/install.sh")

  func install(
    prefix: URL, path: String, home: URL? = nil, uninstall: Bool = false
  ) async throws -> (status: Int32, output: String) {
    let home = home ?? prefix.deletingLastPathComponent()
    let result = try await runProcess(
      URL(fileURLWithPath: "/bin/sh"),
      [Self.script.path, "--prefix", prefix.path]
        + (uninstall ? ["--uninstall"] : ["--binary", try BinaryRunner.binary.path]),
      environment: ["PATH": path, "HOME": home.path], mergingErrors: true)
    return (result.status, result.stdout)
  }

  @Test func installsBinaryCompletionsAndManPageUnderAFreshPrefix() async throws {
    let root = try scratch.folder()
    let prefix = root.appendingPathComponent("fresh/.local")
    let first = try await install(prefix: prefix, path: "/usr/bin:/bin")
    expectEqual(first.status, 0, "\(first.output)")
    let files = [
      "bin/rates", "share/man/man1/rates.1", "share/bash-completion/completions/rates",
      "share/zsh/site-functions/_rates", "share/fish/vendor_completions.d/rates.fish",
    ]
    for file in files {
      let text = try? String(contentsOf: prefix.appendingPathComponent(file), encoding: .isoLatin1)
      expect((text?.count ?? 0) > 100, "\(file)")
    }
    let page = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/rates.1"), encoding: .utf8)
    expect(page.hasPrefix(".TH RATES 1"))
    expect(FileManager.default.isExecutableFile(atPath: prefix.appendingPathComponent("bin/rates").path))
    expectContains(first.output, "\(prefix.path)/bin is not on your PATH")

    let again = try await install(prefix: prefix, path: "\(prefix.path)/bin:/usr/bin:/bin")
    expectEqual(again.status, 0, "\(again.output)")
    expect(!again.output.contains("not on your PATH"), "\(again.output)")
  }

  /// Everything under `root`, relative, sorted (folders end in `/`).
  func listing(_ root: URL) -> [String] {
    let paths = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
    return paths.map { path in
      FileManager.default.isDirectory(atPath: root.appendingPathComponent(path).path) == true
        ? path + "/" : path
    }.sorted()
  }

  /// Issue 27: `--uninstall` removes the files and the folders the install made, and
  /// nothing it found there.
  @Test func uninstallLeavesThePrefixAsItFoundIt() async throws {
    let root = try scratch.folder()
    let prefix = root.appendingPathComponent("prefix")
    try FileManager.default.createDirectory(
      at: prefix.appendingPathComponent("share/man"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: prefix.appendingPathComponent("bin/other-tool"))
    let before = listing(prefix)
    expectEqual(try await install(prefix: prefix, path: "/usr/bin:/bin").status, 0)
    expect(listing(prefix).contains("share/man/man1/rates.1"))
    expectEqual(try await install(prefix: prefix, path: "/usr/bin:/bin").status, 0)  // twice
    let removed = try await install(prefix: prefix, path: "/usr/bin:/bin", uninstall: true)
    expectEqual(removed.status, 0, "\(removed.output)")
    expectEqual(listing(prefix), before)
    let again = try await install(prefix: prefix, path: "/usr/bin:/bin", uninstall: true)
    expect(again.status == 1 && again.output.contains("nothing removed"), "\(again.output)")

    // A prefix the install made goes too, with its parents the install made.
    let fresh = root.appendingPathComponent("new/prefix")
    expectEqual(try await install(prefix: fresh, path: "/usr/bin:/bin").status, 0)
    expectEqual(try await install(prefix: fresh, path: "/usr/bin:/bin", uninstall: true).status, 0)
    expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("new").path))
  }

  /// Issue 27: a link at an installed file's path is replaced, not written through; a
  /// folder that leads outside the prefix is refused before anything is written.
  @Test func nothingIsWrittenThroughALinkLeadingOutsideThePrefix() async throws {
    let root = try scratch.folder()
    let outside = root.appendingPathComponent("outside.txt")
    try Data("keep".utf8).write(to: outside)
    let prefix = root.appendingPathComponent("prefix")
    let man = prefix.appendingPathComponent("share/man/man1")
    try FileManager.default.createDirectory(at: man, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: man.appendingPathComponent("rates.1"), withDestinationURL: outside)
    expectEqual(try await install(prefix: prefix, path: "/usr/bin:/bin").status, 0)
    expectEqual(try String(contentsOf: outside, encoding: .utf8), "keep")
    let page = try String(contentsOf: man.appendingPathComponent("rates.1"), encoding: .utf8)
    expect(page.hasPrefix(".TH RATES 1"))

    let other = root.appendingPathComponent("other")
    let elsewhere = root.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(
      at: other.appendingPathComponent("share"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: other.appendingPathComponent("share/fish"), withDestinationURL: elsewhere)
    let refused = try await install(prefix: other, path: "/usr/bin:/bin")
    expectEqual(refused.status, 73, "\(refused.output)")
    expectContains(refused.output, "leads outside the prefix")
    expect(listing(elsewhere).isEmpty)
    expect(!FileManager.default.fileExists(atPath: other.appendingPathComponent("bin/rates").path))
  }

  /// Issue 27: every printed hint pastes as is into a shell, for a prefix with a space and
  /// a quote.
  @Test func hintsPasteCorrectlyForAnyPrefix() async throws {
    let root = try scratch.folder()
    let prefix = root.appendingPathComponent("my rates's \"prefix\"")
    let result = try await install(prefix: prefix, path: "/usr/bin:/bin")
    expectEqual(result.status, 0, "\(result.output)")
    let lines = result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let export = try require(lines.first { $0.hasPrefix("export PATH=") })
    let fpath = try require(lines.first { $0.hasPrefix("fpath=(") })
    let uninstall = try require(lines.first { $0.hasPrefix("uninstall") })
    let script = [
      "PATH=/usr/bin:/bin", export, #"printf '%s\n' "$PATH""#,
      "set -- " + fpath.dropFirst("fpath=(".count).dropLast(" $fpath)".count),
      #"printf '%s\n' "$1""#,
      "set -- " + uninstall.dropFirst("uninstall".count), #"printf '%s\n' "$4""#,
    ].joined(separator: "\n")
    let shell = try await runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
    let printed = shell.stdout.split(separator: "\n").map(String.init)
    expectEqual(
      printed,
      [
        prefix.path + "/bin:/usr/bin:/bin", prefix.path + "/share/zsh/site-functions",
        prefix.path,
      ], "\(result.output)")
  }

  /// Issue 27: no PATH advice when a new login shell has the folder (as Debian's
  /// `~/.profile` gives an existing `~/.local/bin`).
  @Test func noPathAdviceWhenALoginShellHasTheFolder() async throws {
    let root = try scratch.folder()
    let prefix = root.appendingPathComponent(".local")
    try Data("PATH=\"$HOME/.local/bin:$PATH\"\n".utf8)
      .write(to: root.appendingPathComponent(".profile"))
    let result = try await install(prefix: prefix, path: "/usr/bin:/bin", home: root)
    expectEqual(result.status, 0, "\(result.output)")
    expect(!result.output.contains("not on your PATH"), "\(result.output)")
    expectContains(result.output, "on PATH in a new login shell")
  }

  /// Issue 34: `--uninstall` removes only the files it recorded and finds as it left them
  /// (by their checksums), never through a link: a folder replaced by a link that leads
  /// outside the prefix (to an identical copy), a file the user replaced and a prefix with a
  /// newline (refused at install) leave every file of the user's untouched.
  @Test func uninstallRemovesNothingOfTheUsers() async throws {
    let root = try scratch.folder()
    let prefix = root.appendingPathComponent("prefix")
    expectEqual(try await install(prefix: prefix, path: "/usr/bin:/bin").status, 0)
    let manager = FileManager.default
    // A folder replaced by a link to the user's own folder, which holds the same file.
    let zsh = prefix.appendingPathComponent("share/zsh/site-functions")
    let mine = root.appendingPathComponent("my-functions")
    try manager.createDirectory(at: mine, withIntermediateDirectories: true)
    try manager.copyItem(at: zsh.appendingPathComponent("_rates"), to: mine.appendingPathComponent("_rates"))
    try manager.removeItem(at: zsh)
    try manager.createSymbolicLink(at: zsh, withDestinationURL: mine)
    // A file the user replaced after installing.
    let page = prefix.appendingPathComponent("share/man/man1/rates.1")
    try Data("my own page".utf8).write(to: page)
    let outsideBefore = listing(mine)

    let removed = try await install(prefix: prefix, path: "/usr/bin:/bin", uninstall: true)
    expectEqual(removed.status, 0, "\(removed.output)")
    expect(listing(mine) == outsideBefore && outsideBefore == ["_rates"])
    expectEqual(try String(contentsOf: page, encoding: .utf8), "my own page")
    expectContains(removed.output, "kept '\(page.path)': changed since it was installed")
    expectContains(removed.output, "kept '\(zsh.path)/_rates': a symbolic link, or reached through one")
    expectEqual(
      listing(prefix),
      [
        "share/", "share/man/", "share/man/man1/", "share/man/man1/rates.1", "share/zsh/", "share/zsh/site-functions/",
      ], "only what the user owns is left")
    expectEqual(try manager.destinationOfSymbolicLink(atPath: zsh.path), mine.path, "the link is the user's")

    // A prefix with a newline: the record is read by lines, so it is refused before anything.
    let user = root.appendingPathComponent("D")
    try manager.createDirectory(at: user, withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: user.appendingPathComponent("nl"))
    let hostile = root.appendingPathComponent("D\nnl")
    let refused = try await install(prefix: hostile, path: "/usr/bin:/bin")
    expect(refused.status == 64 && refused.output.contains("holds a newline"), "\(refused.output)")
    expect(!manager.fileExists(atPath: hostile.path))
    let uninstall = try await install(prefix: hostile, path: "/usr/bin:/bin", uninstall: true)
    expectEqual(uninstall.status, 64)
    expectEqual(listing(user), ["nl"])
  }
}
