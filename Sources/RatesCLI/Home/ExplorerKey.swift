/// A key the history explorer acts on.
enum ExplorerKey: Equatable, Sendable {
  /// `←`, `h`: one day back.
  case left
  /// `→`, `l`: one day forward.
  case right
  /// `Home`, `g`: the first day.
  case home
  /// `End`, `G`: the last day.
  case end
  /// `q` or `Q`: quit.
  case quit
  /// A lone `Esc`: quit.
  case escape
  /// `Ctrl-C` (byte `0x03`, as raw mode delivers it): quit as interrupted.
  case interrupt

  /// The explorer's meaning of a terminal key; `nil` for keys it ignores.
  ///
  /// Ctrl-Z is not here: the terminal layer suspends the session itself.
  init?(_ key: TerminalKey) {
    switch key {
    case .left, .character("h"): self = .left
    case .right, .character("l"): self = .right
    case .home, .character("g"): self = .home
    case .end, .character("G"): self = .end
    case .character("q"), .character("Q"): self = .quit
    case .escape: self = .escape
    case .interrupt: self = .interrupt
    default: return nil
    }
  }
}
