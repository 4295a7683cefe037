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

  /// Runs `executable` with `arguments` and `environment`; small outputs only.
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]
  ) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    let scratch = try TemporaryDirectory()
    let directory = scratch.url
    let outURL = directory.appendingPathComponent("out")
    let errURL = directory.appendingPathComponent("err")
    try Data().write(to: outURL)
    try Data().write(to: errURL)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    waitForExit(of: process)
    try out.close()
    try err.close()
    return try withExtendedLifetime(scratch) {
      (
        process.terminationStatus,
        String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
        String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
      )
    }
  }
}
