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

  /// What is known about each day: a value, or known to have none. Dense:
  /// one slot per day from ``first``, as in the file.
  public struct Days: Sendable, Equatable {
    /// The day of the first slot.
    public private(set) var first = Day(daysSinceEpoch: 0)
    /// Per day: 0 unknown, ``DayStore/noValueBits`` none, else the value's bits.
    private(set) var slots: [UInt64] = []

    /// Creates an empty set of days.
    public init() {}

    init(first: Day, slots: [UInt64]) {
      self.first = first
      self.slots = slots
    }

    private func index(_ day: Day) -> Int? {
      let index = first.distance(to: day)
      return index >= 0 && index < slots.count ? index : nil
    }

    /// The value of `day`, if it has one.
    public func value(_ day: Day) -> Double? {
      guard let index = index(day), slots[index] != 0, slots[index] != DayStore.noValueBits
      else { return nil }
      return Double(bitPattern: slots[index])
    }

    /// Whether `day` is known (a value or none).
    public func knows(_ day: Day) -> Bool { index(day).map { slots[$0] != 0 } ?? false }

    /// Whether `day` is known to have no value.
    public func isEmpty(_ day: Day) -> Bool {
      index(day).map { slots[$0] == DayStore.noValueBits } ?? false
    }

    /// Sets `day`'s value (nil: known to have none), replacing what was known.
    public mutating func set(_ day: Day, _ value: Double?) {
      let bits = value.map(\.bitPattern) ?? DayStore.noValueBits
      if slots.isEmpty {
        first = day
        slots = [bits]
        return
      }
      let offset = first.distance(to: day)
      if offset < 0 {
        slots.insert(contentsOf: [UInt64](repeating: 0, count: -offset), at: 0)
        first = day
        slots[0] = bits
      } else if offset >= slots.count {
        slots.append(contentsOf: [UInt64](repeating: 0, count: offset - slots.count + 1))
        slots[offset] = bits
      } else {
        slots[offset] = bits
      }
    }

    /// Forgets `day` (unknown again): a day not yet settled is never stored.
    public mutating func clear(_ day: Day) {
      if let index = index(day) { slots[index] = 0 }
    }

    /// Every day with a value, oldest first.
    public var values: [(day: Day, value: Double)] {
      slots.indices.compactMap { index in
        let bits = slots[index]
        guard bits != 0, bits != DayStore.noValueBits else { return nil }
        return (first.adding(days: index), Double(bitPattern: bits))
      }
    }

    /// How many days have a value, and how many are known to have none.
    public var counts: (values: Int, empty: Int) {
      let empty = slots.lazy.filter { $0 == DayStore.noValueBits }.count
      return (slots.lazy.filter { $0 != 0 }.count - empty, empty)
    }

    /// The first and last known day.
    public var span: ClosedRange<Day>? {
      guard let head = slots.firstIndex(where: { $0 != 0 }),
        let tail = slots.lastIndex(where: { $0 != 0 })
      else { return nil }
      return first.adding(days: head)...first.adding(days: tail)
    }

    /// `other` added; a value already here is kept, and a known value wins
    /// over "no value".
    public mutating func merge(_ other: Days) {
      for (index, bits) in other.slots.enumerated() where bits != 0 {
        let day = other.first.adding(days: index)
        if value(day) == nil && !(bits == DayStore.noValueBits && knows(day)) {
          set(day, bits == DayStore.noValueBits ? nil : Double(bitPattern: bits))
        }
      }
    }

    /// The same days, trimmed to the known span (what the file holds).
    var trimmed: Days {
      guard let span else { return Days() }
      let head = first.distance(to: span.lowerBound)
      return Days(
        first: span.lowerBound,
        slots: Array(slots[head...(head + span.lowerBound.distance(to: span.upperBound))]))
    }

    /// Equal when they know the same days the same way, however far their slots reach.
    public static func == (lhs: Days, rhs: Days) -> Bool {
      let (left, right) = (lhs.trimmed, rhs.trimmed)
      return left.slots == right.slots && (left.slots.isEmpty || left.first == right.first)
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
    let counts = days.counts
    return Summary(
      from: span.lowerBound, through: span.upperBound, values: counts.values, empty: counts.empty)
  }

  /// Adds `days` to the file of `key` under its lock; values already stored stay.
  public func save(_ days: Days, key: String) throws {
    guard days.span != nil else { return }
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
    let days = days.trimmed
    var data = Data(capacity: headerBytes + days.slots.count * 8)
    data.append(contentsOf: magic)
    withUnsafeBytes(of: Int32(days.first.daysSinceEpoch).littleEndian) { data.append(contentsOf: $0) }
    withUnsafeBytes(of: Int32(days.slots.count).littleEndian) { data.append(contentsOf: $0) }
    days.slots.map(\.littleEndian).withUnsafeBytes { data.append(contentsOf: $0) }
    return data
  }

  /// The days in a file's bytes, or nil when they are not this format.
  static func decode(_ data: Data) -> Days? {
    guard data.count >= headerBytes, data.prefix(8).elementsEqual(magic) else { return nil }
    return data.withUnsafeBytes { raw -> Days? in
      let first = Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: Int32.self)))
      let count = Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: Int32.self)))
      guard count >= 0, data.count == headerBytes + count * 8,
        (Day.earliest.daysSinceEpoch...Day.latest.daysSinceEpoch).contains(first),
        first + count <= Day.latest.daysSinceEpoch
      else { return nil }
      var slots = [UInt64](repeating: 0, count: count)
      for index in 0..<count {
        let bits = UInt64(
          littleEndian: raw.loadUnaligned(fromByteOffset: headerBytes + index * 8, as: UInt64.self))
        // Anything but a positive finite value or the "none" mark is unknown.
        let value = Double(bitPattern: bits)
        slots[index] = bits == noValueBits || (value.isFinite && value > 0) ? bits : 0
      }
      return Days(first: Day(daysSinceEpoch: first), slots: slots)
    }
  }
}
