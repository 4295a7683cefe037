import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh directory for one test's files, removed with everything in it when the last value
/// holding it goes away (``CLIHarness`` and ``BinaryRunner`` hold one for their home).
///
/// Every such directory lives under one folder per test process,
/// `rates-tests-<pid>` in the system's temporary directory, which is itself removed when the
/// process exits: a test that crashes half-way still leaves nothing behind once the run ends.
public final class TemporaryDirectory: Sendable {
  /// The directory.
  public let url: URL

  /// Creates a fresh, empty directory.
  ///
  /// - Throws: when it cannot be created.
  public init() throws {
    url = TemporaryRoot.url.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { TemporaryRoot.remove(url) }
}

/// Runs `body` with a fresh directory, removed when `body` returns or throws.
public func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let directory = try TemporaryDirectory()
  return try withExtendedLifetime(directory) { try body(directory.url) }
}

/// Runs `body` with a fresh directory, removed when `body` returns or throws.
public func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
  let directory = try TemporaryDirectory()
  defer { withExtendedLifetime(directory) {} }
  return try await body(directory.url)
}

/// A fresh directory under this process's temporary folder, removed when the process exits.
///
/// Prefer ``withTemporaryDirectory(_:)-(URL)->T`` or a ``TemporaryDirectory`` value, which
/// remove the directory as soon as the test is done with it.
public func makeTemporaryDirectory() throws -> URL {
  let url = TemporaryRoot.url.appendingPathComponent(UUID().uuidString, isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// `rates-tests-<pid>` in the system's temporary directory: made on first use, removed at exit.
enum TemporaryRoot {
  static let url: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("rates-tests-\(getpid())", isDirectory: true)
    remove(url)  // a folder left by an earlier process with the same id
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { TemporaryRoot.remove(TemporaryRoot.url) }
    return url
  }()

  /// Removes `url` and everything below it, first giving back the permissions tests take
  /// away (a directory without `x` or `w` cannot be emptied).
  static func remove(_ url: URL) {
    var info = stat()
    guard lstat(url.path, &info) == 0 else { return }
    if info.st_mode & S_IFMT == S_IFDIR {
      chmod(url.path, 0o700)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
      for name in names { remove(url.appendingPathComponent(name)) }
      rmdir(url.path)
    } else {
      unlink(url.path)
    }
  }
}
