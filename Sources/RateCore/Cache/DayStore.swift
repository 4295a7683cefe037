import Foundation

/// The permanent store of settled days: one small binary file per
/// (provider, asset, quote), a value per day, written once and never fetched again.
///
/// File `<cache>/days/<provider>/<asset>-<quote>.days`: the 8-byte magic
/// `RDAYS01\n`, the first day (Int32, days since 1970-01-01) and the number
/// of days (Int32), both little-endian, then one little-endian Float64 per
/// day from the first: a positive value is that day's settled value, 0 a day
/// not known yet, and ``noValueBits`` (a NaN) a day known to have no value
/// (an ECB closure, a coin not yet trading). So a day-value costs 8 bytes:
/// the ECB's whole history of one pair, 1999-01-04 to 2026 (about 10,200 days),
/// is about 80 KB; 30 currencies about 2.4 MB; 300 coins over 10 years 8.8 MB.
///
/// Writes take an exclusive `flock` on `<file>.lock`, re-read the file and
/// merge (a value already stored is never replaced), then replace the file
/// atomically; readers need no lock. A file that is not this format, too
/// large or unreadable is reported and treated as empty, and is replaced by
/// the next write.
public struct DayStore: Sendable {
  /// The cache's root directory (the store lives under `days/`).
  public var directory: URL

  static let magic = Array("RDAYS01\n".utf8)
  static let headerBytes = 16
  /// The bit pattern of "known: no value that day".
  static let noValueBits: UInt64 = 0x7FF8_0000_0000_0D0D
  /// The largest file read: 64 MB, about 23,000 years of days.
  static let maximumBytes = 64 * 1024 * 1024

  /// Creates a store under `directory`.
  public init(directory: URL) {
    self.directory = directory
  }

  /// What is known about each day: a value, or known to have none.
  public struct Days: Sendable, Equatable {
    /// Settled values by day.
    public var values: [Day: Double] = [:]
    /// Days known to have no value.
    public var empty: Set<Day> = []

    /// Creates an empty set of days.
    public init() {}

    /// Whether `day` is known (a value or none).
    public func knows(_ day: Day) -> Bool { values[day] != nil || empty.contains(day) }

    /// The first and last known day.
    public var span: ClosedRange<Day>? {
      let known = Array(values.keys) + Array(empty)
      guard let first = known.min(), let last = known.max() else { return nil }
      return first...last
    }

    /// `other` added; a value already here is kept, and a known value wins
    /// over "no value".
    public mutating func merge(_ other: Days) {
      for (day, value) in other.values where values[day] == nil {
        values[day] = value
        empty.remove(day)
      }
      for day in other.empty where values[day] == nil { empty.insert(day) }
    }
  }

  /// The file of a pair's `key` (`<provider>/<asset>-<quote>`).
  public func fileURL(key: String) -> URL {
    JSONFileCache(directory: directory.appendingPathComponent("days", isDirectory: true))
      .fileURL(for: key).deletingPathExtension().appendingPathExtension("days")
  }

  /// The stored days under `key`; empty when there is no file, and a
  /// ``CacheProblem`` alongside when the file cannot be used.
  public func load(key: String) -> (Days, CacheProblem?) {
    Self.read(fileURL(key: key))
  }

  /// Reads a store file.
  static func read(_ url: URL) -> (Days, CacheProblem?) {
    switch JSONFileCache.readEntry(at: url.path, limit: maximumBytes) {
    case .success(nil): return (Days(), nil)
    case .failure(let problem): return (Days(), problem)
    case .success(let data?):
      guard let days = decode(data) else { return (Days(), .corrupt(path: url.path)) }
      return (days, nil)
    }
  }

  /// What one store file holds, for `rates cache`.
  public struct Summary: Sendable, Equatable, Encodable {
    /// The first and last day known.
    public var from: Day
    public var through: Day
    /// Days with a value, and days known to have none.
    public var values: Int
    public var empty: Int
  }

  /// The summary of the store file at `url`, or nil when it is not one
  /// (or holds nothing).
  public static func summary(of url: URL) -> Summary? {
    let (days, problem) = read(url)
    guard problem == nil, let span = days.span else { return nil }
    return Summary(
      from: span.lowerBound, through: span.upperBound, values: days.values.count,
      empty: days.empty.count)
  }

  /// Adds `days` to the file of `key` under its lock; values already stored stay.
  public func save(_ days: Days, key: String) throws {
    guard !days.values.isEmpty || !days.empty.isEmpty else { return }
    let url = fileURL(key: key)
    try AtomicFile.createDirectory(url.deletingLastPathComponent())
    let lockURL = url.appendingPathExtension("lock")
    let lock = try FileLock.acquire(at: lockURL, for: url, exclusive: true, timeout: .seconds(5))
    defer { lock?.release() }
    var merged = Self.read(url).0
    let before = merged
    merged.merge(days)
    guard merged != before else { return }
    try AtomicFile.write(Self.encode(merged), to: url, durable: false)
  }

  /// The file's bytes for `days`.
  static func encode(_ days: Days) -> Data {
    guard let span = days.span else { return Data(magic + [UInt8](repeating: 0, count: 8)) }
    let count = span.lowerBound.distance(to: span.upperBound) + 1
    var bytes = [UInt8](repeating: 0, count: headerBytes + count * 8)
    bytes.replaceSubrange(0..<8, with: magic)
    bytes.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: Int32(span.lowerBound.daysSinceEpoch).littleEndian, toByteOffset: 8, as: Int32.self)
      raw.storeBytes(of: Int32(count).littleEndian, toByteOffset: 12, as: Int32.self)
      for (day, value) in days.values {
        let offset = headerBytes + span.lowerBound.distance(to: day) * 8
        raw.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
      }
      for day in days.empty where days.values[day] == nil {
        let offset = headerBytes + span.lowerBound.distance(to: day) * 8
        raw.storeBytes(of: noValueBits.littleEndian, toByteOffset: offset, as: UInt64.self)
      }
    }
    return Data(bytes)
  }

  /// The days in a file's bytes, or nil when they are not this format.
  static func decode(_ data: Data) -> Days? {
    guard data.count >= headerBytes, Array(data.prefix(8)) == magic else { return nil }
    return data.withUnsafeBytes { raw -> Days? in
      let first = Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: Int32.self)))
      let count = Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: Int32.self)))
      guard count >= 0, data.count == headerBytes + count * 8,
        (Day.earliest.daysSinceEpoch...Day.latest.daysSinceEpoch).contains(first),
        first + count <= Day.latest.daysSinceEpoch
      else { return nil }
      var days = Days()
      days.values.reserveCapacity(count)
      for index in 0..<count {
        let bits = UInt64(
          littleEndian: raw.loadUnaligned(fromByteOffset: headerBytes + index * 8, as: UInt64.self))
        let day = Day(daysSinceEpoch: first + index)
        if bits == noValueBits {
          days.empty.insert(day)
        } else if bits != 0 {
          let value = Double(bitPattern: bits)
          if value.isFinite && value > 0 { days.values[day] = value }
        }
      }
      return days
    }
  }
}
