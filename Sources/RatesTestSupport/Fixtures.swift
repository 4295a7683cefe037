import Foundation

/// Recorded-style API responses in `fixtures/` at the repository root, located
/// relative to this source file (`#filePath`), so no resource bundle is needed.
public enum Fixtures {
  /// `<repo>/fixtures`.
  public static let directory: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // RatesTestSupport
    .deletingLastPathComponent()  // Sources
    .deletingLastPathComponent()  // repository root
    .appendingPathComponent("fixtures", isDirectory: true)

  /// The URL of `fixtures/<relativePath>`, such as `coingecko/ping.json`.
  public static func url(_ relativePath: String) -> URL {
    directory.appendingPathComponent(relativePath)
  }

  /// The bytes of `fixtures/<relativePath>`.
  /// - Throws: the file system error when the fixture does not exist.
  public static func data(_ relativePath: String) throws -> Data {
    try Data(contentsOf: url(relativePath))
  }

  /// The UTF-8 text of `fixtures/<relativePath>`.
  /// - Throws: the file system error, or `FixtureError.notUTF8`.
  public static func string(_ relativePath: String) throws -> String {
    guard let text = String(data: try data(relativePath), encoding: .utf8) else {
      throw FixtureError.notUTF8(relativePath)
    }
    return text
  }

  /// Every fixture path relative to `directory` with the given extension, sorted.
  public static func all(withExtension pathExtension: String) -> [String] {
    let root = directory.resolvingSymlinksInPath()
    let prefix = root.path + "/"
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    var paths: [String] = []
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == pathExtension else { continue }
      let path = url.resolvingSymlinksInPath().path
      paths.append(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
    }
    return paths.sorted()
  }
}

public enum FixtureError: Error, Equatable {
  case notUTF8(String)
}
