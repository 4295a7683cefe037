import Foundation

/// Runs the built `rates` executable as a user would, with its own temporary
/// XDG directories and the base-URL variables pointing at a loopback server.
struct BinaryRunner: Sendable {
  struct Result: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double

    /// stdout parsed as a JSON object.
    func json() throws -> [String: Any] {
      guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
      else { throw RunnerError.notJSON(stdout) }
      return object
    }

    /// stderr parsed as a JSON object (errors with `--json`).
    func errorJSON() throws -> [String: Any] {
      guard let object = try JSONSerialization.jsonObject(with: Data(stderr.utf8)) as? [String: Any]
      else { throw RunnerError.notJSON(stderr) }
      return object
    }
  }

  enum RunnerError: Error {
    case binaryMissing(String)
    case notJSON(String)
    case timedOut
  }

  /// The root of this run's XDG directories.
  let home: URL
  /// Variables added to a minimal environment.
  var environment: [String: String]

  /// A runner whose CoinGecko and CoinDesk base URLs point at `server`.
  init(server: URL?, extra: [String: String] = [:]) throws {
    home = try makeTemporaryDirectory()
    var environment = [
      "HOME": home.path,
      "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
      "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
      "XDG_DATA_HOME": home.appendingPathComponent("data").path,
      "PATH": "/usr/bin:/bin",
      "LANG": "C.UTF-8",
      "RATES_TIMEOUT": "2",
    ]
    if let server {
      environment["RATES_COINGECKO_URL"] = server.appendingPathComponent("api/v3").absoluteString
      environment["RATES_COINDESK_URL"] = server.appendingPathComponent("v1/bpi").absoluteString
      environment["RATES_FRANKFURTER_URL"] = server.appendingPathComponent("frankfurter").absoluteString
    }
    environment.merge(extra) { $1 }
    self.environment = environment
  }

  /// The executable SwiftPM built beside the test bundle.
  static var binary: URL {
    get throws {
      var directory = Bundle.main.bundleURL
      for _ in 0..<3 {
        let candidate = directory.appendingPathComponent("rates")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
      }
      throw RunnerError.binaryMissing("no 'rates' executable near \(Bundle.main.bundleURL.path)")
    }
  }

  /// Runs `rates` with `arguments`, killing it after `timeout` seconds.
  func run(
    _ arguments: [String], timeout: Double = 30, extra: [String: String] = [:], stdin: String? = nil
  ) async throws -> Result {
    let process = Process()
    process.executableURL = try Self.binary
    process.arguments = arguments
    process.environment = environment.merging(extra) { $1 }
    process.currentDirectoryURL = home
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    let started = Date()
    // Drain both pipes on their own threads so a chatty child never blocks.
    let outData = Recorder<Data>()
    let errData = Recorder<Data>()
    let group = DispatchGroup()
    for (pipe, sink) in [(out, outData), (err, errData)] {
      group.enter()
      Thread.detachNewThread {
        sink.append(pipe.fileHandleForReading.readDataToEndOfFile())
        group.leave()
      }
    }
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
      process.terminationHandler = { process in
        group.wait()
        continuation.resume(returning: process.terminationStatus)
      }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
        return
      }
      if let stdin {
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
      }
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
        if process.isRunning { process.terminate() }
      }
    }
    return Result(
      status: status,
      stdout: String(decoding: outData.all.first ?? Data(), as: UTF8.self),
      stderr: String(decoding: errData.all.first ?? Data(), as: UTF8.self),
      seconds: Date().timeIntervalSince(started))
  }

  /// Every file under the home directory, with its contents, for leak checks.
  func allFileContents() -> [(path: String, text: String)] {
    guard let enumerator = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)
    else { return [] }
    var files: [(String, String)] = []
    for case let url as URL in enumerator {
      if let data = FileManager.default.contents(atPath: url.path) {
        files.append((url.path, String(decoding: data, as: UTF8.self)))
      }
    }
    return files
  }
}
