import RateCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What became of the writes to stdout and stderr. A write that fails is
/// never ignored: a pipe closed by the reader (EPIPE) ends the command
/// quietly with success, as `cat` and `git` do; any other failure (a full
/// disk, a closed stream) makes the command fail with
/// ``ExitCode/outputFailed``, so a truncated export can never look complete.
final class OutputHealth: Sendable {
  /// Which stream failed and how.
  struct Failure: Equatable, Sendable {
    /// The stream's file descriptor (1 or 2).
    var fileDescriptor: Int32
    /// The `errno` of the failed write.
    var code: Int32
  }

  /// The first failure of each stream, by file descriptor.
  private let failures = Mutex<[Int32: Failure]>([:])
  /// The file descriptors of the output and error streams.
  let outputDescriptor: Int32
  let errorDescriptor: Int32

  /// Creates a healthy state for the given streams (the process's own by default).
  init(output: Int32 = STDOUT_FILENO, error: Int32 = STDERR_FILENO) {
    outputDescriptor = output
    errorDescriptor = error
  }

  /// Writes to the output stream.
  func writeOut(_ text: String) { write(text, to: outputDescriptor) }

  /// Writes to the error stream.
  func writeErr(_ text: String) { write(text, to: errorDescriptor) }

  /// The failure of `fileDescriptor`'s stream, if it failed.
  func failure(of fileDescriptor: Int32) -> Failure? {
    failures.withLock { $0[fileDescriptor] }
  }

  /// Whether standard output can no longer be written (a long-running
  /// command such as `watch` stops then).
  var outputClosed: Bool { failure(of: outputDescriptor) != nil }

  /// Writes all of `text` to `fileDescriptor`, retrying short writes and
  /// EINTR, and records the first failure; once a stream failed, nothing
  /// more is written to it.
  func write(_ text: String, to fileDescriptor: Int32) {
    guard failure(of: fileDescriptor) == nil else { return }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return systemWrite(fileDescriptor, base, buffer.count)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        record(Failure(fileDescriptor: fileDescriptor, code: written < 0 ? errno : EIO))
        return
      }
      bytes = bytes.dropFirst(written)
    }
  }

  func record(_ failure: Failure) {
    failures.withLock { failures in
      if failures[failure.fileDescriptor] == nil { failures[failure.fileDescriptor] = failure }
    }
  }

  /// The exit status once the command returned `status`: success when the
  /// reader closed stdout early, ``ExitCode/outputFailed`` (with a message on
  /// stderr, if stderr still works) when stdout could not be written.
  func settle(_ status: Int32) -> Int32 {
    guard let failure = failure(of: outputDescriptor) else { return status }
    if failure.code == EPIPE { return status == ExitCode.failure.rawValue ? status : 0 }
    let reason = String(cString: strerror(failure.code))
    writeErr("error: could not write the output: \(reason)\n")
    return ExitCode.outputFailed.rawValue
  }
}
