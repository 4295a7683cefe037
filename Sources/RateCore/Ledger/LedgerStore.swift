#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The user's ledger on disk, `ledger.json`: an append-only log of JSON lines (format 2).
///
/// The first line is a header, `{"format":"rates-ledger","nextID":1,"version":2}`; each later
/// line is one ``LedgerRecord``: an exchange added, or exchanges removed by id. So:
///
/// - **Adding appends one line** and never rewrites history; it reads only the header and the
///   last lines (for the next id). `remove` appends one line naming the ids.
/// - **Recent days are read from the end** backwards, stopping at the first line whose latest
///   date is before the window (lines carry `maxDate` when added out of date order).
/// - **Commits.** A change is committed once its line is written and `fsync`ed, which is when
///   the command reports success. One change is always one line, written with one `write`.
///   A last line without its newline is a write that was cut short (the writer was killed, or
///   the machine lost power) and was never reported: readers ignore it, and the next writer,
///   under the lock, copies it to `ledger.json.torn` and truncates it away. A last line that is
///   a whole record lacking only its newline counts as written.
/// - **Corrupt lines.** Any other line that is not a valid record stops the command with its
///   line number, and nothing is written until the user repairs it: every writer reads every
///   line first whenever the file is not exactly as the last writer left it (a hand edit; see
///   `LedgerStore+Verify.swift`), so an append never follows a corrupt line either.
/// - **Locking** is that of ``DataFile``: writers hold an exclusive `flock` on
///   `.ledger.json.lock` beside the resolved file (so symbolic links share it), so concurrent
///   commands lose nothing; readers take a shared one only while opening the file, then read
///   a snapshot without it (see ``withSnapshot(_:)``).
/// - **Rewrites** (import, compaction, migration) write a whole new file atomically
///   (temporary file, `fsync`, `rename`) with the live entries in date order. Compaction runs
///   after a `remove` once removed entries and remove lines make up a fifth of the lines (and
///   at least ``compactionMinimum``).
/// - **Migration.** A format 1 file (one JSON document) is still read as is; the first change
///   rewrites it as format 2 after keeping the original as `ledger.json.v1.bak` (a hard link,
///   never deleted by `rates`).
public struct LedgerStore: Sendable {
  /// The format this version writes.
  public static let formatVersion = 2
  /// The fewest dead lines (removed entries and remove lines) that trigger a compaction.
  public static let compactionMinimum = 64

  /// The ledger file (or a symbolic link to it).
  public let url: URL
  let lockTimeout: Duration
  let notify: @Sendable (LedgerNotice) -> Void

  /// Creates a handle on the ledger at `url`; nothing is touched until used.
  /// - Parameter notify: receives notices (a migration, an interrupted write) for stderr.
  public init(url: URL, notify: @escaping @Sendable (LedgerNotice) -> Void = { _ in }) {
    self.init(url: url, lockTimeout: .seconds(10), notify: notify)
  }

  init(url: URL, lockTimeout: Duration, notify: @escaping @Sendable (LedgerNotice) -> Void) {
    self.url = url
    self.lockTimeout = lockTimeout
    self.notify = notify
  }

  /// The format 1 document, for reading it and for the shared file conventions.
  var document: DataFile<Ledger> {
    DataFile(url: url, key: "ledger", version: 1, lockTimeout: lockTimeout, makeEmpty: { Ledger() })
  }

  // MARK: - Reading

  /// The whole ledger: every live entry in file order, and the next id.
  /// - Throws: ``DataFileError``, with the line number of a corrupt line.
  public func read() throws -> Ledger {
    try withSnapshot { log in
      try log.map(contents)?.ledger ?? Ledger()
    } ?? Ledger()
  }

  /// The live entries dated `day` or later, in no particular order, reading only the end of
  /// the file when entries were recorded roughly in date order.
  public func entries(since day: Day) throws -> [LedgerEntry] {
    var found: [LedgerEntry] = []
    try forEachPageNewestFirst(since: day, pageSize: Int.max) { page in
      found.append(contentsOf: page)
      return true
    }
    return found
  }

  /// Calls `body` with the live entries newest first (by date, then id, both descending), in
  /// pages of about `pageSize`, reading the file from its end; stops when `body` returns false.
  ///
  /// The first page is ready after reading only as far back as its entries' dates require,
  /// so `ledger list | head` does not wait for the whole file.
  /// - Parameter since: only entries dated `since` or later (the scan stops there).
  public func forEachPageNewestFirst(
    since: Day? = nil, pageSize: Int = 1000, _ body: ([LedgerEntry]) throws -> Bool
  ) throws {
    try withSnapshot { log -> Void in
      guard let log else { return }
      guard case .log = log.format else {
        let all = try contents(log).ledger.newestFirst
        let kept = since.map { day in all.filter { $0.date >= day } } ?? all
        for start in stride(from: 0, to: kept.count, by: Swift.max(pageSize, 1)) {
          guard try body(Array(kept[start..<Swift.min(kept.count, start + pageSize)])) else {
            return
          }
        }
        return
      }
      var pages = NewestFirstPages(since: since, pageSize: pageSize)
      try log.scanBackward { record, _ in try pages.add(record, body) }
      try pages.finish(body)
    }
  }

  // MARK: - Writing

  /// Appends `entry` under the next id (its own `id` is ignored) and returns it as stored.
  ///
  /// Reads only the header and the last lines; committed (`fsync`ed) before returning.
  public func append(_ entry: LedgerEntry) throws -> LedgerEntry {
    try withWritableLog { target, log in
      guard let log else {
        var stored = entry
        stored.id = 1
        let bytes: [UInt8]
        do {
          bytes = try LedgerHeader().line() + LedgerLineWriter.add(stored)
        } catch let error as LedgerLineError {
          throw AtomicFile.WriteError(path: url.path, reason: error.detail)
        }
        try AtomicFile.replaceUserFile(target, with: Data(bytes))
        recordVerified(target)
        return stored
      }
      guard case .log(let header, _) = log.format else { throw Self.notMigrated(log) }
      let unused = try verify(log, target: target) ?? 1
      var last: (id: Int, latest: Day)?
      try log.scanBackward { record, _ in
        guard case .add(let found, let latest, _) = record else { return true }
        last = (found.id, latest)
        return false
      }
      var stored = entry
      stored.id = Swift.max(header.nextID, (last?.id ?? 0) + 1, unused)
      let line: [UInt8]
      do throws(LedgerLineError) {
        line = try LedgerLineWriter.add(stored, latest: last?.latest)
      } catch {
        throw AtomicFile.WriteError(path: url.path, reason: error.detail)
      }
      try appendLine(line, to: log, target: target)
      recordVerified(target)
      return stored
    }
  }

  /// Removes the entries `ids` (each once, whatever the order or repetitions) by appending one
  /// line, and returns them in file order; compacts the file when enough lines are dead. An id
  /// not in the ledger (never was, or already removed) is already as asked: it is left out of
  /// the result, and nothing is written when no id is there.
  /// - Throws: ``DataFileError`` for the file.
  public func remove(ids: [Int]) throws -> [LedgerEntry] {
    try withWritableLog { target, log in
      guard let log else { return [] }
      guard case .log = log.format else { throw Self.notMigrated(log) }
      let found = try contents(log)
      let live = Set(found.ledger.entries.map(\.id))
      var unique: [Int] = []
      for id in ids where live.contains(id) && !unique.contains(id) { unique.append(id) }
      guard !unique.isEmpty else { return [] }
      try appendLine(LedgerLineWriter.remove(unique), to: log, target: target)
      let removing = Set(unique)
      var after = found
      after.ledger.entries.removeAll { removing.contains($0.id) }
      after.deadLines += unique.count + 1
      if after.deadLines >= Swift.max(Self.compactionMinimum, after.lineCount / 5) {
        try rewrite(after, to: target)
      }
      recordVerified(target)
      return found.ledger.entries.filter { removing.contains($0.id) }
    }
  }

  /// Under the exclusive lock: reads the whole ledger, lets `transform` change it, and when it
  /// changed, writes a new file atomically (entries in date order, unknown members kept).
  /// Nothing is written if `transform` throws. Used for imports, which add many entries at once.
  public func update<Result>(_ transform: (inout Ledger) throws -> Result) throws -> Result {
    try withWritableLog(migrating: false) { target, log in
      var found = try log.map(contents) ?? LedgerContents()
      var ledger = found.ledger
      let result = try transform(&ledger)
      guard ledger != found.ledger else { return result }
      var backup: URL?
      if let log, case .document = log.format { backup = try backUpDocument(target) }
      found.ledger = ledger
      try rewrite(found, to: target, replacing: log)
      recordVerified(target)
      if let backup { notify(.migrated(path: url.path, backup: backup.path)) }
      return result
    }
  }

  /// The error for a format 1 file where the migration should already have happened.
  static func notMigrated(_ log: LedgerLog) -> DataFileError {
    .unsupportedVersion(path: log.path, version: 1, supported: formatVersion)
  }
}

/// Something the user should know about the ledger file, though nothing failed.
public enum LedgerNotice: Equatable, Sendable, CustomStringConvertible {
  /// A format 1 `ledger.json` was rewritten as format 2; the original is kept at `backup`.
  case migrated(path: String, backup: String)
  /// A last line cut short by an interrupted write was ignored (it was never committed).
  case incompleteLastLineIgnored(path: String, bytes: Int)
  /// That line was removed before writing, and its bytes appended to `savedTo`.
  case incompleteLastLineRemoved(path: String, savedTo: String)

  /// A sentence for stderr.
  public var description: String {
    switch self {
    case .migrated(let path, let backup):
      return "converted \(path) to the ledger format 2 (one line per change, so adding stays "
        + "fast); the previous file is kept as \(backup)"
    case .incompleteLastLineIgnored(let path, let bytes):
      return "ignoring an incomplete last line of \(path) (\(bytes) bytes, from a write that was "
        + "interrupted and never reported as done); the next change to the ledger sets it aside"
    case .incompleteLastLineRemoved(let path, let savedTo):
      return "removed an incomplete last line of \(path), left by an interrupted write; its "
        + "bytes were saved to \(savedTo)"
    }
  }
}
