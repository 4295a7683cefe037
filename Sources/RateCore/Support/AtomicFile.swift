#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file writes that never leave a half-written file behind.
///
/// The bytes go to a temporary file in the same directory (created with the
/// requested mode, so it is never readable by others even briefly), are
/// flushed to disk, and the temporary file is renamed over the target.
/// Readers see the old file or the new one, never a mix.
///
/// Temporary files are named `.<name>.<pid>.<random>.tmp`, so one left behind by a killed
/// writer can be told from one being written: see ``removeAbandonedTemporaryFiles(of:)``.
public enum AtomicFile {
  /// Why a file could not be written or its directory created.
  public struct WriteError: Error, Equatable, Sendable, LocalizedError {
    /// The file or directory concerned.
    public var path: String
    /// `strerror` text.
    public var reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }

    /// `cannot write <path>: <reason>`.
    public var errorDescription: String? { "cannot write \(path): \(reason)" }
  }

  /// Writes `data` to `url` atomically with permissions `mode`, creating
  /// missing directories (mode 0700).
  ///
  /// - Parameter durable: whether the bytes are flushed to disk (`fsync`) before the rename.
  ///   User data must be; a cache need not be: after a power loss it may lose its newest
  ///   entries or hold an empty file, which its reader treats as unusable, never as data.
  public static func write(
    _ data: Data, to url: URL, mode: mode_t = 0o600, durable: Bool = true
  ) throws {
    let directory = url.deletingLastPathComponent()
    try createDirectory(directory)
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, mode)
    guard fd >= 0 else { throw WriteError(path: temporary.path, reason: lastError()) }
    var failure: WriteError?
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = systemWrite(fd, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = WriteError(path: temporary.path, reason: lastError())
          return
        }
        offset += written
      }
    }
    if failure == nil, durable, fsync(fd) != 0 {
      failure = WriteError(path: temporary.path, reason: lastError())
    }
    close(fd)
    if failure == nil, rename(temporary.path, url.path) != 0 {
      failure = WriteError(path: url.path, reason: lastError())
    }
    if let failure {
      unlink(temporary.path)
      throw failure
    }
  }

  /// Replaces the user data file `target` (held under its exclusive lock) with `data`: the
  /// temporary files of dead writers removed, then written as ``write(_:to:mode:durable:)``
  /// does with mode 0600, and the directory flushed. A new inode created 0600 replaces the old
  /// one, so broader permissions on an existing file are tightened by the write itself;
  /// `chmod` covers a umask that also cleared 0600 bits.
  static func replaceUserFile(_ target: URL, with data: Data) throws {
    removeAbandonedTemporaryFiles(of: target)
    try write(data, to: target, mode: 0o600)
    chmod(target.path, 0o600)
    RegularFile.syncDirectory(target.deletingLastPathComponent())
  }

  /// Creates `directory` and its parents with mode 0700 when missing.
  public static func createDirectory(_ directory: URL) throws {
    if let isDirectory = FileManager.default.isDirectory(atPath: directory.path) {
      guard isDirectory else {
        throw WriteError(path: directory.path, reason: "it exists and is not a directory")
      }
      return
    }
    // A parent that is a file gives Foundation's opaque error 512: say what it is.
    var parent = directory.deletingLastPathComponent()
    while parent.path != "/" && !parent.path.isEmpty {
      if let isDirectory = FileManager.default.isDirectory(atPath: parent.path) {
        if !isDirectory {
          throw WriteError(
            path: directory.path, reason: "\(parent.path) is a file, not a directory")
        }
        break
      }
      parent = parent.deletingLastPathComponent()
    }
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw WriteError(path: directory.path, reason: error.readableDescription)
    }
  }

  /// Removes the temporary files of `target` (`.<name>.<pid>.<random>.tmp` beside it) whose
  /// writer is provably gone: no process with that id exists. Call it holding the file's
  /// exclusive lock; a temporary file of a live process (another writer, perhaps an older
  /// `rates` that locked elsewhere) is never touched, nor is any other file.
  static func removeAbandonedTemporaryFiles(of target: URL) {
    let directory = target.deletingLastPathComponent()
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
      return
    }
    for name in names {
      guard let pid = writerPID(ofTemporaryFile: name, for: target.lastPathComponent),
        pid != getpid(), !RegularFile.processMayBeAlive(pid)
      else { continue }
      unlink(directory.appendingPathComponent(name).path)
    }
  }

  /// The process id in `name` when it is exactly `.<file>.<pid>.<random>.tmp`, else nil.
  public static func writerPID(ofTemporaryFile name: String, for file: String) -> Int32? {
    let prefix = ".\(file)."
    guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { return nil }
    let middle = name.dropFirst(prefix.count).dropLast(4).split(
      separator: ".", omittingEmptySubsequences: false)
    guard middle.count == 2, middle.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
      let pid = Int32(middle[0]), UInt32(middle[1]) != nil
    else { return nil }
    return pid
  }

  public static func lastError() -> String {
    String(cString: strerror(errno))
  }
}

/// `write(2)`; named apart so it does not clash with `AtomicFile.write`.
@inline(__always)
public func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}
