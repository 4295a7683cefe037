import Foundation
import RatesExpectations
import Testing

/// Issue 35: platform branches stay in the few files docs/guide.md lists under
/// "Platform branches" (the C library, Foundation's two forms, the terminal). The C
/// library's import block is allowed anywhere; any other `#if os(…)` or
/// `#if canImport(…)` in a Swift file under Sources/ or Tests/ must be in a listed file,
/// and every listed file must still have one (so the list cannot go stale).
@Suite struct PlatformBranchTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The C library modules whose import alone may be conditional anywhere.
  static let cLibraries: Set<String> = ["Glibc", "Musl", "Darwin"]

  /// The line numbers (from 1) of `text`'s platform conditions other than the C
  /// library's import: an `#if` or `#elseif` naming `os(` or `canImport(`, unless it is
  /// `canImport(M)` for a C library M and its arm holds nothing but `import M`.
  static func branchLines(in text: String) -> [Int] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
    var found: [Int] = []
    for (index, line) in lines.enumerated() {
      guard line.hasPrefix("#if ") || line.hasPrefix("#elseif "),
        line.contains("os(") || line.contains("canImport(")
      else { continue }
      let condition = line.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
      let arm = lines[(index + 1)...].prefix { !$0.hasPrefix("#") }.filter { !$0.isEmpty }
      let isImport = cLibraries.contains { library in
        condition == "canImport(\(library))" && arm == ["import \(library)"]
      }
      if !isImport { found.append(index + 1) }
    }
    return found
  }

  /// The paths docs/guide.md's "Platform branches" section names in backticks.
  static func listedFiles() throws -> Set<String> {
    let guide = try String(
      contentsOf: root.appendingPathComponent("docs/guide.md"), encoding: .utf8)
    let heading = try require(guide.range(of: "\n## Platform branches\n"))
    let section = guide[heading.upperBound...].components(separatedBy: "\n## ").first ?? ""
    let quoted = section.components(separatedBy: "`").enumerated()
      .filter { $0.offset % 2 == 1 }.map(\.element)
    return Set(quoted.filter { $0.hasSuffix(".swift") && $0.contains("/") })
  }

  /// Every Swift file under `folder`, as a path from the repository root.
  static func swiftFiles(under folder: String) -> [String] {
    let base = root.appendingPathComponent(folder)
    let files = FileManager.default.enumerator(atPath: base.path)?.allObjects as? [String] ?? []
    return files.filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }.sorted()
  }

  @Test func tellsTheCLibraryImportFromOtherBranches() {
    let imports = """
      #if canImport(Glibc)
        import Glibc
      #elseif canImport(Musl)
        import Musl
      #elseif canImport(Darwin)
        import Darwin
      #endif
      """
    expect(Self.branchLines(in: imports).isEmpty)
    expectEqual(Self.branchLines(in: "#if os(Linux)\n  import Glibc\n#endif"), [1])
    expectEqual(
      Self.branchLines(in: "#if canImport(Darwin)\n  import Darwin\n  let x = 1\n#endif"), [1])
    expectEqual(Self.branchLines(in: "#if canImport(Glibc)\n  import Darwin\n#endif"), [1])
    expectEqual(Self.branchLines(in: "let a = 1\n  #if canImport(FoundationEssentials)\n#endif"), [2])
    expect(Self.branchLines(in: "#if DEBUG\n#endif\n// #if os(Linux)").isEmpty)
  }

  @Test func platformBranchesAreOnlyInTheFilesTheGuideLists() throws {
    let listed = try Self.listedFiles()
    expect(listed.count > 5, "the guide's Platform branches section lists no files")
    var unlisted: [String] = []
    var withBranches: Set<String> = []
    for file in Self.swiftFiles(under: "Sources") + Self.swiftFiles(under: "Tests") {
      let text = try String(
        contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
      let lines = Self.branchLines(in: text)
      guard !lines.isEmpty else { continue }
      withBranches.insert(file)
      if !listed.contains(file) {
        unlisted.append(file + ":" + lines.map(String.init).joined(separator: ","))
      }
    }
    expect(
      unlisted.isEmpty,
      "platform branches outside docs/guide.md's list (add the file and the reason, or remove the branch): \(unlisted)"
    )
    let stale = listed.subtracting(withBranches).sorted()
    expect(stale.isEmpty, "docs/guide.md lists files without a platform branch: \(stale)")
  }
}
