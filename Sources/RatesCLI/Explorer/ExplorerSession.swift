import RateCore
/// Something the explorer loop reacts to.
public enum ExplorerEvent: Equatable, Sendable {
  /// Bytes read from the terminal.
  case input([UInt8])
  /// The input went quiet for a moment after some bytes: a pending `Esc` is a lone Esc.
  case pause
  /// The window changed size (`SIGWINCH`).
  case resize
  /// A terminating signal (`SIGINT`, `SIGTERM`, `SIGHUP`) arrived.
  case signal(Int32)
  /// The input ended (end of file or a read error).
  case closed
}

/// How an explorer session ended.
public enum ExplorerOutcome: Equatable, Sendable {
  /// `q` or `Esc`.
  case quit
  /// Ctrl-C typed in raw mode.
  case interrupted
  /// The input ended.
  case inputClosed
  /// A terminating signal arrived.
  case signal(Int32)
}

/// The explorer's screen: the escape sequences it writes.
enum ExplorerScreen {
  /// Alternate screen on, cursor hidden.
  static let enter = "\u{1B}[?1049h\u{1B}[?25l"
  /// Cursor shown, alternate screen off: the terminal is as it was.
  static let leave = "\u{1B}[?25h\u{1B}[?1049l"

  /// One frame as one string: cursor home, each line followed by erase-to-end-of-line
  /// (left out when the line fills the width, where some terminals would erase its last
  /// cell), then erase below. No newline after the last line, so a full screen never scrolls.
  static func frame(_ lines: [String], width: Int) -> String {
    var text = "\u{1B}[H"
    for (index, line) in lines.enumerated() {
      if index > 0 { text += "\r\n" }
      text += line
      if TerminalText.displayWidth(line) < width { text += "\u{1B}[K" }
    }
    return text + "\u{1B}[J"
  }
}

/// The explorer's event loop, with its input, output and window size
/// injected: the live terminal in `rates`, scripted events in tests.
///
/// It enters the alternate screen and hides the cursor, draws a frame, then
/// for each event decodes keys, applies them and draws again when the cursor
/// moved or the window was resized (reading the size afresh for every
/// frame). It always leaves the alternate screen and shows the cursor before
/// returning, whatever ended it.
struct ExplorerSession: Sendable {
  var state: ExplorerState
  var style: Style
  var ascii: Bool
  /// The window size in columns and rows, read before every frame.
  var size: @Sendable () -> (columns: Int, rows: Int)
  /// Writes to the terminal; each frame is one call.
  var write: @Sendable (String) -> Void

  /// Runs until a key, a signal or the end of `events` ends the session.
  mutating func run(events: AsyncStream<ExplorerEvent>) async -> ExplorerOutcome {
    write(ExplorerScreen.enter)
    defer { write(ExplorerScreen.leave) }
    draw()
    var decoder = KeyDecoder()
    for await event in events {
      let keys: [ExplorerKey]
      switch event {
      case .input(let bytes): keys = decoder.feed(bytes)
      case .pause: keys = decoder.flush()
      case .resize:
        draw()
        continue
      case .signal(let number): return .signal(number)
      case .closed: return .inputClosed
      }
      var moved = false
      for key in keys {
        switch state.apply(key) {
        case .moved: moved = true
        case .unchanged: break
        case .quit: return .quit
        case .interrupt: return .interrupted
        }
      }
      if moved { draw() }
    }
    return .inputClosed
  }

  func draw() {
    let (columns, rows) = size()
    let width = max(TerminalCapabilities.minimumWidth, columns)
    let height = max(1, rows)
    let lines = ExplorerRenderer.render(
      state, width: width, height: height, style: style, ascii: ascii)
    write(ExplorerScreen.frame(lines, width: width))
  }
}
