import Foundation

/// How a run of `rates` ended, in process (``CLIHarness``) or as a process (``BinaryRunner``).
public struct CommandResult: Sendable, Equatable {
  /// The exit status.
  public var status: Int32
  /// Everything written to standard output.
  public var stdout: String
  /// Everything written to standard error.
  public var stderr: String

  /// A result.
  public init(status: Int32, stdout: String, stderr: String) {
    self.status = status
    self.stdout = stdout
    self.stderr = stderr
  }

  /// stdout parsed as a JSON object (`--json` output).
  /// - Throws: ``CommandResultError/notJSON(_:)`` when it is not one.
  public func json() throws -> [String: Any] {
    try Self.object(stdout)
  }

  /// stderr parsed as a JSON object (errors with `--json`).
  /// - Throws: ``CommandResultError/notJSON(_:)`` when it is not one.
  public func errorJSON() throws -> [String: Any] {
    try Self.object(stderr)
  }

  /// stdout as JSON Lines (`watch --json`): one object per line.
  /// - Throws: ``CommandResultError/notJSON(_:)`` when a line is not an object.
  public func jsonLines() throws -> [[String: Any]] {
    try stdout.split(separator: "\n").map { try Self.object(String($0)) }
  }

  private static func object(_ text: String) throws -> [String: Any] {
    guard let data = text.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { throw CommandResultError.notJSON(text) }
    return object
  }
}

/// Why a ``CommandResult`` could not be read as expected.
public enum CommandResultError: Error, Equatable {
  /// The text is not a JSON object.
  case notJSON(String)
}

/// Every regular file under `directory` with its contents as text, for leak checks.
public func allFileContents(under directory: URL) -> [(path: String, text: String)] {
  guard
    let enumerator = FileManager.default.enumerator(
      at: directory, includingPropertiesForKeys: nil)
  else { return [] }
  var files: [(String, String)] = []
  for case let url as URL in enumerator {
    if let data = FileManager.default.contents(atPath: url.path) {
      files.append((url.path, String(decoding: data, as: UTF8.self)))
    }
  }
  return files
}
