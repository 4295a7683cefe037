/// A cache of JSON files, one per entry, under one directory.
///
/// Each file is an envelope recording the format version, the provider, the
/// request key and when the data was fetched. Writes are atomic but not flushed
/// to disk: a cache may lose its newest entries on a power loss, and saves
/// during `watch` must stay cheap. A file that is corrupt, of another format
/// version or of another key, larger than the cache ever writes, or not a
/// regular file is ``Lookup/unusable(_:)`` with a ``CacheProblem`` the caller
/// can warn about, never a crash or a hang; it is replaced by the next good write.
public struct JSONFileCache: Sendable {
  /// The envelope's format version; bump it when a cached value's shape changes.
  public static let formatVersion = 1

  /// The cache's root directory.
  public var directory: URL

  /// The largest file read for an entry of `kind` (a key's second segment: `price`,
  /// `history`, …), far above anything the cache writes; larger files are
  /// ``CacheProblem/oversized(path:bytes:limit:)`` and never read into memory.
  public static func maximumBytes(forKind kind: String) -> Int {
    switch kind {
    case "price", "resolve": return 256 * 1024
    case "week": return 1024 * 1024
    default: return defaultMaximumBytes
    }
  }
  /// The limit for other kinds (markets, searches, histories).
  public static let defaultMaximumBytes = 8 * 1024 * 1024

  /// Creates a cache rooted at `directory` (created on first write).
  public init(directory: URL) {
    self.directory = directory
  }

  /// A cached value with its provenance.
  public struct Entry<Value: Sendable>: Sendable {
    /// The provider that supplied the value.
    public var source: String
    /// When it was fetched.
    public var fetchedAt: Date
    /// The value.
    public var value: Value
  }

  /// The result of a lookup.
  public enum Lookup<Value: Sendable>: Sendable {
    /// No entry.
    case miss
    /// An entry.
    case hit(Entry<Value>)
    /// An entry that could not be used, and why (for a warning).
    case unusable(CacheProblem)

    /// The entry, if there is one.
    public var entry: Entry<Value>? {
      if case .hit(let entry) = self { return entry }
      return nil
    }
  }

  /// A cache file: written with ``JSONCoders/encoder(pretty:)``, read with
  /// ``JSONCoders/decoder()`` by ``readEnvelope(_:key:path:)``.
  struct Envelope<Value> {
    var version: Int
    var key: String
    var source: String
    var fetchedAt: Date
    var value: Value

    enum CodingKeys: String, CodingKey {
      case version, key, source, fetchedAt, value
    }
  }

  /// Decoding stopped at a file of another format version.
  struct OtherVersion: Error {
    var version: Int
  }

  /// Reads the entry stored under `key`.
  ///
  /// Never blocks and never reads more than the kind's limit: the file is opened non-blocking
  /// without following a symbolic link, and its type and size are checked before reading.
  public func load<Value: CacheValue>(_ type: Value.Type, key: String) -> Lookup<Value> {
    let path = fileURL(for: key).path
    switch Self.readEntry(at: path, limit: Self.maximumBytes(forKey: key)) {
    case .missing: return .miss
    case .bytes(let bytes): return Self.readEnvelope(bytes, key: key, path: path)
    case .unusable(let problem): return .unusable(problem)
    }
  }

  /// Reads an entry file's bytes. Version first: a file of another version is
  /// ``CacheProblem/otherVersion(path:version:)`` whatever else its members hold; then a file
  /// that is not JSON, lacks a member, has one of the wrong type or an implausible value
  /// (``CacheValue/isPlausible``) is corrupt, and one written for another key foreign.
  static func readEnvelope<Value: CacheValue>(
    _ bytes: [UInt8], key: String, path: String
  ) -> Lookup<Value> {
    let envelope: Envelope<Value>
    do {
      envelope = try JSONCoders.decoder().decode(Envelope<Value>.self, from: Data(bytes))
    } catch let other as OtherVersion {
      return .unusable(.otherVersion(path: path, version: other.version))
    } catch {
      return .unusable(.corrupt(path: path))
    }
    guard envelope.value.isPlausible else { return .unusable(.corrupt(path: path)) }
    guard envelope.key == key else { return .unusable(.foreign(path: path)) }
    return .hit(Entry(source: envelope.source, fetchedAt: envelope.fetchedAt, value: envelope.value))
  }

  /// What reading an entry file found.
  public enum EntryFile: Sendable {
    /// No file.
    case missing
    /// The file's bytes.
    case bytes([UInt8])
    /// A file that cannot be used, and why.
    case unusable(CacheProblem)

    /// The bytes, when the file could be read.
    public var data: Data? {
      if case .bytes(let bytes) = self { return Data(bytes) }
      return nil
    }
  }

  /// The bytes of the entry file at `path`, ``EntryFile/missing`` when there is none.
  public static func readEntry(at path: String, limit: Int) -> EntryFile {
    let handle: RegularFile.Handle
    switch RegularFile.open(path, followLinks: false) {
    case .success(let opened): handle = opened
    case .failure(.missing): return .missing
    case .failure(.notRegular(let kind)): return .unusable(.notAFile(path: path, kind: kind))
    case .failure(.system(let reason)): return .unusable(.unreadable(path: path, reason: reason))
    }
    defer { handle.close() }
    guard handle.size <= limit else {
      return .unusable(.oversized(path: path, bytes: handle.size, limit: limit))
    }
    do {
      guard let bytes = try RegularFile.readAll(handle.fd, expected: handle.size, limit: limit)
      else {
        return .unusable(.oversized(path: path, bytes: limit + 1, limit: limit))
      }
      return .bytes(bytes)
    } catch {
      return .unusable(.unreadable(path: path, reason: error.reason))
    }
  }

  /// The size limit for the entry under `key`: by its kind, the second of three or more
  /// segments of the key (``segments(of:)``).
  public static func maximumBytes(forKey key: String) -> Int {
    let segments = segments(of: key)
    return maximumBytes(forKind: segments.count > 2 ? segments[1] : "")
  }

  /// Stores `value` under `key`, replacing any previous entry atomically.
  public func save<Value: Encodable & Sendable>(
    _ value: Value, key: String, source: String, fetchedAt: Date
  ) throws {
    let envelope = Envelope(
      version: Self.formatVersion, key: key, source: source, fetchedAt: fetchedAt, value: value)
    let data = try JSONCoders.encoder().encode(envelope)
    let url = fileURL(for: key)
    let limit = Self.maximumBytes(forKey: key)
    guard data.count <= limit else {
      throw AtomicFile.WriteError(
        path: url.path, reason: "\(data.count) bytes is more than the \(limit) kept for one entry")
    }
    try AtomicFile.write(data, to: url, durable: false)
  }

  /// The file for `key`: `a/b/c` maps to `<directory>/a/b/c.json` (``segments(of:)``), so no
  /// key escapes the directory.
  public func fileURL(for key: String) -> URL {
    Self.fileURL(for: key, in: directory, fileExtension: "json")
  }

  /// The file for `key` under `directory`, its last segment ending in `.fileExtension`;
  /// `_.fileExtension` for a key with no segment.
  static func fileURL(for key: String, in directory: URL, fileExtension: String) -> URL {
    let segments = segments(of: key)
    var url = directory
    for segment in segments.dropLast() { url.appendPathComponent(segment, isDirectory: true) }
    return url.appendingPathComponent((segments.last ?? "_") + "." + fileExtension)
  }

  /// The key lower-cased and split at `/` (empty segments dropped), each character outside
  /// `[a-z0-9._-]` made `_`, and a segment's leading `.` made `_`.
  static func segments(of key: String) -> [String] {
    key.lowercased().split(separator: "/").map { segment in
      let cleaned = String(
        segment.map { character -> Character in
          character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
            ? character : "_"
        })
      return cleaned.hasPrefix(".") ? "_" + cleaned.dropFirst() : cleaned
    }
  }
}

extension JSONFileCache.Envelope: Encodable where Value: Encodable {}

extension JSONFileCache.Envelope: Decodable where Value: Decodable {
  /// Reads the version first, and stops at another one (``JSONFileCache/OtherVersion``).
  init(from decoder: any Decoder) throws {
    let members = try decoder.container(keyedBy: CodingKeys.self)
    version = try members.decode(Int.self, forKey: .version)
    guard version == JSONFileCache.formatVersion else {
      throw JSONFileCache.OtherVersion(version: version)
    }
    key = try members.decode(String.self, forKey: .key)
    source = try members.decode(String.self, forKey: .source)
    fetchedAt = try members.decode(Date.self, forKey: .fetchedAt)
    value = try members.decode(Value.self, forKey: .value)
  }
}

/// Why a cache file could not be used. Every case names the file; none is fatal.
public enum CacheProblem: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
  /// Not JSON, or not an envelope of the expected shape.
  case corrupt(path: String)
  /// An envelope of another format version.
  case otherVersion(path: String, version: Int)
  /// An envelope for another key: not this entry's file.
  case foreign(path: String)
  /// Larger than the cache writes for its kind; not read.
  case oversized(path: String, bytes: Int, limit: Int)
  /// A FIFO, directory, device or symbolic link where an entry file should be; not opened.
  case notAFile(path: String, kind: String)
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// A day store file that was not one (or too large), renamed to `aside` (kept, never
  /// deleted); its days are asked again and a sound file written in its place.
  case setAside(path: String, aside: String)

  /// `ignoring corrupt cache file <path>`, …: the end of a warning.
  public var description: String {
    switch self {
    case .corrupt(let path): return "ignoring corrupt cache file \(path)"
    case .otherVersion(let path, let version):
      return "ignoring cache file \(path) of format version \(version)"
    case .foreign(let path): return "ignoring cache file \(path) written for another entry"
    case .oversized(let path, let bytes, let limit):
      return "ignoring cache file \(path): \(bytes) bytes is more than the \(limit) the cache"
        + " writes for it"
    case .notAFile(let path, let kind): return "ignoring \(path) in the cache: it is \(kind)"
    case .unreadable(let path, let reason):
      return "ignoring unreadable cache file \(path): \(reason)"
    case .setAside(let path, let aside):
      return "ignoring corrupt cache file \(path): kept as \(aside), its days asked again"
    }
  }

  /// The same sentence as ``description``.
  public var errorDescription: String? { description }
}
