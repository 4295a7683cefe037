import RateCore

/// The home screen's whole state. Pure: ``handle(_:)`` turns an event into a new state and
/// the effects the runtime must carry out; ``HomeRenderer`` turns a state into a frame.
struct HomeState: Equatable, Sendable {
  /// The screens, the visible one last.
  var screens: [HomeScreen] = [.home]
  /// The currencies the list cycles through (`c`), the shown one at ``currencyIndex``.
  var currencies: [String]
  /// The index in ``currencies`` of the shown currency.
  var currencyIndex = 0
  /// The rows on the list, `nil` until the first load.
  var board: HomeBoard?
  /// The user's stored lists.
  var lists: HomeLists
  /// The loader's state, shown on the status line.
  var status: HomeStatus = .idle
  /// The clock's last time.
  var now: Date
  /// The selected row of the home list.
  var cursor = 0
  /// The first row shown (the list scrolls to keep ``cursor`` visible).
  var scroll = 0
  /// Rows whose value changed with the last load, highlighted for one frame.
  var changed: Set<String> = []
  /// The session's removals, the one `u` undoes next last (see HomeState+Undo).
  var undoStack: [HomeUndoEntry] = []
  /// Whether the first load asks the provider even when the cache is fresh (`--refresh`).
  var refreshAtStart = false
  /// Changes shown on screen that the driver has not yet said were stored (HomeState+Save).
  var unsaved: [HomeUnsavedChange] = []
  /// The selected row of the favorites screen.
  var favoritesCursor = 0
  /// The detail screen's state.
  var detail: DetailState?
  /// The search screen's state.
  var search = SearchState()
  /// The pair pickers' state.
  var picker = PickerState()
  /// The currencies the pair pickers offer (every ECB currency).
  var pickerCurrencies: [String]
  /// Seconds between automatic refreshes of the list (see ``refreshDue``).
  var refreshInterval: TimeInterval = 60
  /// Whether a list load is in flight: set when a ``HomeEffect/loadBoard(currency:refresh:)``
  /// is emitted or the loader says ``HomeStatus/loading``, cleared by any other status.
  var loadInFlight = false
  /// When the last list load was asked for (spaces retries when the answers are old).
  var lastLoadRequest: Date?
  /// The rows one page of the list shows (PageUp/PageDown, scrolling): the runtime sets it
  /// from the window's height with ``HomeRenderer/pageSize(height:)``.
  var pageSize = 10
  /// A one-line answer to the last key (`Removed Kaspa: u to undo`), until the next key.
  var notice: String?
  /// The window the frames are drawn in: where a mouse click lands on the list.
  /// The runtime keeps it current (``setWindow(width:height:)``).
  var window = HomeWindowSize(width: 80, height: 24)
  /// The first line of the keys screen shown (it scrolls when the window is short).
  var helpScroll = 0
  /// The row the cursor was on when a board arrived without it (a cached board of another
  /// currency may hold only the pairs): the cursor goes back to it when a board has it,
  /// unless a key moved the cursor meanwhile.
  var pendingSelection: String?
  /// How the list's sections are ordered (``HomeSort``), remembered in the config file.
  var sort = HomeSort.standard
  /// The ledger's holdings for the Portfolio section; nil when it holds nothing.
  var portfolio: HomePortfolio?
  /// Whether the Portfolio section's heading is selected (↑ from the first row; Enter opens
  /// its value chart) rather than the row at ``cursor``.
  var portfolioSelected = false

  /// A home screen in `currencies` (at least one), showing nothing yet.
  init(currencies: [String], lists: HomeLists, pickerCurrencies: [String], now: Date) {
    self.currencies = currencies.isEmpty ? ["USD"] : currencies
    self.lists = lists
    self.pickerCurrencies = pickerCurrencies
    self.now = now
  }

  /// The shown screen.
  var screen: HomeScreen { screens.last ?? .home }

  /// The currency the list is shown in.
  var currency: String { currencies[min(currencyIndex, currencies.count - 1)] }

  /// Opens the screen: loads the list (cached first, then fresh), noted as a load in flight
  /// and asked for now, so that the refresh policy retries it after ``refreshInterval`` even
  /// when no board ever came.
  mutating func start() -> [HomeEffect] { loadBoard(refresh: refreshAtStart) }

  /// Applies one event; returns the effects to carry out, in order.
  ///
  /// The one-frame highlight (``changed``) ends with any event but a status (which the loader
  /// sends right after a board: it would end the highlight a few milliseconds after it was
  /// drawn); a ``notice`` ends with the next key.
  mutating func handle(_ event: HomeEvent) -> [HomeEffect] {
    if case .status = event {} else { changed = [] }
    switch event {
    case .key(.interrupt): return [.exit(.interrupted)]
    case .key(let key):
      notice = nil
      return handle(key: key)
    case .board(let board): return apply(board: board)
    case .detail(let detail): return apply(detail: detail)
    case .searchResults(let query, let hits, let remote):
      return apply(searchResults: hits, for: query, remote: remote)
    case .lists(let lists): return apply(lists: lists)
    case .saved(let change): return apply(saved: change)
    case .notSaved(let change, let reason): return apply(notSaved: change, reason: reason)
    case .status(let status):
      self.status = status
      loadInFlight = status == .loading
      if status != .loading { detail?.loading = false }
      return []
    case .portfolio(let portfolio):
      self.portfolio = portfolio
      if portfolio == nil { portfolioSelected = false }
      return []
    case .tick(let date): return apply(tick: date)
    }
  }

  private mutating func handle(key: TerminalKey) -> [HomeEffect] {
    switch screen {
    case .home: return handleListKey(key)
    case .favorites: return handleFavoritesKey(key)
    case .help: return handleHelpKey(key)
    case .detail: return handleDetailKey(key)
    case .search: return handleSearchKey(key)
    case .pickBase, .pickQuote: return handlePickerKey(key)
    }
  }

  /// Moves the clock forward to `date` without a tick (the runtime, before it draws a
  /// frame), so that ages and a rate-limit countdown are counted from the time of the frame,
  /// not from the last tick, which may be 15 seconds old. The refresh policy still runs on ticks.
  mutating func setClock(_ date: Date) {
    if date > now { now = date }
  }

  /// Goes back one screen; quits from the home list.
  mutating func back() -> [HomeEffect] {
    guard screens.count > 1 else { return [.exit(.quit)] }
    screens.removeLast()
    return []
  }
}

/// A removal that one key undoes.
enum HomeUndo: Equatable, Sendable {
  /// One of the user's coins, and where it was.
  case coin(FavoriteCoin, at: Int)
  /// One of the user's pairs, and where it was.
  case pair(ConfiguredPair, at: Int)
}

/// A row the last removal took off the list, and where it was among the board's rows.
struct HomeRemovedRow: Equatable, Sendable {
  /// The row as it was shown.
  var row: HomeRow
  /// Its index in ``HomeBoard/rows``.
  var index: Int
}
