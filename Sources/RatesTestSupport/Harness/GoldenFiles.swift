import Foundation

/// The golden files of one test target: whole outputs, byte for byte, compared with what a
/// test produced, or rewritten from it when `RATES_UPDATE_GOLDEN=1`.
///
/// It reports a difference as a sentence rather than recording it, so that it needs no
/// `Testing` (each test target's `GoldenFile.check` records what it returns).
public struct GoldenFiles: Sendable {
  /// The folder the files live in.
  public let directory: URL

  /// The golden files under `directory`.
  public init(directory: URL) {
    self.directory = directory
  }

  /// Whether this run rewrites the files instead of comparing.
  public static var updating: Bool { ProcessInfo.processInfo.environment["RATES_UPDATE_GOLDEN"] == "1" }

  /// Compares `actual` with the file `name`, or rewrites the file when ``updating``. An
  /// `optional` file stands for empty text when it does not exist (and is not written for
  /// empty text).
  ///
  /// - Returns: What differs, missing file included, as one message; nil when they agree.
  public func problem(with actual: String, named name: String, optional: Bool = false) throws -> String? {
    let url = directory.appendingPathComponent(name)
    if Self.updating {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      if optional && actual.isEmpty {
        try? FileManager.default.removeItem(at: url)
      } else {
        try Data(actual.utf8).write(to: url, options: .atomic)
      }
      return nil
    }
    guard let data = FileManager.default.contents(atPath: url.path) else {
      if !optional { return "missing \(name): run RATES_UPDATE_GOLDEN=1 swift test --filter Golden" }
      return actual.isEmpty ? nil : "unexpected output, no \(name):\n\(actual)"
    }
    let expected = String(decoding: data, as: UTF8.self)
    guard actual != expected else { return nil }
    return "\(name) differs: \(Self.firstDifference(expected, actual))\n--- actual:\n\(actual)"
  }

  /// The first line that differs, both ways, with invisible characters escaped.
  public static func firstDifference(_ expected: String, _ actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(old.count, new.count) {
      let a = index < old.count ? String(old[index]) : "<none>"
      let b = index < new.count ? String(new[index]) : "<none>"
      if a != b {
        return "line \(index + 1)\n  expected: \(a.debugDescription)\n  actual:   \(b.debugDescription)"
      }
    }
    return "same lines, different bytes"
  }
}
