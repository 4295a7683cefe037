import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the cache holds: its files grouped by provider and kind, their size and the range of
/// their envelopes' `fetchedAt`. Used by `rates cache` and `rates doctor`.
///
/// The scan never follows a symbolic link below the cache directory and never opens anything
/// but a regular file (non-blocking, size-checked), so a FIFO, a device or a huge file planted
/// in the cache cannot hang it or fill memory.
struct CacheInventory: Sendable, Equatable {
  /// One provider's entries of one kind, such as `coingecko/history`.
  struct Group: Sendable, Equatable, Encodable {
    var provider: String
    var kind: String
    var entries: Int
    var bytes: Int

    /// Counts `file` and its size in its group of `groups`, by ``CacheFile/groupKey``.
    static func count(_ file: CacheFile, in groups: inout [String: Group]) {
      let empty = Group(provider: file.provider, kind: file.kind, entries: 0, bytes: 0)
      groups[file.groupKey, default: empty].entries += 1
      groups[file.groupKey, default: empty].bytes += file.size
    }
  }

  /// The cache directory.
  var directory: URL
  /// Whether it exists.
  var exists: Bool
  /// Cache entries: files named as the cache names them (`.json`, no leading dot).
  var entries: Int
  /// The size of every regular file under the directory.
  var bytes: Int
  /// Entries whose envelope could not be read (corrupt, oversized, or another format version).
  var unreadable: Int
  /// Files that are not the cache's own (wrong name, or an envelope for another path), and
  /// anything that is not a regular file or directory; `clear` leaves them.
  var foreign: Int = 0
  /// The oldest and newest `fetchedAt` of the readable entries.
  var oldest: Date?
  var newest: Date?
  /// Entries by provider and kind, sorted.
  var groups: [Group]
  /// The day store's files (`days/<provider>/<asset>-<quote>.days`), one per pair, sorted.
  var days: [DayFile] = []

  /// One pair's settled days in the day store.
  struct DayFile: Sendable, Equatable, Encodable {
    var provider: String
    var pair: String
    var from: Day
    var through: Day
    /// Days with a value, and days known to have none (closures).
    var values: Int
    var empty: Int
    /// Days left out of an answer, waiting to be asked again.
    var leftOut: Int
    var bytes: Int

    /// A date range is `firstDay`/`lastDay` in every document.
    enum CodingKeys: String, CodingKey {
      case provider, pair
      case from = "firstDay"
      case through = "lastDay"
      case values, empty, leftOut, bytes
    }
  }

  /// Scans `directory` (every entry is opened to read its `fetchedAt`).
  static func scan(_ directory: URL) -> CacheInventory {
    var inventory = CacheInventory(
      directory: directory, exists: false, entries: 0, bytes: 0, unreadable: 0, oldest: nil,
      newest: nil, groups: [])
    var info = stat()
    guard stat(directory.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      return inventory
    }
    inventory.exists = true
    var groups: [String: Group] = [:]
    CacheWalker(root: directory).walk { file in
      // The providers' pauses (``ProviderPauses``): the cache's own state, not an entry.
      if ProviderPauses.owns(file.relative) { return }
      inventory.bytes += file.size
      guard file.isEntryName else {
        inventory.foreign += file.isTemporary || file.isDayLock ? 0 : 1
        return
      }
      inventory.entries += 1
      if let summary = file.daySummary {
        inventory.days.append(
          DayFile(
            provider: file.relative[1], pair: String(file.url.lastPathComponent.dropLast(5)),
            from: summary.from, through: summary.through, values: summary.values,
            empty: summary.empty, leftOut: summary.leftOut, bytes: file.size))
      }
      Group.count(file, in: &groups)
      if file.isDayFile && file.daySummary != nil { return }
      guard let envelope = file.envelope, envelope.version == JSONFileCache.formatVersion,
        let fetchedAt = envelope.fetchedAt
      else {
        inventory.unreadable += 1
        return
      }
      inventory.oldest = min(inventory.oldest ?? fetchedAt, fetchedAt)
      inventory.newest = max(inventory.newest ?? fetchedAt, fetchedAt)
    }
    inventory.groups = groups.values.sorted { ($0.provider, $0.kind) < ($1.provider, $1.kind) }
    inventory.days.sort { ($0.provider, $0.pair) < ($1.provider, $1.pair) }
    return inventory
  }

  /// `1.2 MB`, `830 B`: a size for people (powers of 1000, like `ls -h --si`).
  static func formatBytes(_ bytes: Int) -> String {
    if bytes < 1000 { return "\(bytes) B" }
    let units = ["kB", "MB", "GB", "TB"]
    var value = Double(bytes) / 1000
    var index = 0
    while value >= 1000 && index < units.count - 1 {
      value /= 1000
      index += 1
    }
    return NumberText.fixed(value, places: value < 10 ? 1 : 0) + " " + units[index]
  }

  /// `3 h ago`, `2 d ago`: an age for people.
  static func formatAge(_ date: Date, now: Date) -> String {
    let seconds = Int(now.timeIntervalSince(date))
    if seconds < 0 { return "in the future" }
    if seconds < 60 { return "\(seconds) s ago" }
    if seconds < 3600 { return "\(seconds / 60) min ago" }
    if seconds < 86_400 { return "\(seconds / 3600) h ago" }
    return "\(seconds / 86_400) d ago"
  }
}

/// One regular file under the cache directory, as the walk found it.
struct CacheFile {
  /// The file.
  var url: URL
  /// Its path below the cache directory, by component.
  var relative: [String]
  /// Its size in bytes.
  var size: Int
  /// Whether its name is one the cache gives entries (`[a-z0-9._-]+.json`, no leading dot).
  var isEntryName: Bool
  /// Whether its name is that of a cache write's temporary file.
  var isTemporary: Bool
  /// The envelope's probe, when the file is an entry that could be read.
  var envelope: CacheWalker.Probe?
  /// What a day store file holds, when it is one that could be read.
  var daySummary: DayStore.Summary?

  /// Whether it is a day store file: `days/<provider>/<name>.days`.
  var isDayFile: Bool { relative.count == 3 && relative[0] == "days" && url.pathExtension == "days" }
  /// Whether it is a day store file's lock, `<name>.days.lock`.
  var isDayLock: Bool {
    relative.count == 3 && relative[0] == "days" && url.lastPathComponent.hasSuffix(".days.lock")
  }

  var provider: String { isDayFile ? relative[1] : relative.count > 1 ? relative[0] : "-" }
  /// The pair an entry or day file is for (`eur-usd`), its name without the extension (and
  /// without `.lock` for a day file's lock).
  var pairName: String {
    let name = url.lastPathComponent
    for suffix in [".days.lock", ".days", ".json"] where name.hasSuffix(suffix) {
      return String(name.dropLast(suffix.count))
    }
    return name
  }
  var kind: String { isDayFile ? "days" : relative.count > 2 ? relative[1] : "-" }
  var groupKey: String { provider + "/" + kind }
}

/// Walks the cache directory without following symbolic links, reading each entry's envelope.
struct CacheWalker {
  /// What `clear` and `info` read of an envelope.
  struct Probe: Decodable {
    var version: Int
    var key: String?
    var fetchedAt: Date?
  }

  /// The cache directory.
  var root: URL
  /// How deep below the root files can be: keys have at most a few segments.
  var maximumDepth = 6

  /// Calls `visit` for every regular file under the root (symbolic links, FIFOs and other
  /// non-files are counted as foreign files of size 0 and never opened).
  func walk(_ visit: (CacheFile) -> Void) {
    walk(directory: root, relative: [], visit)
  }

  private func walk(directory: URL, relative: [String], _ visit: (CacheFile) -> Void) {
    guard relative.count < maximumDepth,
      let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return }
    for name in names.sorted() {
      let url = directory.appendingPathComponent(name)
      var info = stat()
      guard lstat(url.path, &info) == 0 else { continue }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        walk(directory: url, relative: relative + [name], visit)
      case S_IFREG:
        visit(file(url, relative: relative + [name], size: Int(info.st_size)))
      default:
        visit(
          CacheFile(
            url: url, relative: relative + [name], size: 0, isEntryName: false,
            isTemporary: false, envelope: nil))
      }
    }
  }

  private func file(_ url: URL, relative: [String], size: Int) -> CacheFile {
    let name = url.lastPathComponent
    let isEntryName = Self.isEntryName(name)
    var file = CacheFile(
      url: url, relative: relative, size: size, isEntryName: isEntryName,
      isTemporary: !isEntryName && name.hasPrefix(".") && name.hasSuffix(".tmp"), envelope: nil)
    guard isEntryName else { return file }
    if file.isDayFile {
      file.daySummary = DayStore.summary(of: url)
      return file
    }
    let key = relative.joined(separator: "/").dropLast(5)  // the path without ".json"
    let limit = JSONFileCache.maximumBytes(forKey: String(key))
    if let data = JSONFileCache.readEntry(at: url.path, limit: limit).data {
      file.envelope = try? JSONCoders.decoder().decode(Probe.self, from: data)
    }
    return file
  }

  /// Whether the cache names entry files `name`: `[a-z0-9._-]+.json` (or `.days`, the day
  /// store's), not starting with a dot.
  static func isEntryName(_ name: String) -> Bool {
    guard name.hasSuffix(".json") || name.hasSuffix(".days"), name.count > 5, !name.hasPrefix(".")
    else { return false }
    return name.utf8.allSatisfy { byte in
      (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2E
        || byte == 0x5F || byte == 0x2D
    }
  }

  /// Whether `file` is provably the cache's own entry: an entry name, and an envelope whose
  /// key maps to exactly this file (any format version).
  func isOwnEntry(_ file: CacheFile) -> Bool {
    if file.isDayFile { return file.isEntryName && file.daySummary != nil }
    guard file.isEntryName, let key = file.envelope?.key else { return false }
    return JSONFileCache(directory: root).fileURL(for: key).path == file.url.path
  }
}

// MARK: - Clearing

/// What `rates cache clear` removed, counted as it removed it, and what it left.
struct CacheClearReport: Sendable, Equatable {
  /// Entries removed, by provider and kind, sorted.
  var groups: [CacheInventory.Group] = []
  /// Temporary files of cache writers that are no longer running.
  var removedTemporaryFiles = 0
  /// Files left because they are not provably the cache's own, sorted.
  var kept: [String] = []

  /// The number of entries removed.
  var removedEntries: Int { groups.reduce(0) { $0 + $1.entries } }
  /// Their size in bytes.
  var removedBytes: Int { groups.reduce(0) { $0 + $1.bytes } }
}

/// Why the cache was not cleared, or not entirely.
enum CacheClearError: Error, Equatable, Sendable, LocalizedError {
  /// The cache directory is a symbolic link: not a directory `rates` made, so not cleared.
  case symbolicLink(path: String, target: String)

  var errorDescription: String? {
    switch self {
    case .symbolicLink(let path, let target):
      return "refusing to clear \(path): it is a symbolic link to \(target), and 'rates cache "
        + "clear' only clears a cache directory of its own; remove the link (rates recreates "
        + "the directory), or set XDG_CACHE_HOME to a real directory"
    }
  }
}

extension CacheInventory {
  /// Removes the cache's own entries under `directory` and nothing else.
  ///
  /// An entry is the cache's own when its name is one the cache gives and its envelope's key
  /// maps to exactly its path; any other file (a corrupt entry included) is kept and listed.
  /// Temporary files of writers that are no longer running go too, and then the empty
  /// directories the cache made. Symbolic links are never followed, and a cache directory that
  /// is itself a symbolic link is refused rather than cleared.
  /// - Throws: ``CacheClearError`` for a symbolic link; `AtomicFile.WriteError` naming the
  ///   first entry that could not be removed (the others are removed all the same).
  ///
  /// With `pair` (a file name as ``pairFileName(_:)`` makes it), only the entries of that pair
  /// go (its day store file and its cached entries of every provider and kind); nothing else
  /// is removed or listed.
  static func clear(_ directory: URL, pair: String? = nil) throws -> CacheClearReport {
    var report = CacheClearReport()
    var info = stat()
    guard lstat(directory.path, &info) == 0 else { return report }
    if info.st_mode & S_IFMT == S_IFLNK {
      let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: directory.path))
      throw CacheClearError.symbolicLink(path: directory.path, target: target ?? "?")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else { return report }
    let walker = CacheWalker(root: directory)
    var groups: [String: Group] = [:]
    var failure: AtomicFile.WriteError?
    walker.walk { file in
      if let pair, file.pairName != pair { return }
      let own = walker.isOwnEntry(file)
      // The providers' pauses and last answers go with the cache, uncounted.
      let state = ProviderPauses.owns(file.relative)
      guard own || state || isAbandonedTemporaryFile(file) || file.isDayLock else {
        report.kept.append(file.url.path)
        return
      }
      guard unlink(file.url.path) == 0 || errno == ENOENT else {
        failure =
          failure
          ?? AtomicFile.WriteError(
            path: file.url.path, reason: "cannot remove it: \(AtomicFile.lastError())")
        return
      }
      guard own else {
        report.removedTemporaryFiles += state ? 0 : 1
        return
      }
      Group.count(file, in: &groups)
    }
    removeEmptyDirectories(in: directory)
    report.groups = groups.values.sorted { ($0.provider, $0.kind) < ($1.provider, $1.kind) }
    report.kept.sort()
    if let failure { throw failure }
    return report
  }

  /// The name the cache gives a pair's files (`eur-usd` for `EUR/USD`, `EUR-USD` or
  /// `eur-usd`): the one mapping of ``JSONFileCache/fileURL(for:)``.
  static func pairFileName(_ text: String) -> String {
    let key = "p/" + text.split(separator: "/", omittingEmptySubsequences: false).joined(separator: "-")
    return JSONFileCache(directory: URL(fileURLWithPath: "/")).fileURL(for: key)
      .deletingPathExtension().lastPathComponent
  }

  /// Whether `file` is `.<entry>.<pid>.<random>.tmp` of a process that no longer exists.
  static func isAbandonedTemporaryFile(_ file: CacheFile) -> Bool {
    guard file.isTemporary else { return false }
    let name = file.url.lastPathComponent
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    // "", "<entry name>", "json", "<pid>", "<random>", "tmp"
    guard parts.count >= 6 else { return false }
    let entry = parts[1..<(parts.count - 3)].joined(separator: ".")
    guard CacheWalker.isEntryName(entry),
      let pid = AtomicFile.writerPID(ofTemporaryFile: name, for: entry)
    else { return false }
    return pid != getpid() && !RegularFile.processMayBeAlive(pid)
  }

  /// Removes, deepest first, the empty directories below `directory` named as the cache names
  /// them (`rmdir` leaves any that are not empty).
  static func removeEmptyDirectories(in directory: URL, depth: Int = 0) {
    guard depth < 6,
      let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return }
    for name in names where !name.hasPrefix(".") {
      let url = directory.appendingPathComponent(name)
      var info = stat()
      guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
        CacheWalker.isEntryName(name + ".json")
      else { continue }
      removeEmptyDirectories(in: url, depth: depth + 1)
      rmdir(url.path)
    }
  }
}
