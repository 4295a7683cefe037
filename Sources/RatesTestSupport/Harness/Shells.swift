import Foundation

/// A shell's path when it is installed, for tests that run it.
public enum Shells {
  public static func path(_ name: String) -> String? {
    for directory in ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
      let path = directory + "/" + name
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }

  /// Runs `executable` with `arguments` and `environment` through ``runProcess(_:_:environment:directory:stdin:mergingErrors:hangGuard:)``:
  /// awaited, so no thread of the concurrency pool waits for the shell.
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]
  ) async throws -> CommandResult {
    try await runProcess(URL(fileURLWithPath: executable), arguments, environment: environment)
  }
}
