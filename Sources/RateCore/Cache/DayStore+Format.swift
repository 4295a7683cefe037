/// The file's bytes (format 2, and format 1 read for migration): see ``DayStore``.
extension DayStore {
  /// The file of a pair's `key` (`<provider>/<asset>-<quote>`): `<directory>/days/<key>.days`,
  /// named as ``JSONFileCache`` names its files.
  public func fileURL(key: String) -> URL {
    JSONFileCache.fileURL(
      for: key, in: directory.appendingPathComponent("days", isDirectory: true), fileExtension: "days")
  }

  /// The stored days under `key`; empty when there is no file, and a
  /// ``CacheProblem`` alongside when the file cannot be used. A file that is not a store
  /// file (garbage, truncated, an absurd header) or is too large is moved aside at once
  /// (``setAside(_:)``: renamed, never deleted) and reported as
  /// ``CacheProblem/setAside(path:aside:)``, so it is reported once and the next save
  /// writes a sound file in its place.
  public func load(key: String) -> (Days, CacheProblem?) {
    let url = fileURL(key: key)
    let (days, problem) = Self.read(url)
    guard let problem, Self.isSetAside(problem) else { return (days, problem) }
    return (days, setAside(url) ?? problem)
  }

  /// Whether a file with `problem` is one the store moves aside: a regular file it cannot read
  /// as its own (never a directory, link or FIFO, never one it could not open).
  static func isSetAside(_ problem: CacheProblem) -> Bool {
    switch problem {
    case .corrupt, .oversized: return true
    default: return false
    }
  }

  /// Moves the unusable file at `url` to the first free `<file>.corrupt`, `<file>.corrupt-2`,
  /// … beside it, under the file's lock and only when it is still unusable (a writer may just
  /// have replaced it); the problem saying where, or nil when it was not moved.
  func setAside(_ url: URL) -> CacheProblem? {
    let lockURL = url.appendingPathExtension("lock")
    guard let lock = try? FileLock.acquire(at: lockURL, for: url, exclusive: true, timeout: .seconds(5))
    else { return nil }
    defer { lock.release() }
    guard let problem = Self.read(url).1, Self.isSetAside(problem) else { return nil }
    for attempt in 1...100 {
      let aside = url.path + (attempt == 1 ? ".corrupt" : ".corrupt-\(attempt)")
      guard !FileManager.default.fileExists(atPath: aside) else { continue }
      // moveItem refuses to replace an existing file: nothing is ever overwritten.
      guard (try? FileManager.default.moveItem(atPath: url.path, toPath: aside)) != nil else { return nil }
      return .setAside(path: url.path, aside: aside)
    }
    return nil
  }

  /// Reads a store file of either format.
  static func read(_ url: URL) -> (Days, CacheProblem?) {
    let path = url.path
    switch JSONFileCache.readEntry(at: path, limit: maximumBytes) {
    case .missing: return (Days(), nil)
    case .unusable(let problem): return (Days(), problem)
    case .bytes(let bytes):
      guard let days = decode(Data(bytes)) else { return (Days(), .corrupt(path: path)) }
      return (days, nil)
    }
  }

  /// The file's bytes for `days` (format 2).
  static func encode(_ days: Days) -> Data {
    let days = days.trimmed
    var names: [String] = []
    for fetch in days.fetches where !names.contains(fetch.provider) { names.append(fetch.provider) }
    var data = Data(capacity: headerBytes + days.slots.count * 10 + days.fetches.count * 9 + 64)
    data.append(contentsOf: magic)
    for field in [days.first.daysSinceEpoch, days.slots.count, days.fetches.count, names.count] {
      withUnsafeBytes(of: Int32(field).littleEndian) { data.append(contentsOf: $0) }
    }
    days.slots.map(\.littleEndian).withUnsafeBytes { data.append(contentsOf: $0) }
    days.origins.map(\.littleEndian).withUnsafeBytes { data.append(contentsOf: $0) }
    for name in names {
      data.append(UInt8(name.utf8.count))
      data.append(contentsOf: Array(name.utf8))
    }
    for fetch in days.fetches {
      let seconds = Int64(fetch.fetchedAt.timeIntervalSince1970)
      withUnsafeBytes(of: seconds.littleEndian) { data.append(contentsOf: $0) }
      data.append(UInt8(truncatingIfNeeded: names.firstIndex(of: fetch.provider) ?? 0))
    }
    return data
  }

  /// The days in a file's bytes (format 2, or format 1 with every
  /// provenance unknown), or nil when they are neither.
  static func decode(_ data: Data) -> Days? {
    guard data.count >= formerHeaderBytes else { return nil }
    let current = data.prefix(8).elementsEqual(magic)
    guard current || data.prefix(8).elementsEqual(formerMagic) else { return nil }
    return data.withUnsafeBytes { raw -> Days? in
      func int32(_ offset: Int) -> Int {
        Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
      }
      let (first, count) = (int32(8), int32(12))
      let fetchCount = current && data.count >= headerBytes ? int32(16) : 0
      let nameCount = current && data.count >= headerBytes ? int32(20) : 0
      let valuesAt = current ? headerBytes : formerHeaderBytes
      guard count >= 0, fetchCount >= 0, fetchCount <= Int(UInt16.max), (0...255).contains(nameCount),
        data.count >= valuesAt + count * (current ? 10 : 8),
        current || data.count == valuesAt + count * 8,
        (Day.earliest.daysSinceEpoch...Day.latest.daysSinceEpoch).contains(first),
        first + count <= Day.latest.daysSinceEpoch
      else { return nil }
      var slots = [UInt64](repeating: 0, count: count)
      var origins = [UInt16](repeating: 0, count: count)
      let originsAt = valuesAt + count * 8
      for index in 0..<count {
        let bits = UInt64(
          littleEndian: raw.loadUnaligned(fromByteOffset: valuesAt + index * 8, as: UInt64.self))
        slots[index] = readable(bits, current: current)
        if current, slots[index] != 0, !isRefusedValue(bits) {
          let origin = UInt16(
            littleEndian: raw.loadUnaligned(fromByteOffset: originsAt + index * 2, as: UInt16.self))
          origins[index] = Int(origin) <= fetchCount ? origin : 0
        }
      }
      guard
        let fetches = current
          ? decodeFetches(raw, at: originsAt + count * 2, names: nameCount, count: fetchCount) : []
      else { return nil }
      return Days(first: Day(daysSinceEpoch: first), slots: slots, origins: origins, fetches: fetches)
    }
  }

  /// A stored slot as read: one of the states (a value the gate accepts,
  /// ``AnswerGate/isPrice(_:)``, none, or in format 2 left out 1 to 255
  /// times); a value the gate refuses (1e308, inf, a negative) as left out
  /// once with its provenance unknown, so it is asked again at once and never
  /// shown; anything else as never asked.
  static func readable(_ bits: UInt64, current: Bool) -> UInt64 {
    if bits == noValueBits { return bits }
    if Days.leftOut(bits) > 0 { return current ? bits : 0 }
    if isRefusedValue(bits) { return leftOutBits | 1 }
    return AnswerGate.isPrice(Double(bitPattern: bits)) ? bits : 0
  }

  /// Whether stored `bits` are a number (not a NaN pattern, not never asked)
  /// the gate refuses as a price.
  static func isRefusedValue(_ bits: UInt64) -> Bool {
    let value = Double(bitPattern: bits)
    return bits != 0 && !value.isNaN && !AnswerGate.isPrice(value)
  }

  /// The provider names and the fetches at `offset`, or nil when they do not end the file
  /// exactly.
  static func decodeFetches(_ raw: UnsafeRawBufferPointer, at offset: Int, names nameCount: Int, count: Int)
    -> [Fetch]?
  {
    var offset = offset
    var names: [String] = []
    for _ in 0..<nameCount {
      guard offset < raw.count, offset + 1 + Int(raw[offset]) <= raw.count else { return nil }
      let length = Int(raw[offset])
      names.append(String(decoding: raw[(offset + 1)..<(offset + 1 + length)], as: UTF8.self))
      offset += 1 + length
    }
    var fetches: [Fetch] = []
    for _ in 0..<count {
      guard offset + 9 <= raw.count else { return nil }
      let seconds = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self))
      let name = Int(raw[offset + 8])
      guard name < names.count, (0...253_402_300_799).contains(seconds) else { return nil }
      fetches.append(
        Fetch(provider: names[name], fetchedAt: Date(timeIntervalSince1970: TimeInterval(seconds))))
      offset += 9
    }
    return offset == raw.count ? fetches : nil
  }
}
