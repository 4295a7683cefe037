/// A strict JSON reader over UTF-8 bytes: how the cache reads its entry files
/// (``JSONFileCache``, ``CacheReadable``).
///
/// It exists for start-up: `JSONDecoder` costs a warm command a run-time lookup of each
/// decoded type's `CodingKeys` conformance (a scan of every conformance in the binary, about
/// 210 k instructions each) and as much again in its own work for a small entry. The reader
/// is non-generic and Codable-free: a type reads itself member by member.
///
/// It accepts RFC 8259 JSON and nothing else: no byte order mark, comments, `NaN`,
/// `Infinity`, trailing commas, leading zeros, control characters or lone surrogates in
/// strings, invalid UTF-8, or anything after the value. Nesting deeper than
/// ``maximumDepth`` is refused, so a hostile file cannot exhaust the stack, and no read goes
/// past the buffer. Numbers are read by the standard library's correctly rounded
/// `Double(String)`, so they come out bit-identical to what `JSONDecoder` gives.
public struct JSONReader {
  /// Why a reading failed.
  public enum Failure: Error, Equatable, Sendable {
    /// Not JSON: the byte offset where reading stopped.
    case syntax(offset: Int)
    /// JSON, but not of the expected shape: what was expected.
    case shape(String)
  }

  /// The deepest nesting of arrays and objects read (far above any cache entry's).
  public static let maximumDepth = 64

  let bytes: [UInt8]
  /// The next byte to read.
  var position: Int
  /// Where the text ends (exclusive).
  let end: Int
  var depth = 0

  /// A reader of all of `bytes`.
  public init(_ bytes: [UInt8]) {
    self.init(bytes, range: 0..<bytes.count)
  }

  /// A reader of `bytes[range]` (clamped to the buffer).
  init(_ bytes: [UInt8], range: Range<Int>) {
    self.bytes = bytes
    self.end = min(max(range.upperBound, 0), bytes.count)
    self.position = min(max(range.lowerBound, 0), end)
  }

  /// Checks that only whitespace follows what was read.
  public mutating func finish() throws(Failure) {
    skipWhitespace()
    guard position == end else { throw syntaxError() }
  }

  // MARK: Structure

  /// Reads an object, handing `member` the index in `names` of each member it names, with
  /// the reader at the member's value (which `member` must read); other members are
  /// skipped. A named member found twice is refused (JSONEncoder never writes one).
  public mutating func object(
    _ names: [String], _ member: (Int, inout JSONReader) throws(Failure) -> Void
  ) throws(Failure) {
    var seen: UInt64 = 0
    try rawMembers { name, reader throws(Failure) in
      guard let index = reader.index(ofName: name, in: names) else { return try reader.skip() }
      let bit: UInt64 = index < 64 ? 1 << UInt64(index) : 0
      guard seen & bit == 0 else { throw .shape("one member \(names[index])") }
      seen |= bit
      try member(index, &reader)
    }
  }

  /// Reads an object of any members, handing `member` each name and the reader at its value
  /// (which `member` must read).
  public mutating func members(
    _ member: (String, inout JSONReader) throws(Failure) -> Void
  ) throws(Failure) {
    try rawMembers { name, reader throws(Failure) in try member(reader.decoded(name), &reader) }
  }

  /// Reads an array, calling `element` with the reader at each element (which it must read).
  public mutating func array(_ element: (inout JSONReader) throws(Failure) -> Void) throws(Failure)
  {
    try open(UInt8(ascii: "["))
    if try closes(UInt8(ascii: "]")) { return }
    repeat {
      try element(&self)
    } while try continues(closing: UInt8(ascii: "]"))
    depth -= 1
  }

  /// Skips one value of any kind, checking it is valid JSON.
  public mutating func skip() throws(Failure) {
    switch try peek() {
    case UInt8(ascii: "{"): try rawMembers { _, reader throws(Failure) in try reader.skip() }
    case UInt8(ascii: "["): try array { reader throws(Failure) in try reader.skip() }
    case UInt8(ascii: "\""): _ = try stringToken()
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    default: _ = try numberToken()
    }
  }

  /// Skips one value and returns where it lies in the buffer (without the whitespace around).
  mutating func skipped() throws(Failure) -> Range<Int> {
    skipWhitespace()
    let start = position
    try skip()
    return start..<position
  }

  /// Reads an object's members, handing `member` each raw name and the reader at its value.
  private mutating func rawMembers(
    _ member: (StringToken, inout JSONReader) throws(Failure) -> Void
  ) throws(Failure) {
    try open(UInt8(ascii: "{"))
    if try closes(UInt8(ascii: "}")) { return }
    repeat {
      guard try peek() == UInt8(ascii: "\"") else { throw syntaxError() }
      let name = try stringToken()
      guard try peek() == UInt8(ascii: ":") else { throw syntaxError() }
      position += 1
      try member(name, &self)
    } while try continues(closing: UInt8(ascii: "}"))
    depth -= 1
  }

  /// The index of the member named by `token` in `names`, comparing bytes unless the name
  /// has escapes.
  private func index(ofName token: StringToken, in names: [String]) -> Int? {
    if token.hasEscapes { return names.firstIndex(of: decoded(token)) }
    let text = bytes[token.range]
    return names.firstIndex { $0.utf8.count == text.count && $0.utf8.elementsEqual(text) }
  }

  /// Consumes `opening` and enters one level of nesting.
  private mutating func open(_ opening: UInt8) throws(Failure) {
    guard try peek() == opening else { throw syntaxError() }
    guard depth < Self.maximumDepth else { throw .shape("at most \(Self.maximumDepth) levels") }
    depth += 1
    position += 1
  }

  /// Whether the container ends at once (`[]`, `{}`), consuming the closing byte.
  private mutating func closes(_ closing: UInt8) throws(Failure) -> Bool {
    guard try peek() == closing else { return false }
    position += 1
    depth -= 1
    return true
  }

  /// After an element: true at a comma (consumed), false at `closing` (consumed).
  private mutating func continues(closing: UInt8) throws(Failure) -> Bool {
    switch try peek() {
    case UInt8(ascii: ","):
      position += 1
      return true
    case closing:
      position += 1
      return false
    default: throw syntaxError()
    }
  }

  // MARK: Bytes

  /// The next byte after whitespace, not consumed.
  mutating func peek() throws(Failure) -> UInt8 {
    skipWhitespace()
    guard position < end else { throw syntaxError() }
    return bytes[position]
  }

  mutating func skipWhitespace() {
    while position < end {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  /// Consumes `word` (`true`, `false`, `null`).
  mutating func literal(_ word: StaticString) throws(Failure) {
    let count = word.utf8CodeUnitCount
    guard end - position >= count else { throw syntaxError() }
    let matches = word.withUTF8Buffer { $0.elementsEqual(bytes[position..<position + count]) }
    guard matches else { throw syntaxError() }
    position += count
  }

  func syntaxError() -> Failure { .syntax(offset: position) }
}
