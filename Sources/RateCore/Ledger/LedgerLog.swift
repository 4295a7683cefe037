#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The first line of a format 2 ledger: `{"format":"rates-ledger","nextID":12,"version":2}`.
struct LedgerHeader: Codable, Equatable, Sendable {
  static let formatName = "rates-ledger"

  var format = LedgerHeader.formatName
  var version = LedgerStore.formatVersion
  /// No id below this is handed out again (it survives the removal of the newest entries).
  var nextID = 1
  /// Members a newer `rates` wrote, kept through rewrites.
  var unknownMembers: [String: JSONValue] = [:]

  enum CodingKeys: String, CodingKey, CaseIterable { case format, version, nextID }
  static let known = Set(CodingKeys.allCases.map(\.stringValue))

  init(nextID: Int = 1, unknownMembers: [String: JSONValue] = [:]) {
    self.nextID = nextID
    self.unknownMembers = unknownMembers
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    format = try container.decode(String.self, forKey: .format)
    version = try container.decode(Int.self, forKey: .version)
    nextID = try container.decodeIfPresent(Int.self, forKey: .nextID) ?? 1
    unknownMembers = try UnknownMembers.decode(from: decoder, known: Self.known)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(format, forKey: .format)
    try container.encode(version, forKey: .version)
    try container.encode(nextID, forKey: .nextID)
    try UnknownMembers.encode(unknownMembers, to: encoder, known: Self.known)
  }

  /// The header line, ending in a newline.
  func line() throws -> [UInt8] {
    Array(try JSONCoders.encoder().encode(self)) + [0x0A]
  }
}

/// An open ledger file, as its first line and its end describe it.
struct LedgerLog {
  /// What the file holds.
  enum Format {
    /// A format 2 log; records start at `dataStart`, after the header line.
    case log(LedgerHeader, dataStart: Int)
    /// A format 1 document (`{"ledger": {...}, "version": 1}`), read whole.
    case document
  }

  /// The path the user knows (the data file, maybe a link), for messages.
  let path: String
  let handle: RegularFile.Handle
  let format: Format
  /// The file's size when opened.
  let size: Int
  /// The end of the last complete line: `size`, or where an incomplete last line starts.
  let committedEnd: Int
  /// An incomplete last line (a write interrupted before its newline), when there is one.
  let tornTail: [UInt8]?
  /// Whether the last line is a complete record that lacks only its newline.
  let lacksFinalNewline: Bool

  var fd: Int32 { handle.fd }

  /// Opens `target` (nil when it does not exist), reading its first line and checking its end.
  static func open(_ target: URL, path: String, forWriting: Bool) throws -> LedgerLog? {
    let handle: RegularFile.Handle
    switch RegularFile.open(target.path, flags: forWriting ? O_RDWR | O_APPEND : O_RDONLY) {
    case .success(let opened): handle = opened
    case .failure(.missing): return nil
    case .failure(let failure): throw DataFileError.unreadable(path: path, reason: failure.reason)
    }
    do {
      return try LedgerLog(handle: handle, path: path)
    } catch {
      handle.close()
      throw error
    }
  }

  private init(handle: RegularFile.Handle, path: String) throws {
    self.handle = handle
    self.path = path
    size = handle.size
    let first = try Self.readFirstLine(handle.fd, path: path)
    guard let first, let header = try Self.header(first, path: path) else {
      format = .document
      committedEnd = size
      tornTail = nil
      lacksFinalNewline = false
      return
    }
    let dataStart = first.count + 1
    format = .log(header, dataStart: dataStart)
    // A last line without its newline is an append cut short, unless it is a whole record.
    let lastByte =
      size > dataStart ? try Self.read(handle.fd, path: path, at: size - 1, count: 1) : []
    guard lastByte.first.map({ $0 != 0x0A }) == true else {
      committedEnd = size
      tornTail = nil
      lacksFinalNewline = false
      return
    }
    let start = try Self.startOfLastLine(handle.fd, path: path, end: size, floor: dataStart)
    let tail = try Self.read(handle.fd, path: path, at: start, count: size - start)
    let whole = tail.withUnsafeBufferPointer { buffer in
      (try? LedgerLineParser.parse(buffer, 0..<buffer.count)) != nil
    }
    committedEnd = whole ? size : start
    tornTail = whole ? nil : tail
    lacksFinalNewline = whole
  }

  func close() { handle.close() }

  /// The header, when `line` is one; nil when the file is not a format 2 log (a format 1
  /// document begins with `{` alone, or with a document that has no `format`).
  static func header(_ line: [UInt8], path: String) throws -> LedgerHeader? {
    struct Probe: Decodable {
      var format: String?
      var version: Int?
    }
    guard let probe = try? JSONDecoder().decode(Probe.self, from: Data(line)),
      probe.format == LedgerHeader.formatName
    else { return nil }
    guard let version = probe.version, version >= 1 else {
      throw DataFileError.corruptLine(path: path, line: 1, detail: "the header has no version")
    }
    guard version == LedgerStore.formatVersion else {
      throw DataFileError.unsupportedVersion(
        path: path, version: version, supported: LedgerStore.formatVersion)
    }
    do {
      return try JSONCoders.decoder().decode(LedgerHeader.self, from: Data(line))
    } catch let error as DecodingError {
      throw DataFileError.corruptLine(path: path, line: 1, detail: error.summary)
    }
  }

  // MARK: - Scanning

  /// Calls `visit` with each record from the last to the first, with the offset its line
  /// starts at, until `visit` returns false. Blank lines are skipped; a line that is not a
  /// record throws ``DataFileError/corruptLine(path:line:detail:)`` with its line number.
  func scanBackward(_ visit: (LedgerRecord, Int) throws -> Bool) throws {
    guard case .log(_, let dataStart) = format else { return }
    var end = committedEnd
    var carry: [UInt8] = []
    var chunk = 16 * 1024
    while end > dataStart {
      let start = Swift.max(dataStart, end - chunk)
      var buffer = try Self.read(fd, path: path, at: start, count: end - start)
      buffer.append(contentsOf: carry)
      let stop = try buffer.withUnsafeBufferPointer { bytes -> Bool in
        var lineEnd = bytes.count
        var index = bytes.count - 1
        while index >= 0 {
          if bytes[index] == 0x0A {
            if try !visitLine(bytes, index + 1..<lineEnd, offset: start + index + 1, visit) {
              return true
            }
            lineEnd = index
          }
          index -= 1
        }
        if start == dataStart {
          return try !visitLine(bytes, 0..<lineEnd, offset: start, visit)
        }
        carry = Array(bytes[0..<lineEnd])
        return false
      }
      if stop { return }
      end = start
      chunk = Swift.min(chunk * 2, 1024 * 1024)
    }
  }

  private func visitLine(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, offset: Int,
    _ visit: (LedgerRecord, Int) throws -> Bool
  ) throws -> Bool {
    guard bytes[range].contains(where: { !DataFile<Ledger>.isJSONWhitespace($0) }) else {
      return true
    }
    do {
      return try visit(try LedgerLineParser.parse(bytes, range), offset)
    } catch let error as LedgerLineError {
      throw DataFileError.corruptLine(
        path: path, line: try lineNumber(at: offset), detail: error.detail)
    }
  }

  /// Calls `visit` with each record from the first to the last, with its line number.
  func scanForward(_ visit: (LedgerRecord, Int) throws -> Void) throws {
    guard case .log(_, let dataStart) = format else { return }
    let bytes = try Self.read(fd, path: path, at: dataStart, count: committedEnd - dataStart)
    try bytes.withUnsafeBufferPointer { buffer in
      var line = 2
      var start = 0
      while start < buffer.count {
        var end = start
        while end < buffer.count, buffer[end] != 0x0A { end += 1 }
        if buffer[start..<end].contains(where: { !DataFile<Ledger>.isJSONWhitespace($0) }) {
          do {
            try visit(try LedgerLineParser.parse(buffer, start..<end), line)
          } catch let error as LedgerLineError {
            throw DataFileError.corruptLine(path: path, line: line, detail: error.detail)
          }
        }
        line += 1
        start = end + 1
      }
    }
  }

  /// The line number (from 1) of the line starting at byte `offset`.
  func lineNumber(at offset: Int) throws -> Int {
    var count = 1
    var position = 0
    while position < offset {
      let bytes = try Self.read(
        fd, path: path, at: position, count: Swift.min(1 << 20, offset - position))
      guard !bytes.isEmpty else { break }
      count += bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
      position += bytes.count
    }
    return count
  }

  // MARK: - Bytes

  static func read(_ fd: Int32, path: String, at offset: Int, count: Int) throws -> [UInt8] {
    do {
      return try RegularFile.read(fd, offset: offset, count: count)
    } catch {
      throw DataFileError.unreadable(path: path, reason: error.reason)
    }
  }

  /// The first line without its newline; nil for an empty file or one without a newline in
  /// its first megabyte (neither is a format 2 log).
  static func readFirstLine(_ fd: Int32, path: String) throws -> [UInt8]? {
    var line: [UInt8] = []
    while line.count < 1 << 20 {
      let bytes = try read(fd, path: path, at: line.count, count: 4096)
      if let newline = bytes.firstIndex(of: 0x0A) { return line + bytes[..<newline] }
      guard !bytes.isEmpty else { return nil }
      line += bytes
    }
    return nil
  }

  /// Where the line ending at `end` starts: after the previous newline, or at `floor`.
  static func startOfLastLine(_ fd: Int32, path: String, end: Int, floor: Int) throws -> Int {
    var position = end
    while position > floor {
      let start = Swift.max(floor, position - 4096)
      let bytes = try read(fd, path: path, at: start, count: position - start)
      if let newline = bytes.lastIndex(of: 0x0A) { return start + newline + 1 }
      position = start
    }
    return floor
  }
}
