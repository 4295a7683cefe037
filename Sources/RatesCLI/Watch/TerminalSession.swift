import Dispatch
import Foundation
import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal board: alternate screen and hidden cursor while it runs,
/// each frame drawn in place with one write (cursor home, each line followed
/// by erase-to-end-of-line, then erase below), and everything restored when
/// it ends. Redraws on demand (SIGWINCH) from the last state.
actor WatchScreen {
  /// Enter the alternate screen, hide the cursor.
  static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l"
  /// Show the cursor, leave the alternate screen.
  static let leaveSequence = "\u{1B}[?25h\u{1B}[?1049l"

  private let write: @Sendable (String) -> Void
  private let width: @Sendable () -> Int
  private let style: Style
  private let ascii: Bool
  private var state: WatchState?
  private var active = false

  /// - Parameters:
  ///   - write: writes to the terminal, unbuffered.
  ///   - width: the terminal's width now (read for every frame).
  init(
    write: @escaping @Sendable (String) -> Void, width: @escaping @Sendable () -> Int,
    style: Style, ascii: Bool
  ) {
    self.write = write
    self.width = width
    self.style = style
    self.ascii = ascii
  }

  /// One frame of `lines`: home, each line then `ESC[K`, then `ESC[J`.
  static func frame(_ lines: [String]) -> String {
    "\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J"
  }

  func enter() {
    guard !active else { return }
    active = true
    write(Self.enterSequence)
  }

  /// Draws `state`, ringing the bell when an alert crossed.
  func draw(_ state: WatchState, bell: Bool = false) {
    self.state = state
    guard active else { return }
    let lines = WatchRenderer.render(state, width: width(), style: style, ascii: ascii)
    write(Self.frame(lines) + (bell ? "\u{07}" : ""))
  }

  /// Draws the last state again, at the current width.
  func redraw() {
    guard let state else { return }
    draw(state)
  }

  /// Restores the cursor and the main screen; safe to call twice.
  func leave() {
    guard active else { return }
    active = false
    write(Self.leaveSequence)
  }
}

/// Catches signals as events instead of letting them kill the process:
/// each is set to `SIG_IGN` and watched with a `DispatchSource`; `cancel()`
/// restores the default actions.
final class WatchSignals: @unchecked Sendable {
  // Only touched in init and cancel(), from the task that owns the watch.
  private let sources: [any DispatchSourceSignal]
  private let signals: [Int32]

  init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
    self.signals = signals
    var sources: [any DispatchSourceSignal] = []
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { handler(number) }
      source.resume()
      sources.append(source)
    }
    self.sources = sources
  }

  func cancel() {
    for source in sources { source.cancel() }
    for number in signals { signal(number, SIG_DFL) }
  }
}

/// Remembers the first ending signal received and cancels the watch task,
/// also when the signal came before the task was attached.
actor SignalFlag {
  private(set) var received: Int32?
  private var task: Task<WatchEngine.Outcome, any Error>?

  func attach(_ task: Task<WatchEngine.Outcome, any Error>) {
    self.task = task
    if received != nil { task.cancel() }
  }

  func set(_ number: Int32) {
    if received == nil { received = number }
    task?.cancel()
  }
}
