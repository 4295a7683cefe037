/// The permanent store of settled days: one small binary file per
/// (provider, asset, quote), and per day one of three states, never confused:
/// a value; none (the provider says there is no value that day: an ECB
/// closure, before a coin's first day); or not answered yet (never asked, or
/// asked and left out of the answer, then asked again after a backoff).
///
/// File `<cache>/days/<provider>/<asset>-<quote>.days`, format 2, little-endian:
/// - the 8-byte magic `RDAYS02\n`, the first day (Int32, days since
///   1970-01-01), the number of days N, of fetches F and of provider names P
///   (Int32 each);
/// - N Float64, one per day from the first (dense, so a long range reads in
///   one pass): a value (one the gate refuses reads as left out once,
///   asked again), ``noValueBits`` for none,
///   ``leftOutBits`` + k for "asked and left out k times", 0 for never asked;
/// - N UInt16, per day its fetch: 1-based index into the table below, 0 when
///   unknown (a day written by format 1);
/// - P provider names (a UInt8 length and that many ASCII bytes);
/// - F fetches: when (Int64 Unix seconds) and from which provider (UInt8, an
///   index into the names).
///
/// A day costs 10 bytes, and each fetch 9: the ECB's history of one pair,
/// 1999 to 2026 (about 10,200 days), is about 102 KB. Format 1 (`RDAYS01\n`,
/// the same header without F, then the values only) is read with every
/// provenance unknown and written as format 2 by the next save.
///
/// Writes take an exclusive `flock` on `<file>.lock`, re-read the file and
/// merge (a stored value is replaced only by a save that says so: `--refresh`,
/// `cache verify --fix`), then replace the file atomically; readers need no
/// lock. A file that is not this format or too large is reported, moved aside
/// (``setAside(_:)``) and treated as empty, and the next write puts a sound one in
/// its place; one that cannot be read is reported and treated as empty.
public struct DayStore: Sendable {
  /// The cache's root directory (the store lives under `days/`).
  public var directory: URL

  static let magic = Array("RDAYS02\n".utf8)
  static let formerMagic = Array("RDAYS01\n".utf8)
  static let headerBytes = 24
  static let formerHeaderBytes = 16
  /// The bit pattern of "known: no value that day".
  static let noValueBits: UInt64 = 0x7FF8_0000_0000_0D0D
  /// The bit pattern of "asked, left out" with the count in its low byte (1...255).
  static let leftOutBits: UInt64 = 0x7FF8_0000_0000_A500
  /// The largest file read: 64 MB, about 18,000 years of days.
  static let maximumBytes = 64 * 1024 * 1024

  /// Where a stored day came from: the provider and when it was fetched
  /// (whole seconds).
  public struct Fetch: Sendable, Hashable, Encodable {
    /// The provider's name (`frankfurter`).
    public var provider: String
    /// When the answer was fetched.
    public var fetchedAt: Date

    /// Creates a fetch, its time cut to whole seconds as the file keeps it.
    public init(provider: String, fetchedAt: Date) {
      self.provider = String(decoding: provider.utf8.prefix(64).filter(Fetch.isNameByte), as: UTF8.self)
      self.fetchedAt = Date(timeIntervalSince1970: fetchedAt.timeIntervalSince1970.rounded(.down))
    }

    /// Whether `byte` may be in a provider's name: an ASCII letter or digit, `.`, `_` or `-`.
    public static func isNameByte(_ byte: UInt8) -> Bool {
      (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2E
        || byte == 0x5F || byte == 0x2D || (0x41...0x5A).contains(byte)
    }
  }

  /// What is known of one day.
  public enum State: Sendable, Equatable {
    /// The day's value.
    case value(Double)
    /// The provider says there is none.
    case none
    /// Not answered yet: asked and left out of `leftOut` answers (0: never asked).
    case unanswered(leftOut: Int)
  }
  /// What one store file holds, for `rates cache`.
  public struct Summary: Sendable, Equatable, Encodable {
    /// The first and last day stored.
    public var from: Day
    public var through: Day
    /// Days with a value, and days known to have none.
    public var values: Int
    public var empty: Int
    /// Days left out of an answer, waiting to be asked again.
    public var leftOut: Int
  }

  /// The summary of the store file at `url`, or nil when it is not one
  /// (or holds nothing).
  public static func summary(of url: URL) -> Summary? {
    let (days, problem) = read(url)
    guard problem == nil, let span = days.span else { return nil }
    let counts = days.counts
    return Summary(
      from: span.lowerBound, through: span.upperBound, values: counts.values, empty: counts.empty,
      leftOut: counts.leftOut)
  }

  /// Adds `days` to the file of `key` under its lock, and drops any day
  /// before `firstDay` (the source's first: known to have none without
  /// being stored) and after `lastDay` (`cache verify --fix`: days not over yet). A value
  /// already stored stays unless `replacing` (then `days`' values and nones replace the
  /// stored ones; see ``Days/merge(_:replacing:)``).
  public func save(
    _ days: Days, key: String, replacing: Bool = false, firstDay: Day? = nil, lastDay: Day? = nil
  ) throws {
    let url = fileURL(key: key)
    guard days.span != nil || FileManager.default.fileExists(atPath: url.path) else { return }
    try AtomicFile.createDirectory(url.deletingLastPathComponent())
    let lockURL = url.appendingPathExtension("lock")
    let lock = try FileLock.acquire(at: lockURL, for: url, exclusive: true, timeout: .seconds(5))
    defer { lock?.release() }
    let (before, problem) = Self.read(url)
    var merged = before
    merged.merge(days, replacing: replacing)
    if let firstDay { merged.drop(before: firstDay) }
    if let lastDay { merged.drop(after: lastDay) }
    let former =
      problem == nil && FileManager.default.fileExists(atPath: url.path)
      && !Self.isCurrentFormat(url)
    guard merged != before || former else { return }
    try AtomicFile.write(Self.encode(merged), to: url, durable: false)
  }

  /// Whether the file at `url` starts with this format's magic.
  static func isCurrentFormat(_ url: URL) -> Bool {
    // Only a write asks, and it has just read the file: reading it again is cheap.
    FileManager.default.contents(atPath: url.path)?.prefix(magic.count).elementsEqual(magic) ?? false
  }
}
