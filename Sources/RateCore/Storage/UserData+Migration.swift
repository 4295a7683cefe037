#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The split of the one merged list of older versions into *your coins* and *favorites*.
///
/// Before the split, `favorites.json` was the one list of coins the user followed (`top`,
/// `watch` and the favorites list all showed it). Now `coins.json` holds the coins of the
/// main list and `favorites.json` the starred ones. So that nobody loses anything, the first
/// use after upgrading (no `coins.json`, a `favorites.json`) copies every favorite into
/// `coins.json` and leaves `favorites.json` as it is; the favorites file's bytes are first
/// saved as `favorites.json.before-coins` (mode 0600; an existing backup is never replaced).
///
/// It runs under the exclusive lock of `coins.json`, so two processes migrating at once
/// copy the favorites once; a `coins.json` that exists (even empty) means done. A favorites
/// file that cannot be read (corrupt, of another version, a dangling link) stops it with its
/// ``DataFileError`` and nothing is written.
extension UserData {
  /// The suffix of the favorites file's backup.
  public static let listsBackupSuffix = ".before-coins"

  /// Copies the favorites of an older `rates` into `coins.json` if that was never done, and
  /// says so once through `notify`; returns the backup's URL when it did.
  @discardableResult public func migrateListsIfNeeded() throws -> URL? {
    try migrateLists(creatingCoins: false)
  }

  /// The migration; when `creatingCoins`, `coins.json` is created (empty) even without a
  /// favorites file, so that coins starred from now on are never taken for old favorites.
  func migrateLists(creatingCoins: Bool) throws -> URL? {
    if try coinsFileExists() { return nil }
    // Nothing to copy: no lock (it would create the directory). A favorites file appearing
    // meanwhile was written by a version that created coins.json first.
    var info = stat()
    if !creatingCoins, lstat(favorites.url.path, &info) != 0, errno == ENOENT { return nil }
    let (moved, _) = try coins.update { list, existed -> (result: (URL, Int)?, write: Bool) in
      guard !existed else { return (nil, false) }
      let favoritesTarget = try favorites.resolvedURL()
      guard let bytes = try favorites.readContents(of: favoritesTarget) else {
        return (nil, creatingCoins)
      }
      let found = try favorites.decode(bytes)
      guard !found.isEmpty else { return (nil, true) }
      let backup = try Self.backUp(bytes, besides: favorites.url)
      list = found
      return ((backup, found.count), true)
    }
    guard let (backup, count) = moved else { return nil }
    notify(.listsSplit(coins: coins.url.path, count: count, backup: backup.path))
    return backup
  }

  /// Before writing `favorites.json`: migrate, and make sure `coins.json` exists.
  func prepareFavoritesWrite() throws {
    _ = try migrateLists(creatingCoins: true)
  }

  /// The user's coins for shell completion, without waiting for a lock or writing anything:
  /// before the migration, the favorites that will become them.
  public func coinsWithoutLock() throws -> [FavoriteCoin] {
    try coinsFileExists() ? coins.readWithoutLock() : favorites.readWithoutLock()
  }

  /// Whether `coins.json` exists, which means the split is done.
  func coinsFileExists() throws -> Bool {
    FileManager.default.fileExists(atPath: try coins.resolvedURL().path)
  }

  /// How many favorites the migration will copy into your coins, for diagnostics: nil when
  /// there is nothing to copy (done already, or no favorites) or the files cannot be read.
  /// Takes no lock and writes nothing.
  public func pendingListsSplit() -> Int? {
    guard let coinsTarget = try? coins.resolvedURL(),
      !FileManager.default.fileExists(atPath: coinsTarget.path),
      let found = try? favorites.readWithoutLock(), !found.isEmpty
    else { return nil }
    return found.count
  }

  /// Saves `bytes` as `<file>.before-coins` (or `.before-coins.1`, … when taken by other
  /// bytes), created exclusively with mode 0600 and flushed; a backup already holding these
  /// very bytes (an interrupted migration) is reused.
  static func backUp(_ bytes: Data, besides file: URL) throws -> URL {
    let directory = file.deletingLastPathComponent()
    for attempt in 0..<100 {
      let suffix = listsBackupSuffix + (attempt == 0 ? "" : ".\(attempt)")
      let backup = directory.appendingPathComponent(file.lastPathComponent + suffix)
      let fd = openDescriptor(backup.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard fd >= 0 else {
        guard errno == EEXIST else {
          throw AtomicFile.WriteError(path: backup.path, reason: AtomicFile.lastError())
        }
        if isRegularFile(backup), (try? Data(contentsOf: backup)) == bytes { return backup }
        continue
      }
      defer { _ = closeDescriptor(fd) }
      let written = bytes.withUnsafeBytes { buffer in
        buffer.baseAddress.map { systemWrite(fd, $0, buffer.count) } ?? 0
      }
      guard written == bytes.count, fsync(fd) == 0 else {
        let reason = AtomicFile.lastError()
        unlink(backup.path)
        throw AtomicFile.WriteError(path: backup.path, reason: reason)
      }
      RegularFile.syncDirectory(directory)
      return backup
    }
    throw AtomicFile.WriteError(
      path: directory.appendingPathComponent(file.lastPathComponent + listsBackupSuffix).path,
      reason: "100 earlier backups are in the way")
  }

  /// Whether `url` is a regular file itself (not a link to one).
  static func isRegularFile(_ url: URL) -> Bool {
    var info = stat()
    return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }
}
