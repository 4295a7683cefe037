import RateCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads keys from a terminal on a thread of its own and reports them decoded.
///
/// The thread blocks in `poll` on the terminal and on a pipe of its own that
/// ``stop()`` writes to, so it ends at once when stopped and never reads a
/// byte meant for the shell afterwards. It only reads when `poll` says bytes
/// are there. While an escape sequence is unfinished, 50 ms of silence ends
/// it (``KeyDecoder/flush()``): that is how a lone `Esc` is told from the
/// start of an arrow key.
final class KeyReader: Sendable {
  /// How long the input must be quiet after an `Esc` for it to be a lone Esc.
  static let pauseMilliseconds: Int32 = 50

  /// The terminal, usually `STDIN_FILENO`.
  let fileDescriptor: Int32
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let stopped = Atomic(false)

  /// A reader of `fileDescriptor`, not started; `nil` when no pipe could be made.
  init?(fileDescriptor: Int32) {
    guard let wake = closeOnExecPipe() else { return nil }
    self.fileDescriptor = fileDescriptor
    wakeRead = wake.read
    wakeWrite = wake.write
  }

  deinit {
    close(wakeRead)
    close(wakeWrite)
  }

  /// Starts the thread. `onKeys` receives the keys of each read (never empty),
  /// `onEnd` is called once if the input ends (end of file or a read error);
  /// both are called on the thread, and neither after ``stop()``.
  func start(
    onKeys: @escaping @Sendable ([TerminalKey]) -> Void, onEnd: @escaping @Sendable () -> Void
  ) {
    // The thread holds the reader, so the pipe stays open until the thread ends.
    detachThread { [self] in
      readUntilStopped(onKeys: onKeys, onEnd: onEnd)
    }
  }

  /// Ends the thread; no callback runs after this returns, except one already running.
  func stop() {
    guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
    var byte: UInt8 = 0
    _ = write(wakeWrite, &byte, 1)
  }

  private var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

  private func readUntilStopped(
    onKeys: @Sendable ([TerminalKey]) -> Void, onEnd: @Sendable () -> Void
  ) {
    var decoder = KeyDecoder()
    var buffer = [UInt8](repeating: 0, count: 256)
    func report(_ keys: [TerminalKey]) {
      if !keys.isEmpty && !isStopped { onKeys(keys) }
    }
    while !isStopped {
      switch waitAndRead(into: &buffer, pausing: decoder.hasPending) {
      case .bytes(let count): report(decoder.feed(buffer[0..<count]))
      case .pause: report(decoder.flush())
      case .nothing: continue
      case .ended:
        report(decoder.flush())
        if !isStopped { onEnd() }
        return
      }
    }
  }

  private enum ReadResult {
    case bytes(Int)
    case pause, nothing, ended
  }

  /// Waits for input (at most the pause when `pausing`) or ``stop()``, then reads once.
  private func waitAndRead(into buffer: inout [UInt8], pausing: Bool) -> ReadResult {
    var fds = [
      pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
    ]
    let ready = poll(&fds, 2, pausing ? Self.pauseMilliseconds : -1)
    if ready == 0 { return .pause }
    if ready < 0 { return errno == EINTR || errno == EAGAIN ? .nothing : .ended }
    // Only the wake pipe: the loop sees the stop flag.
    guard fds[0].revents != 0 else { return .nothing }
    let count = buffer.withUnsafeMutableBytes { raw -> Int in
      guard let base = raw.baseAddress else { return -1 }
      return read(fileDescriptor, base, raw.count)
    }
    if count > 0 { return .bytes(count) }
    if count < 0 && (errno == EINTR || errno == EAGAIN) { return .nothing }
    return .ended
  }
}
