#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file checks before appending, skipped while the file is as `rates` last left it.
///
/// An append reads only the end of the file, so on its own it would not notice a line the user
/// broke by hand in the middle, and it would then write after it. Each writer therefore
/// records, in `.ledger.json.verified` beside the file, the device, inode, size and modification
/// time it left the file with; the next writer compares them with the file's: when they match,
/// nobody else changed the file and the lines before are known good; otherwise (a hand edit,
/// an interrupted write, the first run of this version) it reads every line first, and refuses
/// to write if one is corrupt. The record is a hint, written without `fsync`: losing it only
/// costs one full check.
extension LedgerStore {
  /// Reads every line of `log` unless the file is as the last writer left it; returns the
  /// lowest id not yet used in it when it did read them.
  /// - Throws: ``DataFileError/corruptLine(path:line:detail:)`` for a corrupt line.
  func verify(_ log: LedgerLog, target: URL) throws -> Int? {
    guard Self.fingerprint(of: log.handle.info) != verifiedFingerprint(target) else { return nil }
    return try contents(log).ledger.nextID
  }

  /// Records the state the file at `target` is left in (best effort).
  func recordVerified(_ target: URL) {
    var info = stat()
    guard stat(target.path, &info) == 0 else { return }
    let fd = openDescriptor(
      Self.verifiedURL(target).path,
      O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
    guard fd >= 0 else { return }
    defer { _ = closeDescriptor(fd) }
    let bytes = Array((Self.fingerprint(of: info) + "\n").utf8)
    _ = bytes.withUnsafeBytes { buffer in
      buffer.baseAddress.map { systemWrite(fd, $0, buffer.count) } ?? 0
    }
  }

  func verifiedFingerprint(_ target: URL) -> String? {
    guard
      case .success(let handle) = RegularFile.open(
        Self.verifiedURL(target).path, followLinks: false)
    else { return nil }
    defer { handle.close() }
    guard let bytes = try? RegularFile.readAll(handle.fd, limit: 256) else { return nil }
    return String(decoding: bytes, as: UTF8.self).trimming(.newlines)
  }

  static func verifiedURL(_ target: URL) -> URL {
    target.deletingLastPathComponent()
      .appendingPathComponent(".\(target.lastPathComponent).verified")
  }

  /// `device inode size mtime`, to the nanosecond.
  static func fingerprint(of info: stat) -> String {
    #if canImport(Darwin)
      let modified = info.st_mtimespec
    #else
      let modified = info.st_mtim
    #endif
    return "\(info.st_dev) \(info.st_ino) \(info.st_size) \(modified.tv_sec).\(modified.tv_nsec)"
  }
}
