import Foundation
import RatesExpectations
import Testing

/// Issue 27: what ships imports FoundationEssentials only (no libFoundation.so, no ICU).
/// RateCore and RatesCLI each import Foundation in exactly one file, `Essentials.swift`,
/// under `#if canImport(FoundationEssentials)`; any other Foundation import in their
/// sources (or the executable's) fails here, with the file named. `.ci/run` also checks
/// the release binary with `ldd`.
@Suite struct EssentialsImportTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The modules `rates` links, each with its one shim file.
  static let modules = ["RateCore": "Support/Essentials.swift", "RatesCLI": "Essentials.swift"]
  /// `import Foundation` (or FoundationNetworking, FoundationInternationalization) lines
  /// in `text`, with any attributes; FoundationEssentials is not one of them.
  static func foundationImports(in text: String) -> [String] {
    text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
      let words = line.split(separator: " ")
      guard let index = words.firstIndex(of: "import"), index + 1 < words.count else {
        return false
      }
      guard words[..<index].allSatisfy({ $0.hasPrefix("@") }) else { return false }
      return ["Foundation", "FoundationNetworking", "FoundationInternationalization"]
        .contains(String(words[index + 1]))
    }
  }

  @Test func recognisesEveryFormOfAFoundationImport() {
    expectEqual(Self.foundationImports(in: "import Foundation\n").count, 1)
    expectEqual(Self.foundationImports(in: "  @preconcurrency import Foundation").count, 1)
    expectEqual(Self.foundationImports(in: "import FoundationNetworking").count, 1)
    expect(Self.foundationImports(in: "import FoundationEssentials\n// import Foundation").isEmpty)
  }

  @Test func sourcesImportFoundationOnlyThroughTheShim() throws {
    var offenders: [String] = []
    for folder in Self.modules.keys.sorted() + ["rates"] {
      let base = Self.root.appendingPathComponent("Sources/\(folder)")
      let files = FileManager.default.enumerator(atPath: base.path)?.allObjects as? [String] ?? []
      expect(!files.isEmpty, "no sources under \(base.path)")
      for file in files where file.hasSuffix(".swift") {
        let relative = folder + "/" + file
        guard file != Self.modules[folder] else { continue }
        let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
        if !Self.foundationImports(in: text).isEmpty { offenders.append(relative) }
      }
    }
    expect(
      offenders.isEmpty,
      "import Foundation in \(offenders): FoundationEssentials comes from each module's Essentials.swift"
    )
  }

  @Test func eachShimImportsEssentialsWhereTheyExist() throws {
    for (module, file) in Self.modules {
      let url = Self.root.appendingPathComponent("Sources/\(module)/\(file)")
      let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("//") }
      expectEqual(
        lines,
        [
          "#if canImport(FoundationEssentials)", "@_exported import FoundationEssentials", "#else",
          "@_exported import Foundation", "#endif",
        ], "\(module)")
    }
  }
}
