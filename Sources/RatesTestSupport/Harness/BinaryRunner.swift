import Foundation

/// Runs the built `rates` executable as a user would, with its own temporary
/// XDG directories, a minimal environment, and the base-URL variables pointing
/// at a loopback server. For end-to-end tests: wiring, exit codes, signals,
/// terminals, real sockets.
public struct BinaryRunner: Sendable {
  /// Why a run could not happen.
  public enum RunnerError: Error {
    /// The executable was not found beside the test bundle.
    case binaryMissing(String)
  }

  /// The root of this run's files; `HOME`, with `cache`, `config` and `data` inside.
  /// Removed when the last copy of the runner goes away.
  public var home: URL { directory.url }
  private let directory: TemporaryDirectory
  /// The complete environment of every run.
  public var environment: [String: String]

  /// `HOME`, the three `XDG_*` directories under `home`, and `LANG=C.UTF-8`.
  public static func baseEnvironment(home: URL) -> [String: String] {
    [
      "HOME": home.path,
      "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
      "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
      "XDG_DATA_HOME": home.appendingPathComponent("data").path,
      "LANG": "C.UTF-8",
    ]
  }

  /// A runner whose five providers' base URLs point at `server`
  /// (laid out like ``FakeAPIs``), or at nothing when `server` is `nil`.
  ///
  /// Requests time out after 30 s (`RATES_TIMEOUT`), a hang guard only: on a loaded machine a
  /// loopback server's thread can take more than the 2 s this once was to answer, and a run
  /// then reported a timeout where it should have seen the reply (or the dropped connection)
  /// it was testing. A test of timeouts sets its own.
  public init(server: URL?, extra: [String: String] = [:]) throws {
    directory = try TemporaryDirectory()
    var environment = Self.baseEnvironment(home: directory.url)
    environment["PATH"] = "/usr/bin:/bin"
    environment["RATES_TIMEOUT"] = "30"
    if let server { environment.merge(FakeAPIs.environment(base: server)) { $1 } }
    environment.merge(extra) { $1 }
    self.environment = environment
  }

  /// The `rates` executable SwiftPM built beside the test bundle.
  public static var binary: URL {
    get throws { try product("rates") }
  }

  /// An executable SwiftPM built beside the test bundle, such as `rates` or `fake-api`.
  public static func product(_ name: String) throws -> URL {
    var directory = Bundle.main.bundleURL
    for _ in 0..<3 {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    throw RunnerError.binaryMissing("no '\(name)' executable near \(Bundle.main.bundleURL.path)")
  }

  /// Runs `rates` with `arguments`.
  ///
  /// - Parameters:
  ///   - hangGuard: seconds after which a process that is still running is
  ///     killed (SIGTERM); only a true hang reaches it, and the result then says so
  ///     on stderr. Never an assertion on how long a run takes.
  ///   - extra: variables added to ``environment`` for this run.
  ///   - stdin: written to standard input, then closed; `nil` for `/dev/null`.
  public func run(
    _ arguments: [String], hangGuard: Double = 60, extra: [String: String] = [:],
    stdin: String? = nil
  ) async throws -> CommandResult {
    try await runProcess(
      try Self.binary, arguments, environment: environment.merging(extra) { $1 }, directory: home,
      stdin: stdin, hangGuard: hangGuard)
  }
}
