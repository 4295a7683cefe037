#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opening and reading files that must be regular files, without ever blocking.
///
/// A plain `open(2)` of a FIFO for reading blocks until a writer appears, and opening a device
/// can have side effects, so every file `rates` reads is checked with `stat` first (refusing
/// anything but a regular file), opened with `O_NONBLOCK` (which cannot block, and has no
/// effect on a regular file), and checked again with `fstat` on the descriptor, which closes
/// the race with a file swapped in between.
public enum RegularFile {
  /// Why a file could not be opened.
  package enum Failure: Error, Equatable, Sendable {
    /// There is nothing at the path (or a parent is not a directory).
    case missing
    /// Something other than a regular file is there; `kind` names it (`a FIFO`, …).
    case notRegular(kind: String)
    /// `strerror` text of another failure.
    case system(String)

    /// The reason as the end of a sentence: `not a regular file (it is a FIFO)`.
    package var reason: String {
      switch self {
      case .missing: return "no such file"
      case .notRegular(let kind): return "not a regular file (it is \(kind))"
      case .system(let text): return text
      }
    }
  }

  /// An open descriptor on a regular file and its `fstat` information.
  struct Handle {
    let fd: Int32
    let info: stat

    /// The file's size in bytes.
    var size: Int { Int(info.st_size) }

    func close() { _ = closeDescriptor(fd) }
  }

  /// Opens the regular file at `path` with `flags` (`O_RDONLY` by default).
  ///
  /// - Parameter followLinks: whether a symbolic link at `path` is followed; when false, a link
  ///   is refused as `notRegular(kind: "a symbolic link")`.
  static func open(
    _ path: String, flags: Int32 = O_RDONLY, followLinks: Bool = true
  ) -> Result<Handle, Failure> {
    var info = stat()
    let found = followLinks ? stat(path, &info) : lstat(path, &info)
    guard found == 0 else {
      return .failure(errno == ENOENT || errno == ENOTDIR ? .missing : .system(lastError()))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return .failure(.notRegular(kind: kind(of: info.st_mode)))
    }
    var all = flags | O_NONBLOCK | O_CLOEXEC
    if !followLinks { all |= O_NOFOLLOW }
    let fd = openDescriptor(path, all)
    guard fd >= 0 else {
      if errno == ELOOP { return .failure(.notRegular(kind: "a symbolic link")) }
      return .failure(errno == ENOENT ? .missing : .system(lastError()))
    }
    guard fstat(fd, &info) == 0 else {
      let failure = Failure.system(lastError())
      _ = closeDescriptor(fd)
      return .failure(failure)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      _ = closeDescriptor(fd)
      return .failure(.notRegular(kind: kind(of: info.st_mode)))
    }
    return .success(Handle(fd: fd, info: info))
  }

  /// Reads from `fd` until end of file, at most `limit` bytes; nil when there is more.
  ///
  /// The buffer starts at `expected + 1` bytes (the size `fstat` gave, and one byte to see the
  /// end without growing) and doubles only when the file turns out longer, never past one byte
  /// over `limit`: a warm command reading a cache entry of a few KB neither zero-fills nor
  /// faults in a buffer the size of the limit.
  package static func readAll(
    _ fd: Int32, expected: Int = 0, limit: Int = Int.max
  ) throws(Failure) -> [UInt8]? {
    // One byte past the limit tells a file longer than `limit` from one of exactly `limit`.
    let ceiling = limit < Int.max ? max(limit, 0) + 1 : limit
    var capacity = min(max(expected, 0) + 1, ceiling)
    var bytes: [UInt8] = []
    while true {
      var ended = false
      var failure: Failure?
      bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        count = buffer.initialize(fromContentsOf: bytes)
        (ended, failure) = fill(buffer, from: fd, count: &count)
      }
      if let failure { throw failure }
      if ended { return bytes }
      guard capacity < ceiling else { return nil }
      capacity = min(max(capacity * 2, 64 * 1024), ceiling)
    }
  }

  /// Reads from `fd` into `buffer` after its first `count` bytes until it is full or the file
  /// ends: whether it ended, or why reading failed.
  private static func fill(
    _ buffer: UnsafeMutableBufferPointer<UInt8>, from fd: Int32, count: inout Int
  ) -> (ended: Bool, failure: Failure?) {
    guard let base = buffer.baseAddress else { return (true, nil) }
    while count < buffer.count {
      let got = systemRead(fd, base + count, buffer.count - count)
      if got < 0 {
        if errno == EINTR { continue }
        return (false, .system(lastError()))
      }
      if got == 0 { return (true, nil) }
      count += got
    }
    return (false, nil)
  }

  /// Reads `count` bytes at `offset` (fewer at end of file).
  static func read(_ fd: Int32, offset: Int, count: Int) throws(Failure) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        pread(fd, buffer.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw .system(lastError())
      }
      if got == 0 { break }
      done += got
    }
    if done < count { bytes.removeLast(count - done) }
    return bytes
  }

  /// `a directory`, `a FIFO`, …: what a file of mode `mode` is, for messages.
  static func kind(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: return "a regular file"
    case S_IFDIR: return "a directory"
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    case S_IFLNK: return "a symbolic link"
    default: return "not a regular file"
    }
  }

  /// Whether process `pid` may still be running: false only when the kernel says there is no
  /// such process, so a temporary file named after a dead writer is provably abandoned.
  public static func processMayBeAlive(_ pid: Int32) -> Bool {
    guard pid > 0 else { return false }
    return kill(pid, 0) == 0 || errno != ESRCH
  }

  /// `fsync` on the directory at `url`, so a rename or a new name in it survives a power loss
  /// (best effort: some file systems refuse it).
  static func syncDirectory(_ url: URL) {
    let fd = openDescriptor(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    _ = closeDescriptor(fd)
  }

  static func lastError() -> String { String(cString: strerror(errno)) }
}

/// `open(2)`; named apart from `RegularFile.open`.
@inline(__always)
func openDescriptor(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
  open(path, flags, mode)
}

/// `close(2)`; named apart from `RegularFile.Handle.close`.
@inline(__always)
func closeDescriptor(_ fd: Int32) -> Int32 {
  close(fd)
}
