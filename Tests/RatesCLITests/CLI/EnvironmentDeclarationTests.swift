import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RatesCLI

/// Environment variables are declared once (``EnvironmentVariable``): `rates help` lists the
/// declaration, and no source reads a variable by a name written again.
@Suite struct EnvironmentDeclarationTests {
  @Test func helpListsEveryDocumentedVariable() {
    let help = RatesCLI.environmentHelp(width: 100)
    let listed = help.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().prefix { !$0.isEmpty }
      .map { $0.split(separator: " ").first.map(String.init) ?? "" }
    expectEqual(listed, EnvironmentVariable.documented.map(\.name))
    for name in ["COLUMNS", "RATES_PAGER", "PAGER", "TERM", "NO_COLOR", "XDG_CACHE_HOME"] {
      expect(listed.contains(name), "\(name)")
    }
    expect(EnvironmentVariable.documented.allSatisfy { !$0.help.isEmpty })
    expectEqual(Set(EnvironmentVariable.documented.map(\.name)).count, EnvironmentVariable.documented.count)
  }

  /// `environment["NAME"]`, `value("NAME")` or `.environment("NAME")` outside the declaration
  /// would be a second home for a variable's name.
  @Test func noSourceReadsAVariableByALiteralName() throws {
    let sources = Fixtures.directory.deletingLastPathComponent().appendingPathComponent("Sources")
    let pattern = try NSRegularExpression(
      pattern: #"(environment\[|value\(|url\(|\.environment\()\s*"[A-Z][A-Z0-9_]+""#)
    let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    var offenders: [String] = []
    while let url = enumerator?.nextObject() as? URL {
      let path = url.path
      guard path.hasSuffix(".swift"),
        ["/RateCore/", "/RatesCLI/"].contains(where: path.contains)
      else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      let range = NSRange(text.startIndex..., in: text)
      for match in pattern.matches(in: text, range: range) {
        offenders.append("\(url.lastPathComponent): \((text as NSString).substring(with: match.range))")
      }
    }
    expect(offenders.isEmpty, "\(offenders)")
  }
}
