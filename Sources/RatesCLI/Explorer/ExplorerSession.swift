import RateCore

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

/// The explorer's event loop, with its events, screen and window size
/// injected: the live terminal in `rates`, scripted events in tests.
///
/// It enters the alternate screen, draws a frame, then for each event
/// applies the keys and draws again when the cursor moved, the window was
/// resized or the session came back from a suspension (reading the size
/// afresh for every frame). It always leaves the alternate screen and shows
/// the cursor before returning, whatever ended it.
struct ExplorerSession: Sendable {
  var state: ExplorerState
  var style: Style
  var ascii: Bool
  /// The window size in columns and rows, read before every frame.
  var size: @Sendable () -> (columns: Int, rows: Int)
  /// Where frames go; each frame is one write.
  var screen: TerminalScreen

  /// Runs until a key, a signal or the end of `events` ends the session.
  mutating func run(events: AsyncStream<TerminalEvent>) async -> ExplorerOutcome {
    screen.enter()
    defer { screen.leave() }
    draw()
    for await event in events {
      switch event {
      case .keys(let keys):
        if let outcome = apply(keys) { return outcome }
      case .redraw: draw()
      case .signal(let number): return .signal(number)
      case .inputClosed: return .inputClosed
      }
    }
    return .inputClosed
  }

  /// Applies the keys of one read, drawing once if the cursor moved; the
  /// outcome when one of them ends the session.
  private mutating func apply(_ keys: [TerminalKey]) -> ExplorerOutcome? {
    var moved = false
    for key in keys.compactMap(ExplorerKey.init) {
      switch state.apply(key) {
      case .moved: moved = true
      case .unchanged: break
      case .quit: return .quit
      case .interrupt: return .interrupted
      }
    }
    if moved { draw() }
    return nil
  }

  func draw() {
    let (columns, rows) = size()
    let width = max(TerminalCapabilities.minimumWidth, columns)
    let height = max(1, rows)
    let lines = ExplorerRenderer.render(
      state, width: width, height: height, style: style, ascii: ascii)
    screen.draw(lines, width: width)
  }
}
