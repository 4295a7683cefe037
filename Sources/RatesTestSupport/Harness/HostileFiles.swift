import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files that are not what they should be (FIFOs, links), and a way to call code that might
/// hang on them without hanging the test run.
public enum HostileFiles {
  /// Creates a FIFO (named pipe) at `url`, creating its directory.
  public static func makeFIFO(at url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    guard mkfifo(url.path, 0o600) == 0 else {
      throw CocoaError(
        .fileWriteUnknown,
        userInfo: [
          NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: String(cString: strerror(errno)),
        ])
    }
  }

  /// A process id that cannot be running: above the largest `pid_max` Linux allows (2^22).
  public static let deadPID: Int32 = 2_000_000_000

  /// Runs `body` on a thread and waits at most `seconds` for it.
  ///
  /// Returns nil when it did not finish in time. Then each FIFO in `unblocking` is opened for
  /// writing and closed, which releases a reader stuck opening it, so no thread stays blocked
  /// after the test.
  public static func finishes<T: Sendable>(
    within seconds: Double, unblocking fifos: [URL] = [], _ body: @escaping @Sendable () throws -> T
  ) -> Result<T, any Error>? {
    let result = Recorder<Result<T, any Error>>()
    let done = DispatchSemaphore(value: 0)
    Thread {
      result.append(Result { try body() })
      done.signal()
    }.start()
    if done.wait(timeout: .now() + seconds) == .success { return result.all.first }
    for fifo in fifos {
      let fd = open(fifo.path, O_WRONLY | O_NONBLOCK)
      if fd >= 0 { close(fd) }
    }
    _ = done.wait(timeout: .now() + 5)
    return nil
  }
}
