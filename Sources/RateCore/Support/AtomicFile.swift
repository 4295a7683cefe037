import Foundation

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

    public var errorDescription: String? { "cannot write \(path): \(reason)" }
  }

  /// Writes `data` to `url` atomically with permissions `mode`, creating
  /// missing directories (mode 0700).
  public static func write(_ data: Data, to url: URL, mode: mode_t = 0o600) throws {
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
    if failure == nil, fsync(fd) != 0 {
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

  /// Creates `directory` and its parents with mode 0700 when missing.
  public static func createDirectory(_ directory: URL) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw WriteError(path: directory.path, reason: "it exists and is not a directory")
      }
      return
    }
    // A parent that is a file gives Foundation's opaque error 512: say what it is.
    var parent = directory.deletingLastPathComponent()
    while parent.path != "/" && !parent.path.isEmpty {
      if FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory) {
        if !isDirectory.boolValue {
          throw WriteError(path: directory.path, reason: "\(parent.path) is a file, not a directory")
        }
        break
      }
      parent = parent.deletingLastPathComponent()
    }
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: NSNumber(value: 0o700)])
    } catch {
      throw WriteError(path: directory.path, reason: error.localizedDescription)
    }
  }

  public static func lastError() -> String {
    String(cString: strerror(errno))
  }
}

/// `write(2)`; named apart so it does not clash with `AtomicFile.write`.
@inline(__always)
public func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
  #else
    return Darwin.write(fd, buffer, count)
  #endif
}
