import Foundation
import RateCore

// The home list, favorites and help screens, and the data that feeds them.
extension HomeState {
  mutating func handleListKey(_ key: TerminalKey) -> [HomeEffect] {
    switch key {
    case .character("q"), .escape: return back()
    default: return []
    }
  }

  mutating func handleFavoritesKey(_ key: TerminalKey) -> [HomeEffect] {
    back()
  }

  mutating func handleHelpKey(_ key: TerminalKey) -> [HomeEffect] {
    back()
  }

  mutating func apply(board: HomeBoard) -> [HomeEffect] {
    self.board = board
    return []
  }

  mutating func apply(lists: HomeLists) -> [HomeEffect] {
    self.lists = lists
    return []
  }

  mutating func apply(tick date: Date) -> [HomeEffect] {
    now = date
    return []
  }
}
