import RateCore

/// One removal of the session that `u` can undo: what left the user's lists, the row it
/// took off the list (put back in its place), and the name the status line calls it.
struct HomeUndoEntry: Equatable, Sendable {
  /// The coin or pair removed, and where it was in its list.
  var removal: HomeUndo
  /// The row taken off the board, and where it was; `nil` when the board had none.
  var row: HomeRemovedRow?
  /// The currency of the board the row was taken from (its price is in it).
  var currency: String
  /// The row's name, sanitized and short enough for the status line.
  var name: String
}

// Removing and undoing: `d` removes at once and asks nothing; `u` undoes the removals of the
// session one by one, the latest first, each back in its place. The status line always
// says what `u` restores next.
extension HomeState {
  /// The removal `u` undoes next.
  var undo: HomeUndo? { undoStack.last?.removal }

  /// The status line's hint for `u`: `u restores Kaspa`; `nil` when there is nothing to undo.
  var undoHint: String? { undoStack.last.map { "u restores \($0.name)" } }

  /// `d`/Delete: removes the selected own coin or pair (top coins cannot be removed) from
  /// the screen at once; the driver stores it (and says when it could not: ``apply(notSaved:reason:)``).
  mutating func removeSelected() -> [HomeEffect] {
    guard let row = selectedRow else { return [] }
    let removal: HomeUndo
    let effect: HomeEffect
    switch row.kind {
    case .coin:
      let index = lists.coins.firstIndex { $0.id == row.id }
      let coin =
        index.map { lists.coins[$0] }
        ?? FavoriteCoin(
          id: row.id, symbol: row.symbol, name: row.name, addedAt: now)
      if let index { lists.coins.remove(at: index) }
      removal = .coin(coin, at: index ?? lists.coins.count)
      effect = .removeCoin(id: row.id)
    case .pair:
      let index = lists.pairs.firstIndex { $0.isNamed(row.id) }
      let pair = index.map { lists.pairs[$0] } ?? Self.pair(named: row.id, at: now)
      if let index { lists.pairs.remove(at: index) }
      removal = .pair(pair, at: index ?? 0)
      effect = .removePair(name: pair.name)
    case .top, .favorite:
      notice = "Top coins cannot be removed"
      return []
    case .portfolio:
      notice = "The portfolio comes from the ledger: rates ledger changes it"
      return []
    }
    var entry = HomeUndoEntry(removal: removal, row: nil, currency: currency, name: Self.shortName(row.name))
    entry.row = takeOffBoard(kind: row.kind, id: row.id)
    undoStack.append(entry)
    announce(effect, doing: "Removing \(entry.name)", done: "Removed \(entry.name)")
    return [effect]
  }

  /// `u`: puts the latest removal still undone back where it was.
  mutating func undoRemoval() -> [HomeEffect] {
    guard let entry = undoStack.popLast() else {
      notice = "Nothing to undo"
      return []
    }
    let effect: HomeEffect
    switch entry.removal {
    case .coin(let coin, let index):
      lists.coins.insert(coin, at: min(max(0, index), lists.coins.count))
      effect = .restoreCoin(coin, at: index)
    case .pair(let pair, let index):
      lists.pairs.insert(pair, at: min(max(0, index), lists.pairs.count))
      effect = .restorePair(pair, at: index)
    }
    putBack(entry)
    let left = undoStack.isEmpty ? ": nothing left to undo" : ""
    announce(effect, doing: "Restoring \(entry.name)", done: "Restored \(entry.name)\(left)")
    return [effect]
  }

  /// Puts `entry`'s row back on the board where it was and the cursor on it, when the board
  /// is in the currency it was taken from (otherwise the lists' answer loads it).
  mutating func putBack(_ entry: HomeUndoEntry) {
    guard let removed = entry.row, var rows = board?.rows, board?.currency == entry.currency else { return }
    guard !rows.contains(where: { $0.kind == removed.row.kind && $0.id == removed.row.id }) else { return }
    rows.insert(removed.row, at: min(removed.index, rows.count))
    board?.rows = rows
    moveCursor(to: listRows.firstIndex { $0.kind == removed.row.kind && $0.id == removed.row.id } ?? cursor)
  }

  /// Takes the row of `kind` and `id` off the board; the row and where it was.
  mutating func takeOffBoard(kind: HomeRow.Kind, id: String) -> HomeRemovedRow? {
    guard let at = board?.rows.firstIndex(where: { $0.kind == kind && $0.id == id }),
      let row = board?.rows.remove(at: at)
    else { return nil }
    moveCursor(to: cursor)
    return HomeRemovedRow(row: row, index: at)
  }

  /// `board` without the rows of removals the lists no longer hold (a load that started
  /// before a removal does not bring the row back).
  func withoutUndoableRows(_ board: HomeBoard) -> HomeBoard {
    var board = board
    for entry in undoStack {
      guard let removed = entry.row?.row, !isListed(removed) else { continue }
      board.rows.removeAll { $0.kind == removed.kind && $0.id == removed.id }
    }
    return board
  }

  /// A row's name for the status line: sanitized, at most 24 columns.
  static func shortName(_ name: String) -> String {
    TerminalText.truncate(TerminalText.sanitize(name), toWidth: 24, ascii: false)
  }
}
