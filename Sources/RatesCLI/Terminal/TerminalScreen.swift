import RateCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The full-screen output of `watch`, `history --interactive` and the home screen: the
/// alternate screen with the cursor hidden while it is on, each frame drawn
/// in place with one write, and the main screen and cursor given back when
/// it is left or suspended. The home screen also has the terminal report the mouse
/// while it is on (off again before the screen is left).
///
/// Writes happen under a lock, so a frame drawn from one task can never land
/// after ``leave()`` or ``suspend()`` ran on another: while the screen is off
/// or suspended, ``draw(_:width:bell:)`` writes nothing.
final class TerminalScreen: Sendable {
  /// Enter the alternate screen, hide the cursor.
  static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l"
  /// Show the cursor, leave the alternate screen: the terminal is as it was.
  static let leaveSequence = "\u{1B}[?25h\u{1B}[?1049l"
  /// The terminal bell, rung after a frame.
  static let bell = "\u{07}"
  /// Report mouse presses and drags, in SGR form (`ESC [ < b ; x ; y M`).
  static let mouseOnSequence = "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h"
  /// Stop reporting the mouse.
  static let mouseOffSequence = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"

  private enum Mode { case off, on, suspended }

  private let write: @Sendable (String) -> Void
  private let mode = Mutex(Mode.off)
  /// Whether the terminal reports the mouse while the screen is on.
  let reportsMouse: Bool

  /// A screen that writes with `write` (unbuffered, to the terminal); not entered yet.
  /// With `mouse`, the terminal reports mouse presses and drags while the screen is on.
  init(mouse: Bool = false, write: @escaping @Sendable (String) -> Void) {
    self.write = write
    reportsMouse = mouse
  }

  private var onSequence: String { Self.enterSequence + (reportsMouse ? Self.mouseOnSequence : "") }
  private var offSequence: String {
    (reportsMouse ? Self.mouseOffSequence : "") + Self.leaveSequence
  }

  /// Whether the alternate screen is on (entered, and neither left nor suspended).
  var isOn: Bool { mode.withLock { $0 == .on } }

  /// Cursor home, then erase the whole screen: what a frame drawn whole starts with.
  static let clearSequence = "\u{1B}[H\u{1B}[2J"

  /// One frame as one string: cursor home, each line followed by erase-to-end-of-line
  /// (left out when the line fills the width, where some terminals would erase its last
  /// cell), then erase below. No newline after the last line, so a full screen never scrolls.
  /// With `clear`, the whole screen is erased first: after a resize or a resumption, when
  /// the terminal may have reflowed or kept cells that no line of the frame covers.
  static func frame(_ lines: [String], width: Int, clear: Bool = false) -> String {
    let erased = lines.map { TerminalText.displayWidth($0) < width ? $0 + "\u{1B}[K" : $0 }
    return (clear ? clearSequence : "") + "\u{1B}[H" + erased.joined(separator: "\r\n") + "\u{1B}[J"
  }

  /// Enters the alternate screen and hides the cursor; does nothing if already on.
  func enter() {
    mode.withLock { mode in
      guard mode != .on else { return }
      mode = .on
      write(onSequence)
    }
  }

  /// Shows the cursor and leaves the alternate screen; safe to call twice.
  func leave() {
    mode.withLock { mode in
      if mode == .on { write(offSequence) }
      mode = .off
    }
  }

  /// Leaves the alternate screen before the process stops; ``resume()`` comes back.
  func suspend() {
    mode.withLock { mode in
      guard mode == .on else { return }
      mode = .suspended
      write(offSequence)
    }
  }

  /// Enters the alternate screen again after a suspension (or, when on, once more:
  /// a shell may have drawn on it while the process was stopped). The caller redraws.
  func resume() {
    mode.withLock { mode in
      guard mode != .off else { return }
      mode = .on
      write(onSequence)
    }
  }

  /// Draws `lines` as one frame fitted to `width` (on a cleared screen with `clear`), ringing
  /// the bell after it when asked; nothing while the screen is not on.
  func draw(_ lines: [String], width: Int, bell: Bool = false, clear: Bool = false) {
    let text = Self.frame(lines, width: width, clear: clear) + (bell ? Self.bell : "")
    mode.withLock { mode in
      if mode == .on { write(text) }
    }
  }

  /// The window size of the terminal on `fileDescriptor` from `TIOCGWINSZ`;
  /// `nil` when it is not a terminal or reports zero.
  static func windowSize(of fileDescriptor: Int32) -> (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0
    else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }
}
