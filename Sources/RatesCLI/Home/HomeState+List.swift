import RateCore

// The home list, favorites and help screens, and the data that feeds them.
extension HomeState {
  /// The sections of the home list, in order: yours first, the market below.
  static let listKinds: [HomeRow.Kind] = [.coin, .pair, .top]

  /// The rows of the home list: your coins, then your pairs, then the top coins (never the
  /// favorites-only rows), each section in ``sort``'s order. A top coin that is also one of
  /// your coins is listed once, among yours.
  var listRows: [HomeRow] {
    guard let rows = board?.rows else { return [] }
    let own = Set(rows.lazy.filter { $0.kind == .coin }.map(\.id))
    return Self.listKinds.flatMap { kind in
      sort.sorted(rows.filter { $0.kind == kind && !(kind == .top && own.contains($0.id)) })
    }
  }

  /// The row under the cursor of the home list.
  var selectedRow: HomeRow? {
    let rows = listRows
    return rows.indices.contains(cursor) ? rows[cursor] : nil
  }

  /// The starred coins, each with the prices of a board row of the same id (of any kind),
  /// or without a price when the board has none.
  var favoriteRows: [HomeRow] {
    var byID: [String: HomeRow] = [:]
    for row in board?.rows ?? [] where byID[row.id] == nil { byID[row.id] = row }
    return lists.favorites.map { coin in
      byID[coin.id]
        ?? HomeRow(
          kind: .favorite, id: coin.id, symbol: coin.symbol, name: coin.name ?? coin.symbol,
          currency: currency, rate: nil, changePercent: nil, changePeriod: .hours24, week: [])
    }
  }

  mutating func handleListKey(_ key: TerminalKey) -> [HomeEffect] {
    pendingSelection = nil
    if let effects = portfolioKey(key) { return effects }
    if key == .pageDown || key == .pageUp {
      turnPage(forward: key == .pageDown)
      return []
    }
    if let effects = sortKey(key) { return effects }
    if case .mouse(_, let line) = key {
      // A click (or a drag) on a row selects it; elsewhere it does nothing.
      guard let index = HomeRenderer.listRow(atLine: line - 1, self, size: window) else { return [] }
      portfolioSelected = false
      moveCursor(to: index)
      return []
    }
    if let target = Self.movement(key, cursor: cursor, count: listRows.count, page: pageSize) {
      moveCursor(to: target)
      return []
    }
    switch key {
    case .character("q"), .escape: return back()
    case .enter:
      guard let row = selectedRow else { return [] }
      return openDetail(row)
    case .character("c"): return cycleCurrency()
    case .character("r"): return refreshNow()
    case .character("/"): return openSearch()
    case .character("p"): return openPairPicker()
    case .character("d"), .delete: return removeSelected()
    case .character("u"): return undoRemoval()
    case .character("f"): return toggleStar(selectedRow)
    case .tab:
      favoritesCursor = 0
      screens.append(.favorites)
    case .character("?"): openHelp()
    default: break
    }
    return []
  }

  /// The Portfolio section's heading, above the first row: ↑/k on the first row selects it,
  /// Enter opens its value chart, ↓/j goes back to the first row; `d` and `f` do nothing
  /// there; any other key leaves it and acts on the list. Nil: not the section's key.
  mutating func portfolioKey(_ key: TerminalKey) -> [HomeEffect]? {
    guard let portfolio else {
      portfolioSelected = false
      return nil
    }
    guard portfolioSelected else {
      guard cursor == 0, key == .up || key == .character("k") else { return nil }
      portfolioSelected = true
      return []
    }
    switch key {
    case .enter: return openDetail(portfolio.row)
    case .up, .character("k"), .character("d"), .delete, .character("f"): return []
    case .down, .character("j"):
      portfolioSelected = false
      return []
    default:
      portfolioSelected = false
      return nil
    }
  }

  /// Favorites: move, Enter for the detail, `f` unstars, Tab/q/Esc back, `?` keys.
  mutating func handleFavoritesKey(_ key: TerminalKey) -> [HomeEffect] {
    let rows = favoriteRows
    if case .mouse(_, let line) = key {
      if let index = HomeRenderer.favoriteRow(atLine: line - 1, self, size: window) { favoritesCursor = index }
      return []
    }
    if let target = Self.movement(key, cursor: favoritesCursor, count: rows.count, page: pageSize) {
      favoritesCursor = target
      return []
    }
    let selected = rows.indices.contains(favoritesCursor) ? rows[favoritesCursor] : nil
    switch key {
    case .tab, .character("q"), .escape: return back()
    case .enter:
      guard let selected else { return [] }
      return openDetail(selected)
    case .character("f"):
      let effects = toggleStar(selected)
      favoritesCursor = max(0, min(favoritesCursor, lists.favorites.count - 1))
      return effects
    case .character("?"): openHelp()
    default: break
    }
    return []
  }

  /// Keys: ↓/↑ (j/k, PageDown/PageUp) scroll when the keys do not fit; any other key closes.
  mutating func handleHelpKey(_ key: TerminalKey) -> [HomeEffect] {
    switch key {
    case .down, .character("j"): helpScroll = min(helpScroll + 1, HomeRenderer.helpLineCount)
    case .pageDown: helpScroll = min(helpScroll + pageSize, HomeRenderer.helpLineCount)
    case .up, .character("k"): helpScroll = max(0, helpScroll - 1)
    case .pageUp: helpScroll = max(0, helpScroll - pageSize)
    default: return back()
    }
    return []
  }

  /// Where a movement key takes a cursor among `count` rows; nil for any other key.
  static func movement(_ key: TerminalKey, cursor: Int, count: Int, page: Int) -> Int? {
    let last = max(0, count - 1)
    let target: Int
    switch key {
    case .up, .character("k"): target = cursor - 1
    case .down, .character("j"): target = cursor + 1
    case .pageUp: target = cursor - max(1, page)
    case .pageDown: target = cursor + max(1, page)
    case .home, .character("g"): target = 0
    case .end, .character("G"): target = last
    default: return nil
    }
    return min(max(0, target), last)
  }

  /// Puts the cursor on row `index` (clamped) and scrolls the least that keeps it visible.
  mutating func moveCursor(to index: Int) {
    let count = listRows.count
    cursor = min(max(0, index), max(0, count - 1))
    let page = max(1, pageSize)
    if cursor < scroll { scroll = cursor }
    if cursor >= scroll + page { scroll = cursor - page + 1 }
    scroll = min(max(0, scroll), max(0, count - page))
  }

  mutating func openHelp() {
    helpScroll = 0
    screens.append(.help)
  }

  /// A list load, noted as in flight.
  mutating func loadBoard(refresh: Bool) -> [HomeEffect] {
    loadInFlight = true
    lastLoadRequest = now
    return [.loadBoard(currency: currency, refresh: refresh)]
  }

  /// `c`: the next configured currency; the cursor stays on its row when the new board comes.
  mutating func cycleCurrency() -> [HomeEffect] {
    guard currencies.count > 1 else {
      notice = "Only \(currency) is configured"
      return []
    }
    currencyIndex = (currencyIndex + 1) % currencies.count
    return loadBoard(refresh: false)
  }

  /// The least time between a load and a refresh asked with `r`: CoinGecko updates market
  /// rows every 45 s, and keyless clients may get as few as 5 calls a minute, so holding `r`
  /// down must not spend them (at most 4 loads a minute).
  static let manualRefreshSpacing: TimeInterval = 15

  /// `r`: asks the provider now, unless it asked us to wait (the status line counts down),
  /// a load is already on its way, or fresh data came less than ``manualRefreshSpacing``
  /// ago (``refreshCooldown``; the line says how old it is and when `r` works again).
  mutating func refreshNow() -> [HomeEffect] {
    if case .rateLimited(let until) = status, until > now { return [] }
    if loadInFlight {
      notice = "Already loading"
      return []
    }
    if let cooldown = refreshCooldown {
      notice = "Loaded \(cooldown.age) s ago: r works again in \(cooldown.wait) s"
      return []
    }
    return loadBoard(refresh: true)
  }
}

// Data and time.
extension HomeState {
  /// Takes a board in the shown currency (a late answer for another currency is dropped),
  /// marks the rows whose rate changed as ``changed`` for one frame, and keeps the cursor
  /// on the row it was on (by id), clamped when that row is gone. A load that started
  /// before the last removal does not bring the removed row back.
  mutating func apply(board: HomeBoard) -> [HomeEffect] {
    guard board.currency == currency else { return [] }
    let board = withoutUndoableRows(board)
    let selectedID = pendingSelection ?? selectedRow?.id
    if let old = self.board, old.currency == board.currency {
      var oldRates: [String: Double?] = [:]
      for row in old.rows where oldRates[row.id] == nil { oldRates[row.id] = row.rate }
      changed = Set(
        board.rows.filter { row in oldRates[row.id].map { $0 != row.rate } ?? false }.map(\.id))
    }
    self.board = board
    detail?.follow(board: board)
    let rows = listRows
    // A pair just added from the pickers takes the cursor once its row arrives.
    if let added = picker.addedPair, let index = rows.firstIndex(where: { $0.kind == .pair && $0.id == added }) {
      picker.addedPair = nil
      moveCursor(to: index)
      return []
    }
    let index = selectedID.flatMap { id in rows.firstIndex { $0.id == id } }
    pendingSelection = index == nil ? selectedID : nil
    moveCursor(to: index ?? cursor)
    return []
  }

  /// Takes the stored lists; when they hold a coin or pair the board has no row for (one
  /// just added), loads the list again so that it shows.
  mutating func apply(lists: HomeLists) -> [HomeEffect] {
    self.lists = lists
    favoritesCursor = max(0, min(favoritesCursor, lists.favorites.count - 1))
    normalizePickerCursor()
    guard let rows = board?.rows else { return [] }
    let coins = Set(rows.filter { $0.kind == .coin }.map(\.id))
    let pairs = rows.filter { $0.kind == .pair }.map(\.id)
    let missing =
      lists.coins.contains { !coins.contains($0.id) }
      || lists.pairs.contains { pair in !pairs.contains { pair.isNamed($0) } }
    return missing ? loadBoard(refresh: false) : []
  }

  /// The clock moved: refresh the list when ``refreshDue(at:)``.
  mutating func apply(tick date: Date) -> [HomeEffect] {
    now = date
    return refreshDue(at: date) ? loadBoard(refresh: true) : []
  }

  /// The refresh policy (one home for it): the list is loaded again when
  /// - no load is in flight (``loadInFlight``),
  /// - the provider's rate-limit pause (``HomeStatus/rateLimited(until:)``) is over, and
  /// - ``refreshInterval`` seconds have passed since both the shown data was fetched and
  ///   the last load was asked for, so old cached answers (offline) are retried once an
  ///   interval, never on every tick.
  ///
  /// With the default 60 s and at most 3 requests per list load, that stays under
  /// CoinGecko's keyless floor of about 5 calls a minute.
  func refreshDue(at date: Date) -> Bool {
    guard !loadInFlight else { return false }
    if case .rateLimited(let until) = status, until > date { return false }
    let last = [board?.fetchedAt, lastLoadRequest].compactMap { $0 }.max()
    guard let last else { return false }
    return date.timeIntervalSince(last) >= refreshInterval
  }
}

// Changes to the user's lists, optimistic: the frame is right at once, and the driver's
// `.lists` answer replaces them.
extension HomeState {
  /// `f`: stars or unstars the coin `row` (pairs cannot be starred).
  /// `f`, on the list, the favorites and the detail: stars or unstars `row`'s coin at once
  /// (the driver stores it) and says so in ``notice``; a pair has no star.
  mutating func toggleStar(_ row: HomeRow?) -> [HomeEffect] {
    guard let row else { return [] }
    guard row.kind != .pair, row.kind != .portfolio else {
      notice = "Only coins can be starred: " + (row.kind == .pair ? "a pair has no star" : "the portfolio has no star")
      return []
    }
    let starred = !lists.favorites.contains { $0.id == row.id }
    if starred {
      lists.favorites.append(FavoriteCoin(id: row.id, symbol: row.symbol, name: row.name, addedAt: now))
    } else {
      lists.favorites.removeAll { $0.id == row.id }
    }
    let change = HomeEffect.setFavorite(id: row.id, symbol: row.symbol, name: row.name, starred: starred)
    let name = Self.shortName(row.name)
    announce(
      change, doing: (starred ? "Starring " : "Unstarring ") + name, done: (starred ? "Starred " : "Unstarred ") + name)
    return [change]
  }

  /// Whether the user's lists (as the screen knows them) hold the coin or pair of `row`.
  func isListed(_ row: HomeRow) -> Bool {
    switch row.kind {
    case .coin: return lists.coins.contains { $0.id == row.id }
    case .pair: return lists.pairs.contains { $0.isNamed(row.id) }
    case .top, .favorite, .portfolio: return true
    }
  }

  /// A pair from its name (`GBP-USD`), for a row the stored lists do not know yet.
  static func pair(named name: String, at date: Date) -> ConfiguredPair {
    ConfiguredPair(name: name, addedAt: date) ?? ConfiguredPair(base: name, quote: "", addedAt: date)
  }
}
