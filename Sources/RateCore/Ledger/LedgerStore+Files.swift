#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything a full read of the ledger file learns.
struct LedgerContents {
  /// The live entries in file order, and the next id.
  var ledger = Ledger()
  /// The header (with members a newer `rates` wrote).
  var header = LedgerHeader()
  /// Per entry id, members of its line this version does not know, as `,"name":value` text.
  var unknownMembers: [Int: [UInt8]] = [:]
  /// Record lines read.
  var lineCount = 0
  /// Lines a compaction would drop: remove lines and the add lines of removed entries.
  var deadLines = 0
}

extension LedgerStore {
  // MARK: - Locks

  /// Runs `body` on a snapshot of the file (nil when there is none); returns nil when the
  /// directory does not exist. Reports a torn last line.
  ///
  /// The shared lock is held only while opening: with no writer between the `write` and the
  /// `fsync` of a line then, the end measured is that of whole lines (an incomplete last line is
  /// a dead writer's). After that nothing a writer does can change what the descriptor reads
  /// up to that end: appends go after it, a torn line it excluded is cut at its start, and
  /// rewrites rename a new file into place. So `list | less` never keeps writers waiting.
  func withSnapshot<Result>(_ body: (LedgerLog?) throws -> Result) throws -> Result? {
    let target = try document.resolvedURL()
    let log: LedgerLog?
    do {
      guard
        let lock = try FileLock.acquire(
          at: DataFile<Ledger>.lockURL(for: target), for: url, exclusive: false,
          timeout: lockTimeout)
      else { return nil }
      defer { lock.release() }
      log = try LedgerLog.open(target, path: url.path, forWriting: false)
    }
    defer { log?.close() }
    if let log { reportTornTail(of: log) }
    return try body(log)
  }

  /// Runs `body` under the exclusive lock with the file opened for appending (nil when there
  /// is none). When `migrating`, a format 1 file is first rewritten as format 2.
  func withWritableLog<Result>(
    migrating: Bool = true, _ body: (URL, LedgerLog?) throws -> Result
  ) throws -> Result {
    let target = try document.resolvedURL()
    let directory = target.deletingLastPathComponent()
    try AtomicFile.createDirectory(directory)
    guard
      let lock = try FileLock.acquire(
        at: DataFile<Ledger>.lockURL(for: target), for: url, exclusive: true,
        timeout: lockTimeout)
    else {
      throw AtomicFile.WriteError(path: directory.path, reason: "directory vanished")
    }
    defer { lock.release() }
    var log = try LedgerLog.open(target, path: url.path, forWriting: true)
    defer { log?.close() }
    if migrating, let document = log, case .document = document.format {
      try migrate(document, target: target)
      document.close()
      log = try LedgerLog.open(target, path: url.path, forWriting: true)
    }
    return try body(target, log)
  }

  func reportTornTail(of log: LedgerLog) {
    if let torn = log.tornTail {
      notify(.incompleteLastLineIgnored(path: url.path, bytes: torn.count))
    }
  }

  // MARK: - Reading everything

  /// Reads every line (or the format 1 document) into memory.
  func contents(_ log: LedgerLog) throws -> LedgerContents {
    guard case .log(let header, _) = log.format else {
      let bytes = try LedgerLog.read(log.fd, path: url.path, at: 0, count: log.size)
      return LedgerContents(ledger: try document.decode(Data(bytes)))
    }
    var found = LedgerContents(header: header)
    var lineOfID: [Int: Int] = [:]
    var removed = Set<Int>()
    var maxID = 0
    var latestSoFar: Day?
    try log.scanForward { record, line in
      found.lineCount += 1
      switch record {
      case .add(let entry, let latest, let unknown):
        if let first = lineOfID.updateValue(line, forKey: entry.id) {
          throw DataFileError.corruptLine(
            path: url.path, line: line, detail: "id \(entry.id) was already added on line \(first)")
        }
        if let soFar = latestSoFar, latest < soFar {
          throw DataFileError.corruptLine(
            path: url.path, line: line,
            detail: "dated \(entry.date) after lines dated up to \(soFar) but without "
              + "\"maxDate\":\"\(soFar)\", which readers of recent days rely on; add it")
        }
        latestSoFar = Swift.max(latestSoFar ?? latest, latest)
        found.ledger.entries.append(entry)
        if !unknown.isEmpty { found.unknownMembers[entry.id] = unknown }
        maxID = Swift.max(maxID, entry.id)
      case .remove(let ids):
        removed.formUnion(ids)
        found.deadLines += 1
      }
    }
    if !removed.isEmpty {
      let before = found.ledger.entries.count
      found.ledger.entries.removeAll { removed.contains($0.id) }
      found.deadLines += before - found.ledger.entries.count
    }
    found.ledger.nextID = Swift.max(header.nextID, maxID + 1)
    return found
  }

  // MARK: - Appending

  /// Appends `line` to the open log and flushes it to disk: the change is then committed.
  ///
  /// A torn last line is first saved aside and truncated; a whole last record without its
  /// newline gets one. On any failure the file is truncated back to its committed end, so a
  /// failed append (a full disk) leaves nothing behind.
  func appendLine(_ line: [UInt8], to log: LedgerLog, target: URL) throws {
    if let saved = try saveTornTail(of: log, target: target) {
      guard ftruncate(log.fd, off_t(log.committedEnd)) == 0, fsync(log.fd) == 0 else {
        throw AtomicFile.WriteError(path: url.path, reason: AtomicFile.lastError())
      }
      notify(.incompleteLastLineRemoved(path: url.path, savedTo: saved.path))
    }
    let bytes = log.lacksFinalNewline ? [0x0A] + line : line
    var failure: String?
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = systemWrite(log.fd, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = AtomicFile.lastError()
          return
        }
        offset += written
      }
    }
    if failure == nil, fsync(log.fd) != 0 { failure = AtomicFile.lastError() }
    if let failure {
      _ = ftruncate(log.fd, off_t(log.committedEnd))
      throw AtomicFile.WriteError(path: url.path, reason: failure)
    }
  }

  /// Appends a torn last line's bytes (and a newline) to `<name>.torn` beside `target`, flushed;
  /// returns that file, or nil when there is no torn line.
  func saveTornTail(of log: LedgerLog, target: URL) throws -> URL? {
    guard let torn = log.tornTail else { return nil }
    let saved = target.deletingLastPathComponent()
      .appendingPathComponent(target.lastPathComponent + ".torn")
    let fd = openDescriptor(
      saved.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
    guard fd >= 0 else {
      throw AtomicFile.WriteError(path: saved.path, reason: AtomicFile.lastError())
    }
    defer { _ = closeDescriptor(fd) }
    let bytes = torn + [0x0A]
    let written = bytes.withUnsafeBytes { buffer in
      buffer.baseAddress.map { systemWrite(fd, $0, buffer.count) } ?? 0
    }
    guard written == bytes.count, fsync(fd) == 0 else {
      throw AtomicFile.WriteError(path: saved.path, reason: AtomicFile.lastError())
    }
    return saved
  }

  // MARK: - Rewriting

  /// Replaces the file with `contents` as format 2, atomically: live entries by date then id
  /// (so that every line's date is also its latest), unknown members kept.
  func rewrite(_ contents: LedgerContents, to target: URL, replacing log: LedgerLog? = nil) throws {
    if let log, let saved = try saveTornTail(of: log, target: target) {
      notify(.incompleteLastLineRemoved(path: url.path, savedTo: saved.path))
    }
    var header = contents.header
    let maxID = contents.ledger.entries.map(\.id).max() ?? 0
    header.nextID = Swift.max(contents.ledger.nextID, maxID + 1)
    var bytes = try header.line()
    bytes.reserveCapacity(contents.ledger.entries.count * 240)
    do {
      for entry in contents.ledger.oldestFirst {
        bytes += try LedgerLineWriter.add(
          entry, unknownMembers: contents.unknownMembers[entry.id] ?? [])
      }
    } catch {
      throw AtomicFile.WriteError(path: url.path, reason: error.detail)
    }
    try AtomicFile.replaceUserFile(target, with: Data(bytes))
  }

  /// Rewrites a format 1 file as format 2, keeping the original as a backup.
  func migrate(_ log: LedgerLog, target: URL) throws {
    let found = try contents(log)
    let backup = try backUpDocument(target)
    try rewrite(found, to: target)
    recordVerified(target)
    notify(.migrated(path: url.path, backup: backup.path))
  }

  /// Keeps the file at `target` as `<name>.v1.bak` (or `.v1.1.bak`, … when taken): a hard link
  /// to the same bytes, or a flushed copy where links are not supported. A backup that is
  /// already this very file (an earlier, interrupted migration) is reused.
  func backUpDocument(_ target: URL) throws -> URL {
    var original = stat()
    guard stat(target.path, &original) == 0 else {
      throw AtomicFile.WriteError(path: target.path, reason: AtomicFile.lastError())
    }
    let directory = target.deletingLastPathComponent()
    for attempt in 0..<100 {
      let suffix = attempt == 0 ? ".v1.bak" : ".v1.\(attempt).bak"
      let backup = directory.appendingPathComponent(target.lastPathComponent + suffix)
      var existing = stat()
      if lstat(backup.path, &existing) == 0 {
        if existing.st_ino == original.st_ino && existing.st_dev == original.st_dev {
          return backup
        }
        continue
      }
      if link(target.path, backup.path) == 0 {
        RegularFile.syncDirectory(directory)
        return backup
      }
      guard errno != EEXIST else { continue }
      let bytes = try Data(contentsOf: target)
      let fd = openDescriptor(backup.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard fd >= 0 else {
        throw AtomicFile.WriteError(path: backup.path, reason: AtomicFile.lastError())
      }
      defer { _ = closeDescriptor(fd) }
      let written = bytes.withUnsafeBytes { buffer in
        buffer.baseAddress.map { systemWrite(fd, $0, buffer.count) } ?? 0
      }
      guard written == bytes.count, fsync(fd) == 0 else {
        throw AtomicFile.WriteError(path: backup.path, reason: AtomicFile.lastError())
      }
      RegularFile.syncDirectory(directory)
      return backup
    }
    throw AtomicFile.WriteError(path: target.path, reason: "no free name for a backup")
  }
}

/// Turns a backwards scan of the log into pages of entries, newest first.
///
/// Every line before an `add` line has a date no later than that line's latest date, so once
/// the scan passes it, the entries read that are dated later are complete and can be shown.
struct NewestFirstPages {
  let since: Day?
  let pageSize: Int
  private var pending: [LedgerEntry] = []
  private var removed = Set<Int>()
  private var threshold: Int
  private var stopped = false

  init(since: Day?, pageSize: Int) {
    self.since = since
    self.pageSize = Swift.max(pageSize, 1)
    threshold = self.pageSize
  }

  /// Takes the next record of the backwards scan, passing complete pages to `body`; false when
  /// the scan can stop.
  mutating func add(_ record: LedgerRecord, _ body: ([LedgerEntry]) throws -> Bool) throws -> Bool {
    switch record {
    case .remove(let ids):
      removed.formUnion(ids)
      return true
    case .add(let entry, let latest, _):
      if !removed.contains(entry.id), since.map({ entry.date >= $0 }) ?? true {
        pending.append(entry)
      }
      if let since, latest < since { return false }
      guard pending.count >= threshold else { return true }
      guard try emit(newerThan: latest, body) else {
        stopped = true
        return false
      }
      threshold = pending.count + Swift.min(pageSize, Int.max / 2)
      return true
    }
  }

  /// Shows what is left once the scan ended.
  mutating func finish(_ body: ([LedgerEntry]) throws -> Bool) throws {
    if !stopped { _ = try emit(newerThan: nil, body) }
  }

  private mutating func emit(newerThan day: Day?, _ body: ([LedgerEntry]) throws -> Bool) throws
    -> Bool
  {
    var ready = pending
    if let day {
      ready = pending.filter { $0.date > day }
      pending.removeAll { $0.date > day }
    } else {
      pending = []
    }
    ready.sort { ($0.date, $0.id) > ($1.date, $1.id) }
    var start = 0
    while start < ready.count {
      let end = start + Swift.min(pageSize, ready.count - start)
      guard try body(Array(ready[start..<end])) else { return false }
      start = end
    }
    return true
  }
}

extension LedgerStore {
  /// What `rates doctor` reports of the ledger.
  public struct Summary: Equatable, Sendable {
    /// The file the data is in (the link's target, for a link).
    public var target: URL
    /// The format version: 1 (one JSON document) or 2 (a log).
    public var version: Int
    /// Live entries.
    public var entries: Int
    /// The size of an incomplete last line, 0 when there is none.
    public var incompleteLastLine: Int
  }

  /// Reads every line, without reporting notices.
  public func summary() throws -> Summary {
    let quiet = LedgerStore(url: url, lockTimeout: lockTimeout, notify: { _ in })
    let target = try document.resolvedURL()
    let result = try quiet.withSnapshot { log -> Summary in
      guard let log else {
        return Summary(target: target, version: 2, entries: 0, incompleteLastLine: 0)
      }
      let version: Int
      if case .log = log.format { version = LedgerStore.formatVersion } else { version = 1 }
      return Summary(
        target: target, version: version, entries: try quiet.contents(log).ledger.entries.count,
        incompleteLastLine: log.tornTail?.count ?? 0)
    }
    return result ?? Summary(target: target, version: 2, entries: 0, incompleteLastLine: 0)
  }
}
