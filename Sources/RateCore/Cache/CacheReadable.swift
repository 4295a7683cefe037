/// A value ``JSONFileCache`` can read back: it reads itself from an entry's `value` member.
///
/// Each type has exactly one reader in the cache: a hand-written `init(cacheJSON:)` over
/// ``JSONReader`` (the types a warm command reads: no `JSONDecoder`, no run-time lookup of
/// their `CodingKeys`), or, by conforming to ``CodableCacheValue``, its `Decodable`
/// conformance. Values are written with `JSONEncoder` either way.
public protocol CacheReadable: Encodable {
  /// Reads the value at `reader`, which must consume exactly that value.
  init(cacheJSON reader: inout JSONReader) throws(JSONReader.Failure)
}

/// A cached value read through its `Decodable` conformance with ``JSONCoders/decoder()``:
/// the cache's values a warm command does not read.
public protocol CodableCacheValue: CacheReadable, Decodable {}

extension CodableCacheValue {
  /// Decodes the value's bytes with ``JSONCoders/decoder()``.
  public init(cacheJSON reader: inout JSONReader) throws(JSONReader.Failure) {
    let range = try reader.skipped()
    do {
      self = try JSONCoders.decoder().decode(Self.self, from: Data(reader.bytes[range]))
    } catch {
      throw .shape("a \(Self.self)")
    }
  }
}

// Arrays of Codable values (markets, search results, hourly rates) are read through their
// Decodable conformance; no value the program caches is a bare array of a type read by hand.
extension Array: CacheReadable, CodableCacheValue where Element: Codable {}

extension String: CacheReadable {
  /// Reads a string (read by hand like every warm value: it is the simplest entry).
  public init(cacheJSON reader: inout JSONReader) throws(JSONReader.Failure) {
    self = try reader.string()
  }
}
