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
  /// The clock the lock waits on.
  let lockClock: FileLock.Clock
  private let makeEmpty: @Sendable () -> Value

  /// Creates a handle on the document at `url` whose value lives under `key`; `empty` is the
  /// value of a file that does not exist yet. Nothing is touched on disk until used.
  public init(
    url: URL, key: String, version: Int = 1,
    empty: @autoclosure @escaping @Sendable () -> Value
  ) {
    self.init(url: url, key: key, version: version, lockTimeout: .seconds(10), makeEmpty: empty)
  }

  /// Creates a handle with a custom lock timeout and clock (for tests).
  init(
    url: URL, key: String, version: Int = 1, lockTimeout: Duration,
    lockClock: FileLock.Clock = .live, makeEmpty: @escaping @Sendable () -> Value
  ) {
    self.url = url
    self.key = key
    self.version = version
    self.lockTimeout = lockTimeout
    self.lockClock = lockClock
    self.makeEmpty = makeEmpty
  }

  /// The lock file, `.<name>.lock` next to the file the data lives in: the data file, or the
  /// file it is a symbolic link to.
  ///
  /// The lock cannot be taken on the data file itself: every write renames a new file (a new
  /// inode) over it, so a process that opened the old inode would lock a file nobody else sees
  /// any more, and two writers could each hold "the" lock at once. The lock file is never
  /// replaced, and never deleted either: deleting it races with a process that has just opened
  /// it, which would then lock an orphaned inode. It holds no data.
  ///
  /// It sits beside the *resolved* target, where the writes go, so that two symbolic links to
  /// one file (or a link and the file itself) share one lock.
  var lockURL: URL { Self.lockURL(for: (try? resolvedURL()) ?? url) }

  /// The lock file of the data file at `target`.
  static func lockURL(for target: URL) -> URL {
    target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).lock")
  }

  /// Reads the value; a missing file is `empty()`. Throws DataFileError for anything else wrong.
  /// Takes a SHARED lock while reading.
  public func read() throws -> Value {
    let target = try resolvedURL()
    guard
      let lock = try FileLock.acquire(
        at: Self.lockURL(for: target), for: url, exclusive: false, timeout: lockTimeout,
        clock: lockClock)
    else {
      // The directory does not exist, so neither does the file.
      return makeEmpty()
    }
    defer { lock.release() }
    guard let data = try readContents(of: target) else { return makeEmpty() }
    return try decode(data)
  }

  /// Reads the value without taking the lock (writers rename whole files into place, so this
  /// still sees a complete file), for shell completion, which must never wait.
  public func readWithoutLock() throws -> Value {
    guard let data = try readContents(of: try resolvedURL()) else { return makeEmpty() }
    return try decode(data)
  }

  /// Under an EXCLUSIVE lock: read (missing → empty), let `transform` mutate it, and if it
  /// returns normally write the result atomically (mode 0600) — unless the value is unchanged
  /// (compare encoded bytes), in which case nothing is written. If transform throws, nothing is
  /// written and the error propagates. Returns transform's result.
  public func update<Result>(_ transform: (inout Value) throws -> Result) throws -> Result {
    try update { value, _ in (try transform(&value), false) }.result
  }

  /// ``update(_:)`` for a transform that also learns whether the file existed, and may ask
  /// for the value to be written even when unchanged (to create the file).
  func update<Result>(
    _ transform: (inout Value, _ existed: Bool) throws -> (result: Result, write: Bool)
  ) throws -> (result: Result, write: Bool) {
    let target = try resolvedURL()
    let directory = target.deletingLastPathComponent()
    try AtomicFile.createDirectory(directory)
    guard
      let lock = try FileLock.acquire(
        at: Self.lockURL(for: target), for: url, exclusive: true, timeout: lockTimeout,
        clock: lockClock)
    else {
      throw AtomicFile.WriteError(path: directory.path, reason: "directory vanished")
    }
    defer { lock.release() }
    let document = try readContents(of: target).map(decodeDocument)
    var value = document?.value ?? makeEmpty()
    let unknown = document?.unknownMembers ?? [:]
    let before = try encode(value, unknownMembers: unknown)
    let result = try transform(&value, document != nil)
    let after = try encode(value, unknownMembers: unknown)
    guard after != before || (result.write && document == nil) else { return result }
    try AtomicFile.replaceUserFile(target, with: after)
    return result
  }

  // MARK: - Encoding

  struct VersionProbe: Decodable {
    var version: Int
  }

  /// The whole document; the value's key comes from the decoder's `userInfo`. Top-level
  /// members other than `version` and the key (from a newer `rates`) are kept, and written back.
  struct Document: Codable {
    static var keyInfo: CodingUserInfoKey? { CodingUserInfoKey(rawValue: "rates.DataFile.key") }

    var version: Int
    var key: String
    var value: Value
    var unknownMembers: [String: JSONValue] = [:]

    init(version: Int, key: String, value: Value, unknownMembers: [String: JSONValue] = [:]) {
      self.version = version
      self.key = key
      self.value = value
      self.unknownMembers = unknownMembers
    }

    init(from decoder: any Decoder) throws {
      guard let keyInfo = Self.keyInfo, let key = decoder.userInfo[keyInfo] as? String else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: [], debugDescription: "no document key configured"))
      }
      let container = try decoder.container(keyedBy: MemberName.self)
      self.version = try container.decode(Int.self, forKey: MemberName("version"))
      self.key = key
      self.value = try container.decode(Value.self, forKey: MemberName(key))
      self.unknownMembers = try UnknownMembers.decode(from: decoder, known: ["version", key])
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: MemberName.self)
      try container.encode(version, forKey: MemberName("version"))
      try container.encode(value, forKey: MemberName(key))
      try UnknownMembers.encode(unknownMembers, to: encoder, known: ["version", key])
    }
  }

  func encode(_ value: Value, unknownMembers: [String: JSONValue] = [:]) throws -> Data {
    var data = try JSONCoders.encoder(pretty: true).encode(
      Document(version: version, key: key, value: value, unknownMembers: unknownMembers))
    data.append(0x0A)
    return data
  }

  /// The value of the document `data`.
  public func decode(_ data: Data) throws -> Value {
    try decodeDocument(data).value
  }

  /// The document `data`, with its unknown top-level members.
  func decodeDocument(_ data: Data) throws -> Document {
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
      return try decoder.decode(Document.self, from: data)
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
  ///
  /// Anything but a regular file (a FIFO, a directory, a device) is refused before it is read,
  /// and a FIFO never blocks the open: see ``RegularFile``.
  public func readContents(of file: URL) throws -> Data? {
    let handle: RegularFile.Handle
    switch RegularFile.open(file.path) {
    case .success(let opened): handle = opened
    case .failure(.missing): return nil
    case .failure(let failure):
      throw DataFileError.unreadable(path: url.path, reason: failure.reason)
    }
    defer { handle.close() }
    // Checked before reading: `readAll` allocates the size `fstat` gives at once, and a sparse
    // file of a terabyte (`truncate -s 1T`) made every command die failing to allocate it.
    func oversized() -> DataFileError {
      .unreadable(
        path: url.path,
        reason: "it is \(handle.size) bytes, more than the \(Self.maximumBytes >> 20) MiB rates "
          + "reads from a data file (it never writes one that large); move it aside")
    }
    guard handle.size <= Self.maximumBytes else { throw oversized() }
    let bytes: [UInt8]?
    do {
      bytes = try RegularFile.readAll(handle.fd, expected: handle.size, limit: Self.maximumBytes)
    } catch {
      throw DataFileError.unreadable(path: url.path, reason: error.reason)
    }
    guard let bytes else { throw oversized() }  // it grew past the limit while read
    return Data(bytes)
  }

  /// The largest data file read, far above any a person's coins, pairs or ledger make; a
  /// larger one is ``DataFileError/unreadable(path:reason:)`` and never read into memory.
  public static var maximumBytes: Int { 1 << 30 }
}

/// ``DataFile/read()`` of a `DataFile<[String: String]>` (the config file) through a function
/// that is not generic, so another module calling it does not instantiate the generic type at
/// run time: that costs checking `[String: String]`'s `Codable` conformances, four lookups
/// that each scan every conformance in the binary, on every command.
public enum StringsDataFile {
  /// The value under `key` of the document at `url`; `[:]` when there is no file.
  public static func read(url: URL, key: String) throws -> [String: String] {
    // No file and no link at its place: what `read()` answers, without the generic type.
    var status = stat()
    if lstat(url.path, &status) != 0, errno == ENOENT { return [:] }
    return try DataFile<[String: String]>(url: url, key: key, empty: [:]).read()
  }
}
