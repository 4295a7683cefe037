import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Text read back from the cache is cleaned where it is displayed, not only
/// when a provider's answer was decoded: an edited cache file cannot put
/// escape sequences on the terminal.
@Suite struct StoredTextTests {
  static let title = "\u{1B}]0;pwned\u{07}"
  static let clear = "\u{1B}[2J"

  /// Puts an OSC title sequence and a screen clear into every `name` and
  /// `symbol` string of the cache's JSON files.
  /// Returns how many files it changed.
  static func poisonCache(under home: URL) throws -> Int {
    var changed = 0
    guard let files = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)
    else { return 0 }
    for case let file as URL in files
    where file.pathExtension == "json" && file.path.contains("/rates/") {
      let original = try String(contentsOf: file, encoding: .utf8)
      var text = original
      text = text.replacingOccurrences(of: #""name":""#, with: #""name":"\u001b]0;pwned\u0007"#)
      text = text.replacingOccurrences(of: #""symbol":""#, with: #""symbol":"\u001b[2J"#)
      guard text != original else { continue }
      try text.write(to: file, atomically: true, encoding: .utf8)
      changed += 1
    }
    return changed
  }

  @Test(arguments: [["search", "eth"], ["top"]])
  func cachedNamesAreCleanedWhenShown(_ arguments: [String]) async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let first = await rates.run(arguments)
    expectEqual(first.status, 0, "\(first.stderr)")
    expect(try Self.poisonCache(under: rates.home) > 0)
    let offline = await rates.run(arguments + ["--offline"])
    expectEqual(offline.status, 0, "\(offline.stderr)")
    expect(!offline.stdout.contains("\u{1B}"), "\(offline.stdout)")
    expect(!offline.stdout.contains("\u{07}"))
  }
}
