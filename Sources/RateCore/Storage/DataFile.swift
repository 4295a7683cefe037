import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A versioned JSON document on disk holding one user value (a list of favorites, of pairs, …).
///
/// On disk the document is `{"<key>": <value>, "version": 1}`, pretty-printed with sorted keys
/// and a trailing newline. Every write is atomic (temporary file, `fsync`, `rename`) with mode
/// 0600 and happens under an exclusive lock, so concurrent `rates` processes and threads never
/// lose each other's changes. A file that cannot be understood (corrupt, of another format
/// version, unreadable) is never overwritten: the operation throws ``DataFileError`` and the
/// file is left exactly as it was.
///
/// Operations are not reentrant: calling ``read()`` or ``update(_:)`` on the same file from
/// inside an `update` transform waits for the outer lock and ends in
/// ``DataFileError/lockTimeout(path:)``.
public struct DataFile<Value: Codable & Sendable>: Sendable {
  /// The data file.
  public let url: URL
  /// The document's top-level key holding the value, such as `"favorites"`; never `"version"`.
  public let key: String
  /// The format version this program reads and writes.
  public let version: Int
  /// How long to wait for another process or thread holding the lock.
  let lockTimeout: Duration
  private let makeEmpty: @Sendable () -> Value

  /// Creates a handle on the document at `url` whose value lives under `key`; `empty` is the
  /// value of a file that does not exist yet. Nothing is touched on disk until used.
  public init(
    url: URL, key: String, version: Int = 1,
    empty: @autoclosure @escaping @Sendable () -> Value
  ) {
    self.init(url: url, key: key, version: version, lockTimeout: .seconds(10), makeEmpty: empty)
  }

  /// Creates a handle with a custom lock timeout (for tests).
  init(
    url: URL, key: String, version: Int = 1, lockTimeout: Duration,
    makeEmpty: @escaping @Sendable () -> Value
  ) {
    self.url = url
    self.key = key
    self.version = version
    self.lockTimeout = lockTimeout
    self.makeEmpty = makeEmpty
  }

  /// The lock file, `.<name>.lock` next to the data file.
  ///
  /// The lock cannot be taken on the data file itself: every write renames a new file (a new
  /// inode) over it, so a process that opened the old inode would lock a file nobody else sees
  /// any more, and two writers could each hold "the" lock at once. The lock file is never
  /// replaced, and never deleted either: deleting it races with a process that has just opened
  /// it, which would then lock an orphaned inode. It holds no data.
  var lockURL: URL {
    url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).lock")
  }

  /// Reads the value; a missing file is `empty()`. Throws DataFileError for anything else wrong.
  /// Takes a SHARED lock while reading.
  public func read() throws -> Value {
    guard
      let lock = try FileLock.acquire(
        at: lockURL, for: url, exclusive: false, timeout: lockTimeout)
    else {
      // The directory does not exist, so neither does the file.
      return makeEmpty()
    }
    defer { lock.release() }
    guard let data = try readContents(of: try resolvedURL()) else { return makeEmpty() }
    return try decode(data)
  }

  /// Under an EXCLUSIVE lock: read (missing → empty), let `transform` mutate it, and if it
  /// returns normally write the result atomically (mode 0600) — unless the value is unchanged
  /// (compare encoded bytes), in which case nothing is written. If transform throws, nothing is
  /// written and the error propagates. Returns transform's result.
  public func update<Result>(_ transform: (inout Value) throws -> Result) throws -> Result {
    let directory = url.deletingLastPathComponent()
    try AtomicFile.createDirectory(directory)
    guard
      let lock = try FileLock.acquire(
        at: lockURL, for: url, exclusive: true, timeout: lockTimeout)
    else {
      throw AtomicFile.WriteError(path: directory.path, reason: "directory vanished")
    }
    defer { lock.release() }
    let target = try resolvedURL()
    var value = try readContents(of: target).map(decode) ?? makeEmpty()
    let before = try encode(value)
    let result = try transform(&value)
    let after = try encode(value)
    guard after != before else { return result }
    removeStaleTemporaryFiles(next: target)
    // A new inode created 0600 replaces the old one, so broader permissions on an existing
    // file are tightened by the write itself; `chmod` covers a umask that also cleared 0600 bits.
    try AtomicFile.write(after, to: target, mode: 0o600)
    chmod(target.path, 0o600)
    syncDirectory(target.deletingLastPathComponent())
    return result
  }

  // MARK: - Encoding

  /// The dynamic coding key of the document's two members.
  struct MemberKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  struct VersionProbe: Decodable {
    var version: Int
  }

  /// The whole document; the value's key comes from the decoder's `userInfo`.
  struct Document: Codable {
    static var keyInfo: CodingUserInfoKey? { CodingUserInfoKey(rawValue: "rates.DataFile.key") }

    var version: Int
    var key: String
    var value: Value

    init(version: Int, key: String, value: Value) {
      self.version = version
      self.key = key
      self.value = value
    }

    init(from decoder: any Decoder) throws {
      guard let keyInfo = Self.keyInfo, let key = decoder.userInfo[keyInfo] as? String else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: [], debugDescription: "no document key configured"))
      }
      let container = try decoder.container(keyedBy: MemberKey.self)
      self.version = try container.decode(Int.self, forKey: MemberKey("version"))
      self.key = key
      self.value = try container.decode(Value.self, forKey: MemberKey(key))
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: MemberKey.self)
      try container.encode(version, forKey: MemberKey("version"))
      try container.encode(value, forKey: MemberKey(key))
    }
  }

  func encode(_ value: Value) throws -> Data {
    var data = try JSONCoders.encoder(pretty: true).encode(
      Document(version: version, key: key, value: value))
    data.append(0x0A)
    return data
  }

  public func decode(_ data: Data) throws -> Value {
    let path = url.path
    guard data.contains(where: { !Self.isJSONWhitespace($0) }) else {
      throw DataFileError.corrupt(path: path, detail: "the file is empty")
    }
    let decoder = JSONCoders.decoder()
    let found: Int
    do {
      found = try decoder.decode(VersionProbe.self, from: data).version
    } catch let error as DecodingError {
      throw DataFileError.corrupt(path: path, detail: error.summary)
    } catch {
      throw DataFileError.corrupt(path: path, detail: "not valid JSON, possibly truncated")
    }
    guard found >= 1 else {
      throw DataFileError.corrupt(
        path: path, detail: "at version: \(found) is not a format version")
    }
    guard found == version else {
      throw DataFileError.unsupportedVersion(path: path, version: found, supported: version)
    }
    if let keyInfo = Document.keyInfo { decoder.userInfo[keyInfo] = key }
    do {
      return try decoder.decode(Document.self, from: data).value
    } catch let error as DecodingError {
      throw DataFileError.corrupt(path: path, detail: error.summary)
    } catch {
      throw DataFileError.corrupt(path: path, detail: String(describing: error))
    }
  }

  static func isJSONWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  // MARK: - Files

  /// The file to read and replace: `url`, or the file it is a symbolic link to, so that a data
  /// file kept elsewhere (say in a dotfiles repository) stays linked instead of being replaced.
  public func resolvedURL() throws -> URL {
    var info = stat()
    guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return url }
    guard let resolved = realpath(url.path, nil) else {
      throw DataFileError.unreadable(
        path: url.path,
        reason: "it is a symbolic link to a missing file (\(AtomicFile.lastError()))")
    }
    defer { free(resolved) }
    return URL(fileURLWithPath: String(cString: resolved))
  }

  /// The file's bytes, or nil when it does not exist.
  public func readContents(of file: URL) throws -> Data? {
    let fd = open(file.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOENT { return nil }
      throw DataFileError.unreadable(path: url.path, reason: AtomicFile.lastError())
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw DataFileError.unreadable(path: url.path, reason: AtomicFile.lastError())
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw DataFileError.unreadable(path: url.path, reason: "not a regular file")
    }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw DataFileError.unreadable(path: url.path, reason: AtomicFile.lastError())
      }
      if count == 0 { return data }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  /// Removes `.<name>.*.tmp` files that a writer killed mid-write left behind. Only called under
  /// the exclusive lock, when no other writer of this file can be between create and rename.
  func removeStaleTemporaryFiles(next file: URL) {
    let directory = file.deletingLastPathComponent()
    let prefix = ".\(file.lastPathComponent)."
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
      return
    }
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      unlink(directory.appendingPathComponent(name).path)
    }
  }

  /// Flushes the directory entry of a rename to disk (best effort).
  func syncDirectory(_ directory: URL) {
    let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }
}

/// A `flock(2)` lock on a lock file, held through one open file description.
///
/// `flock` locks belong to the open file description, not to the process (unlike `fcntl`
/// locks, which a process holds once and loses when it closes *any* descriptor of the file).
/// Each operation therefore opens the lock file afresh, which makes the lock exclude other
/// threads of this process as well as other processes. The kernel drops the lock when the
/// descriptor is closed, including when the process dies, so a crash never leaves a stale lock.
struct FileLock {
  let fd: Int32

  /// Opens (creating, mode 0600) `lockURL` and locks it, polling until `timeout`.
  ///
  /// Returns nil when the directory does not exist and the lock is shared (nothing to read).
  /// When a shared lock file cannot be created (a read-only directory), the read goes ahead
  /// unlocked: writers replace the data file by `rename`, so a reader still sees a whole file.
  static func acquire(
    at lockURL: URL, for dataURL: URL, exclusive: Bool, timeout: Duration
  ) throws -> FileLock? {
    var fd = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    if fd < 0 {
      let error = errno
      if !exclusive {
        if error == ENOENT { return nil }
        if error == EACCES || error == EROFS || error == EPERM {
          fd = open(lockURL.path, O_RDONLY | O_CLOEXEC)
          if fd < 0 { return FileLock(fd: -1) }
        }
      }
      guard fd >= 0 else {
        let reason = String(cString: strerror(error))
        if exclusive { throw AtomicFile.WriteError(path: lockURL.path, reason: reason) }
        throw DataFileError.unreadable(path: lockURL.path, reason: reason)
      }
    }
    var info = stat()
    if exclusive, fstat(fd, &info) == 0, info.st_mode & 0o077 != 0 {
      fchmod(fd, 0o600)
    }
    let operation = (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var pause: UInt32 = 2_000
    while flock(fd, operation) != 0 {
      let error = errno
      if error == EINTR { continue }
      guard error == EWOULDBLOCK || error == EAGAIN else {
        close(fd)
        throw DataFileError.unreadable(
          path: lockURL.path, reason: String(cString: strerror(error)))
      }
      guard clock.now < deadline else {
        close(fd)
        throw DataFileError.lockTimeout(path: dataURL.path)
      }
      usleep(pause)
      pause = min(pause * 2, 50_000)
    }
    return FileLock(fd: fd)
  }

  /// Unlocks by closing the descriptor.
  func release() {
    if fd >= 0 { close(fd) }
  }
}

/// `read(2)`; named apart so it does not clash with `DataFile.read`.
@inline(__always)
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
  #else
    return Darwin.read(fd, buffer, count)
  #endif
}

/// Why a user data file could not be read or updated. The file is always left untouched.
public enum DataFileError: Error, Equatable, Sendable, LocalizedError {
  /// The file is not JSON or not of the expected shape; `detail` says where.
  case corrupt(path: String, detail: String)
  /// The file has a format version this program does not read (usually a newer `rates`).
  case unsupportedVersion(path: String, version: Int, supported: Int)
  /// The file exists but cannot be read (permissions, a directory in its place, …).
  case unreadable(path: String, reason: String)
  /// Another `rates` held the file's lock for too long.
  case lockTimeout(path: String)

  /// A message naming the file, saying it was left untouched and how to recover.
  public var errorDescription: String? {
    switch self {
    case .corrupt(let path, let detail):
      let quoted = Self.shellQuoted(path)
      return "\(path) is corrupt (\(detail)); it was left untouched. Fix it by hand, "
        + "or move it aside to start empty: mv \(quoted) \(Self.shellQuoted(path + ".bak"))"
    case .unsupportedVersion(let path, let version, let supported) where version > supported:
      return "\(path) was written by a newer rates (format version \(version); this rates "
        + "reads version \(supported)); it was left untouched. Upgrade rates to use it."
    case .unsupportedVersion(let path, let version, let supported):
      return "\(path) has format version \(version), which this rates (format version "
        + "\(supported)) cannot read; it was left untouched."
    case .unreadable(let path, let reason):
      return "cannot read \(path): \(reason); nothing was changed."
    case .lockTimeout(let path):
      let url = URL(fileURLWithPath: path)
      let lock = url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).lock").path
      return "\(path) is locked by another rates command (lock file \(lock)); "
        + "nothing was changed. Try again when it has finished."
    }
  }

  /// `path` quoted for a POSIX shell when it needs quoting.
  public static func shellQuoted(_ path: String) -> String {
    let plain = path.allSatisfy { character in
      character.isASCII
        && (character.isLetter || character.isNumber || "/._-+,:@%".contains(character))
    }
    if plain && !path.isEmpty { return path }
    return "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
