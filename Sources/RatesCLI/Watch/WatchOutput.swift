import RateCore
import Synchronization

/// The watch board on a terminal: every frame rendered from a state at the
/// width of the moment, and the last state kept to draw again on a resize
/// or after a suspension.
final class WatchBoard: Sendable {
  private let screen: TerminalScreen
  private let width: @Sendable () -> Int
  private let style: Style
  private let ascii: Bool
  private let last = Mutex<WatchState?>(nil)

  /// A board drawn on `screen`, `width` read for every frame.
  init(screen: TerminalScreen, width: @escaping @Sendable () -> Int, style: Style, ascii: Bool) {
    self.screen = screen
    self.width = width
    self.style = style
    self.ascii = ascii
  }

  /// Draws `state`, ringing the bell after the frame when asked.
  func draw(_ state: WatchState, bell: Bool = false) {
    // Under the lock, so a redraw never puts an older state over a newer one.
    last.withLock { last in
      last = state
      render(state, bell: bell)
    }
  }

  /// Draws the last state again, whole, at the current width (a resize, a resumption).
  func redraw() {
    last.withLock { last in
      if let state = last { render(state, bell: false, clear: true) }
    }
  }

  private func render(_ state: WatchState, bell: Bool, clear: Bool = false) {
    let width = width()
    let lines = WatchRenderer.render(state, width: width, style: style, ascii: ascii)
    screen.draw(lines, width: width, bell: bell, clear: clear)
  }
}

/// Where a watch's updates go: the board on a terminal; otherwise one plain
/// line, or one NDJSON object, per pair and update on standard output, with
/// a warning on standard error when a fetch failed.
struct WatchOutput: Sendable {
  /// How updates are shown.
  enum Form: Sendable {
    case board(WatchBoard)
    case lines(ascii: Bool)
    case json
  }

  var form: Form
  var writeOut: @Sendable (String) -> Void
  var writeErr: @Sendable (String) -> Void

  /// The board, when the output is one.
  var board: WatchBoard? {
    if case .board(let board) = form { board } else { nil }
  }

  /// Shows an event of the engine: every event on the board, updates only otherwise.
  func emit(_ event: WatchEngine.Event, _ state: WatchState) {
    if let board {
      board.draw(state, bell: event == .update && !state.newAlerts.isEmpty)
      return
    }
    guard event == .update else { return }
    let text = lines(state)
    if !text.isEmpty { writeOut(text) }
    if let missing = state.missing { writeErr(missing + "\n") }
    if let warning = Self.warning(state) { writeErr(warning) }
  }

  /// The update's lines (plain or NDJSON), each ending in a newline.
  func lines(_ state: WatchState) -> String {
    var text = ""
    for item in state.items {
      switch form {
      case .json:
        guard let line = WatchRenderer.JSONLine(item, now: state.now),
          let data = try? JSONCoders.encoder().encode(Versioned(line))
        else { continue }
        text += String(decoding: data, as: UTF8.self) + "\n"
      case .lines(let ascii):
        let date = state.lastUpdate ?? state.now
        if let line = WatchRenderer.plainLine(item, at: date, ascii: ascii) { text += line + "\n" }
      case .board:
        continue
      }
    }
    return text
  }

  /// The warning for a fetch that failed in this update, if one did.
  static func warning(_ state: WatchState) -> String? {
    guard let error = state.lastError, state.lastErrorAt == state.lastUpdate else { return nil }
    let retry =
      state.nextUpdate.map {
        "; retrying in \(max(0, Int($0.timeIntervalSince(state.now).rounded(.up)))) s"
      } ?? ""
    return "warning: \(error)\(retry) (\(kept(state)))\n"
  }

  /// What the board shows after a failed fetch, truthfully: the values it kept (marked
  /// stale), and the pairs that have none yet (an empty cache).
  static func kept(_ state: WatchState) -> String {
    let empty = state.items.filter { $0.rate == nil }.map { "\($0.base)/\($0.quote)" }
    let none = "no value yet for " + NameList.capped(empty.map(TerminalText.sanitize))
    if empty.isEmpty { return "last values kept, marked stale" }
    if empty.count == state.items.count { return none }
    return "last values kept, marked stale; " + none
  }
}
