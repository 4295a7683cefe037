#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `flock(2)` lock on a lock file, held through one open file description.
///
/// `flock` locks belong to the open file description, not to the process (unlike `fcntl`
/// locks, which a process holds once and loses when it closes *any* descriptor of the file).
/// Each operation therefore opens the lock file afresh, which makes the lock exclude other
/// threads of this process as well as other processes. ``release()`` unlocks explicitly; the
/// kernel drops the lock when the process dies, so a crash never leaves a stale lock.
struct FileLock {
  let fd: Int32

  /// The clock a lock waits on: real time in use, a virtual one in tests (which then wait
  /// for no real time and can say how long the lock waited).
  struct Clock: Sendable {
    /// The time on this clock, from any origin.
    var now: @Sendable () -> Duration
    /// Waits `duration` on this clock.
    var pause: @Sendable (Duration) -> Void

    /// Real time: `ContinuousClock`, pausing with `usleep`.
    static let live: Clock = {
      let origin = ContinuousClock.now
      return Clock(
        now: { ContinuousClock.now - origin },
        pause: { duration in
          let (seconds, attoseconds) = duration.components
          usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
        })
    }()
  }

  /// Opens (creating, mode 0600) `lockURL` and locks it, polling until `timeout`.
  ///
  /// Returns nil when the directory does not exist and the lock is shared (nothing to read).
  /// When a shared lock file cannot be created (a read-only directory), the read goes ahead
  /// unlocked: writers replace the data file by `rename`, so a reader still sees a whole file.
  static func acquire(
    at lockURL: URL, for dataURL: URL, exclusive: Bool, timeout: Duration,
    clock: Clock = .live
  ) throws -> FileLock? {
    // O_NONBLOCK: a FIFO planted as the lock file must not block the open; it is refused below.
    var fd = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o600)
    if fd < 0 {
      let error = errno
      if !exclusive {
        if error == ENOENT { return nil }
        if error == EACCES || error == EROFS || error == EPERM {
          fd = open(lockURL.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
          if fd < 0 { return FileLock(fd: -1) }
        }
      }
      guard fd >= 0 else {
        let reason = String(cString: strerror(error))
        if exclusive { throw AtomicFile.WriteError(path: lockURL.path, reason: reason) }
        throw DataFileError.unreadable(path: lockURL.path, reason: reason)
      }
    }
    var info = stat()
    if fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
      close(fd)
      let reason =
        "the lock file is not a regular file (it is \(RegularFile.kind(of: info.st_mode)))"
      if exclusive { throw AtomicFile.WriteError(path: lockURL.path, reason: reason) }
      throw DataFileError.unreadable(path: lockURL.path, reason: reason)
    }
    if exclusive, info.st_mode & 0o077 != 0 {
      fchmod(fd, 0o600)
    }
    let operation = (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB
    let deadline = clock.now() + timeout
    var pause = Duration.milliseconds(2)
    while flock(fd, operation) != 0 {
      let error = errno
      if error == EINTR { continue }
      guard error == EWOULDBLOCK || error == EAGAIN else {
        close(fd)
        throw DataFileError.unreadable(
          path: lockURL.path, reason: String(cString: strerror(error)))
      }
      guard clock.now() < deadline else {
        close(fd)
        throw DataFileError.lockTimeout(path: dataURL.path)
      }
      clock.pause(pause)
      pause = min(pause * 2, .milliseconds(50))
    }
    return FileLock(fd: fd)
  }

  /// Unlocks, then closes the descriptor. Unlocking first frees the lock at once even when
  /// a copy of the descriptor lives on (a child another thread forked holds one until it
  /// execs); closing alone would keep it locked until the last copy closes.
  func release() {
    guard fd >= 0 else { return }
    flock(fd, LOCK_UN)
    close(fd)
  }
}

/// `read(2)`; named apart so it does not clash with `DataFile.read`.
@inline(__always)
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}
