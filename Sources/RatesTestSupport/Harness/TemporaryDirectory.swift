import Foundation
import Synchronization

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
/// There is no folder without an owner: ``unowned()`` lists any that appears.
public final class TemporaryDirectory: Sendable {
  /// The directory.
  public let url: URL

  /// Creates a fresh, empty directory.
  ///
  /// - Throws: when it cannot be created.
  public init() throws {
    url = TemporaryRoot.url.appendingPathComponent(UUID().uuidString, isDirectory: true)
    TemporaryRoot.claim(url.lastPathComponent)
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
      TemporaryRoot.release(url.lastPathComponent)
      throw error
    }
  }

  deinit {
    TemporaryRoot.remove(url)
    TemporaryRoot.release(url.lastPathComponent)
  }

  /// The entries of this process's `rates-tests-<pid>` folder that no live value owns:
  /// folders a test made some other way, or whose removal failed. Empty when every test
  /// keeps its word (a folder made and removed while this runs is never counted).
  public static func unowned() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: TemporaryRoot.url.path)) ?? []
    let owned = TemporaryRoot.owned.withLock { $0 }
    return names.filter { name in
      var info = stat()
      let path = TemporaryRoot.url.appendingPathComponent(name).path
      return !owned.contains(name) && lstat(path, &info) == 0
    }.sorted()
  }
}

/// The folders one test makes, each removed when this value goes away. A suite holds one
/// (`let scratch = Scratch()`): Swift Testing makes a suite value per test, so a test's
/// folders go when the test is done.
public final class Scratch: @unchecked Sendable {
  private let lock = NSLock()
  private var held: [TemporaryDirectory] = []

  /// Holds no folder until ``folder()`` makes one.
  public init() {}

  /// A fresh, empty folder, removed with this value.
  ///
  /// - Throws: when it cannot be created.
  public func folder() throws -> URL {
    let directory = try TemporaryDirectory()
    lock.withLock { held.append(directory) }
    return directory.url
  }
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

/// `rates-tests-<pid>` in the system's temporary directory: made on first use, removed at exit.
enum TemporaryRoot {
  /// The names of the folders live ``TemporaryDirectory`` values own: claimed before the
  /// folder is made, released after it is removed.
  static let owned = Mutex<Set<String>>([])

  static func claim(_ name: String) { _ = owned.withLock { $0.insert(name) } }
  static func release(_ name: String) { _ = owned.withLock { $0.remove(name) } }

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
