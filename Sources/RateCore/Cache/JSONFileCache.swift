import Foundation

/// A cache of JSON files, one per entry, under one directory.
///
/// Each file is an envelope recording the format version, the provider, the
/// request key and when the data was fetched. Writes are atomic. A file that
/// is corrupt, of another format version or of another key is a miss with a
/// warning, never a crash; it is replaced by the next good write.
public struct JSONFileCache: Sendable {
  /// The envelope's format version; bump it when a cached value's shape changes.
  public static let formatVersion = 1

  /// The cache's root directory.
  public var directory: URL

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

    /// How long ago the value was fetched, at `now`.
    public func age(at now: Date) -> TimeInterval { now.timeIntervalSince(fetchedAt) }
  }

  /// The result of a lookup.
  public enum Lookup<Value: Sendable>: Sendable {
    /// No entry.
    case miss
    /// An entry.
    case hit(Entry<Value>)
    /// An entry that could not be used, and why (for a warning).
    case unusable(String)

    /// The entry, if there is one.
    public var entry: Entry<Value>? {
      if case .hit(let entry) = self { return entry }
      return nil
    }
  }

  struct Envelope<Value: Codable>: Codable {
    var version: Int
    var key: String
    var source: String
    var fetchedAt: Date
    var value: Value
  }

  struct VersionProbe: Decodable {
    var version: Int
  }

  /// Reads the entry stored under `key`.
  public func load<Value: Codable & Sendable>(_ type: Value.Type, key: String) -> Lookup<Value> {
    let url = fileURL(for: key)
    guard let data = FileManager.default.contents(atPath: url.path) else { return .miss }
    let decoder = JSONCoders.decoder()
    guard let probe = try? decoder.decode(VersionProbe.self, from: data) else {
      return .unusable("ignoring corrupt cache file \(url.path)")
    }
    guard probe.version == Self.formatVersion else {
      return .unusable("ignoring cache file \(url.path) of format version \(probe.version)")
    }
    guard let envelope = try? decoder.decode(Envelope<Value>.self, from: data), envelope.key == key
    else {
      return .unusable("ignoring unreadable cache file \(url.path)")
    }
    return .hit(Entry(source: envelope.source, fetchedAt: envelope.fetchedAt, value: envelope.value))
  }

  /// Stores `value` under `key`, replacing any previous entry atomically.
  public func save<Value: Codable & Sendable>(
    _ value: Value, key: String, source: String, fetchedAt: Date
  ) throws {
    let envelope = Envelope(
      version: Self.formatVersion, key: key, source: source, fetchedAt: fetchedAt, value: value)
    let data = try JSONCoders.encoder().encode(envelope)
    try AtomicFile.write(data, to: fileURL(for: key))
  }

  /// The file for `key`: `a/b/c` maps to `<directory>/a/b/c.json`, with every
  /// character outside `[a-z0-9._-]` replaced so no key escapes the directory.
  public func fileURL(for key: String) -> URL {
    let segments = key.lowercased().split(separator: "/").map { segment -> String in
      let cleaned = String(
        segment.map { character -> Character in
          character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
            ? character : "_"
        })
      return cleaned.hasPrefix(".") ? "_" + cleaned.dropFirst() : cleaned
    }
    var url = directory
    for segment in segments.dropLast() { url.appendPathComponent(segment, isDirectory: true) }
    return url.appendingPathComponent((segments.last ?? "_") + ".json")
  }
}
