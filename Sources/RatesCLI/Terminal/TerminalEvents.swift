import Dispatch
import Foundation
import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stop flag shared between threads.
final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var stopped = false

  var isStopped: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopped
  }

  func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
  }
}

/// Reads a terminal on a background thread and reports what it read.
///
/// The thread `poll`s with a short timeout, so it notices ``stop()`` within
/// a quarter second and never blocks in `read` (it only reads when `poll`
/// says bytes are there). After some input, 50 ms of silence is reported
/// once through `onPause`, which is how a lone `Esc` is told from the start
/// of an escape sequence.
final class TerminalInputReader: Sendable {
  /// How long the input must be quiet after some bytes to count as a pause.
  static let pauseMilliseconds: Int32 = 50
  /// How often the thread checks whether it was stopped.
  static let idleMilliseconds: Int32 = 250

  let fileDescriptor: Int32
  private let flag = StopFlag()

  init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  /// Starts the thread; `onBytes`, `onPause` and `onEnd` are called on it.
  func start(
    onBytes: @escaping @Sendable ([UInt8]) -> Void, onPause: @escaping @Sendable () -> Void,
    onEnd: @escaping @Sendable () -> Void
  ) {
    let fd = fileDescriptor
    let flag = flag
    Thread.detachNewThread {
      var awaitingPause = false
      var buffer = [UInt8](repeating: 0, count: 256)
      while !flag.isStopped {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(
          &descriptor, 1, awaitingPause ? Self.pauseMilliseconds : Self.idleMilliseconds)
        if flag.isStopped { return }
        if ready < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          onEnd()
          return
        }
        if ready == 0 {
          if awaitingPause {
            awaitingPause = false
            onPause()
          }
          continue
        }
        let count = buffer.withUnsafeMutableBytes { raw -> Int in
          guard let base = raw.baseAddress else { return -1 }
          return read(fd, base, raw.count)
        }
        if count > 0 {
          onBytes(Array(buffer[0..<count]))
          awaitingPause = true
        } else if count < 0 && (errno == EINTR || errno == EAGAIN) {
          continue
        } else {
          onEnd()
          return
        }
      }
    }
  }

  /// Asks the thread to finish; it does within ``idleMilliseconds``.
  func stop() { flag.stop() }
}

/// Turns signals into calls on a serial queue with `DispatchSource`, and
/// puts each signal's previous disposition back on ``cancel()``.
///
/// Each watched signal is set to `SIG_IGN` first, so its default action
/// (terminating the process) cannot run before the terminal is restored;
/// the dispatch source still sees it.
final class SignalWatcher: @unchecked Sendable {
  private let lock = NSLock()
  private var sources: [any DispatchSourceSignal] = []
  private var previous: [(Int32, (@convention(c) (Int32) -> Void)?)] = []
  private let queue = DispatchQueue(label: "rates.signals")

  /// Watches `signals`, calling `handler` with the signal number for each arrival.
  init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    for number in signals {
      previous.append((number, signal(number, SIG_IGN)))
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { handler(number) }
      source.resume()
      sources.append(source)
    }
  }

  /// Stops watching and restores the previous dispositions; later calls do nothing.
  func cancel() {
    lock.lock()
    defer { lock.unlock() }
    for source in sources { source.cancel() }
    sources.removeAll()
    for (number, handler) in previous { signal(number, handler) }
    previous.removeAll()
  }

  deinit { cancel() }

  /// Terminates the process with `number` as a user would see it (the shell
  /// reports 128 + `number`): its default action, raised again. Call this
  /// only after the terminal is restored.
  ///
  /// Dispatch's worker threads block signals, so the signal is unblocked in
  /// the calling thread first; otherwise `raise` would leave it pending.
  static func resend(_ number: Int32) {
    signal(number, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, number)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(number)
  }
}
