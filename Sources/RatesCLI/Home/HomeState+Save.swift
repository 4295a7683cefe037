import RateCore

// The save path's answer: a change the screen showed at once (remove, undo, star, add) that
// the driver could not store is taken back on screen, and the status line says so and why
// (the command line's message, naming the file). The driver's `.lists` answer that follows
// carries the stored lists, which replace the screen's.
extension HomeState {
  /// Takes back `change`, which could not be stored, and says why in ``notice``.
  mutating func apply(notSaved change: HomeEffect, reason: String) -> [HomeEffect] {
    let what: String
    switch change {
    case .removeCoin(let id):
      what = "remove " + takeBackRemoval { if case .coin(let coin, _) = $0 { coin.id == id } else { false } }
    case .removePair(let name):
      what = "remove " + takeBackRemoval { if case .pair(let pair, _) = $0 { pair.isNamed(name) } else { false } }
    case .restoreCoin(let coin, let index):
      what = "restore " + takeBackRestore(.coin(coin, at: index), kind: .coin, id: coin.id)
    case .restorePair(let pair, let index):
      what = "restore " + takeBackRestore(.pair(pair, at: index), kind: .pair, id: pair.name)
    case .setFavorite(let id, let symbol, let name, let starred):
      if starred {
        lists.favorites.removeAll { $0.id == id }
      } else if !lists.favorites.contains(where: { $0.id == id }) {
        lists.favorites.append(FavoriteCoin(id: id, symbol: symbol, name: name, addedAt: now))
      }
      what = (starred ? "star " : "unstar ") + Self.shortName(name)
    case .addCoin(let hit):
      lists.coins.removeAll { $0.id == hit.id }
      what = "add " + Self.shortName(hit.name)
    case .addPair(let base, let quote):
      lists.pairs.removeAll { $0.base == base && $0.quote == quote }
      picker.addedPair = nil
      what = "add " + TerminalText.sanitize("\(base)/\(quote)")
    case .loadBoard, .loadDetail, .search, .exit, .saveSort:
      // A sort that could not be remembered says so itself (it holds for the session).
      return []
    }
    if let index = unsaved.firstIndex(where: { $0.change == change }) { unsaved.remove(at: index) }
    notice = "Not saved: could not \(what): \(TerminalText.sanitize(reason))"
    if detail != nil, screen == .detail {
      detail?.message = notice
      notice = nil
    } else if screen == .search {
      search.message = notice
      notice = nil
    }
    return []
  }

  /// Shows `change` as under way on the status line (`Removing TRON…`) until the driver
  /// says it was stored (`done`) or not (``apply(notSaved:reason:)``).
  mutating func announce(_ change: HomeEffect, doing: String, done: String) {
    let line = doing + "\u{2026}"
    unsaved.append(HomeUnsavedChange(change: change, line: line, done: done))
    notice = line
  }

  /// `change` is stored: the status line, if it still says the change is under way, says
  /// it is done.
  mutating func apply(saved change: HomeEffect) -> [HomeEffect] {
    guard let index = unsaved.firstIndex(where: { $0.change == change }) else { return [] }
    let entry = unsaved.remove(at: index)
    if notice == entry.line { notice = entry.done }
    if detail?.message == entry.line { detail?.message = entry.done }
    if search.message == entry.line { search.message = entry.done }
    return []
  }

  /// A removal that could not be stored: its entry leaves the undo stack, and its coin or
  /// pair and row go back where they were. Returns the row's name.
  private mutating func takeBackRemoval(_ matches: (HomeUndo) -> Bool) -> String {
    guard let index = undoStack.lastIndex(where: { matches($0.removal) }) else { return "it" }
    let entry = undoStack.remove(at: index)
    switch entry.removal {
    case .coin(let coin, let at):
      if !lists.coins.contains(where: { $0.id == coin.id }) {
        lists.coins.insert(coin, at: min(max(0, at), lists.coins.count))
      }
    case .pair(let pair, let at):
      if !lists.pairs.contains(where: { $0.matches(pair.base, pair.quote) }) {
        lists.pairs.insert(pair, at: min(max(0, at), lists.pairs.count))
      }
    }
    putBack(entry)
    return entry.name
  }

  /// An undo that could not be stored: the coin or pair leaves the screen again and its
  /// removal goes back on top of the undo stack. Returns the row's name.
  private mutating func takeBackRestore(_ removal: HomeUndo, kind: HomeRow.Kind, id: String) -> String {
    switch removal {
    case .coin(let coin, _): lists.coins.removeAll { $0.id == coin.id }
    case .pair(let pair, _): lists.pairs.removeAll { $0.matches(pair.base, pair.quote) }
    }
    let row = takeOffBoard(kind: kind, id: kind == .pair ? boardPairID(id) : id)
    let name = Self.shortName(row?.row.name ?? id)
    undoStack.append(HomeUndoEntry(removal: removal, row: row, currency: currency, name: name))
    return name
  }

  /// The id the board gives the pair named `name` (either order), else `name`.
  private func boardPairID(_ name: String) -> String {
    board?.rows.first { $0.kind == .pair && (ConfiguredPair(name: $0.id, addedAt: now)?.isNamed(name) ?? false) }?.id
      ?? name
  }
}

/// A change shown on screen before the driver stored it, and what the status line says
/// while it is under way and once it is stored.
struct HomeUnsavedChange: Equatable, Sendable {
  /// The effect that stores it.
  var change: HomeEffect
  /// `Removing TRON…`.
  var line: String
  /// `Removed TRON`.
  var done: String
}
