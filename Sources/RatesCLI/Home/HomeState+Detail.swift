import RateCore

/// The size of the window a frame is drawn in, in columns and rows.
struct HomeWindowSize: Equatable, Sendable {
  /// Columns.
  var width: Int
  /// Rows.
  var height: Int

}

/// The detail screen: one row, a chart range and a cursor on it.
struct DetailState: Equatable, Sendable {
  /// The ranges the keys `1` `2` `3` `4` choose, in days.
  static let ranges = [7, 30, 90, 365]

  /// The row the screen is about; ``follow(board:)`` keeps its rate live.
  var row: HomeRow
  /// The chart's range: 7, 30, 90 or 365 days.
  var days: Int = 30
  /// The loaded data, `nil` while loading.
  var data: HomeDetail?
  /// Whether a load of ``days`` is in flight (the data shown, if any, is an older range's).
  var loading = false
  /// The day under the cursor; `nil` means the last day (it follows the newest day).
  var cursorDay: Day?
  /// A one-line answer to the last key (`f` on a pair, a star), shown on the status line.
  var message: String?
  /// Whether the chart's last day follows the live price: not for a range that ended in
  /// the past (`history --from … --to …`); choosing a range (`1`…`4`) ends today again.
  var followsLive = true
  /// The window the frame is drawn in: where a mouse click lands on the chart.
  /// The runtime keeps it current (``HomeState/setWindow(width:height:)``).
  var window = HomeWindowSize(width: 80, height: 24)

  /// Takes the live rate of this screen's row from `board` (the row with the same id and
  /// currency), so the chart's last point follows it; other rows are ignored.
  mutating func follow(board: HomeBoard) {
    guard let live = board.rows.first(where: { $0.id == row.id && $0.currency == row.currency })
    else { return }
    row.rate = live.rate
    row.changePercent = live.changePercent
    row.changePeriod = live.changePeriod
    row.week = live.week
    row.updatedAt = live.updatedAt
  }

  /// The loaded series with the row's live rate as its last day, what the chart draws:
  /// the rate replaces the last point, or follows it as a new day when the provider dated
  /// it later (a cached series from yesterday under today's price).
  var liveSeries: RateSeries? {
    guard var series = data?.series else { return nil }
    guard let rate = liveRate, let last = series.points.indices.last else { return series }
    if let updated = row.updatedAt.map(Day.init(containing:)), updated > series.points[last].date {
      series.points.append(RatePoint(date: updated, rate: rate))
    } else {
      series.points[last].rate = rate
    }
    return series
  }

  /// The row's rate, unless the loaded data is newer: a row dated before the series' last
  /// day or the market figures' update (a cached board still shown while fresh data loads)
  /// leaves the loaded figures as they are (`nil`). A street-rate pair has none: its rate is
  /// a 3-day average, and its chart the daily averages, which it must not replace.
  var liveRate: Double? {
    guard followsLive, row.source != .ledger, let rate = row.rate, rate.isFinite else { return nil }
    guard let updated = row.updatedAt, let data else { return rate }
    if let lastDay = data.series.points.last?.date, Day(containing: updated) < lastDay { return nil }
    if let figures = data.market?.lastUpdated, updated < figures { return nil }
    return rate
  }

  /// The series and the cursor on it, as the explorer keeps them.
  var explorer: ExplorerState? {
    guard let series = liveSeries else { return nil }
    let days = series.chartPoints
    guard let cursorDay, let index = days.firstIndex(where: { $0.date == cursorDay }) else {
      return ExplorerState(series: series)
    }
    return ExplorerState(series: series, cursor: index)
  }

  /// Puts the cursor on point `index` of the chart (the last one is stored as "last").
  mutating func moveCursor(to explorer: ExplorerState) {
    cursorDay = explorer.cursor >= explorer.days.count - 1 ? nil : explorer.selectedDay
  }

  /// The effect that loads this screen's data for ``days``, marking it loading.
  mutating func load() -> HomeEffect {
    loading = true
    return .loadDetail(row: row, currency: row.currency, days: days)
  }
}

extension HomeState {
  /// Opens the detail of `row` and asks for its data (Enter on the list).
  mutating func openDetail(_ row: HomeRow) -> [HomeEffect] {
    var state = DetailState(row: row)
    if let window = detail?.window { state.window = window }
    let effect = state.load()
    detail = state
    screens.append(.detail)
    return [effect]
  }

  /// A screen that is `row`'s detail alone, showing `data` (`history --interactive`, with
  /// the days it fetched): the keys, mouse, ranges and live price of Enter on the list, and
  /// `q` quits. `followsLive` is false for a range that ended in the past.
  init(detailOf row: HomeRow, data: HomeDetail, lists: HomeLists, now: Date, followsLive: Bool) {
    self.init(currencies: [row.currency], lists: lists, pickerCurrencies: [], now: now)
    var detail = DetailState(row: row)
    detail.days = data.days
    detail.data = data
    detail.followsLive = followsLive
    self.detail = detail
    screens = [.detail]
  }

  /// Tells the screens the window's size (the runtime, before it draws a frame).
  /// Mouse clicks on the chart are mapped with it, and Page Up/Down on the lists move a
  /// window's worth of rows.
  mutating func setWindow(width: Int, height: Int) {
    window = HomeWindowSize(width: width, height: height)
    detail?.window = window
    pageSize = HomeRenderer.pageSize(height: height)
  }

  mutating func handleDetailKey(_ key: TerminalKey) -> [HomeEffect] {
    guard detail != nil else { return back() }
    detail?.message = nil
    switch key {
    case .character("q"), .character("Q"), .escape:
      detail = nil
      return back()
    case .character(let digit) where ("1"..."4").contains(digit):
      return chooseRange(Int(String(digit)) ?? 1)
    case .character("f"):
      // The list's rule; its line shows in the detail's footer.
      let effects = toggleStar(detail?.row)
      detail?.message = notice
      notice = nil
      return effects
    case .character("r"): return (detail?.load()).map { [$0] } ?? []
    case .character("?"): openHelp()
    case .mouse(let column, let row): return clickChart(column: column, row: row)
    default: break
    }
    if let move = ExplorerKey(key), var explorer = detail?.explorer {
      guard [.left, .right, .home, .end].contains(move), explorer.apply(move) == .moved else {
        return []
      }
      detail?.moveCursor(to: explorer)
    }
    return []
  }

  /// `1`…`4`: the range of ``DetailState/ranges``; the cursor keeps its day when the
  /// new data has it (``apply(detail:)``).
  private mutating func chooseRange(_ number: Int) -> [HomeEffect] {
    guard detail != nil, DetailState.ranges.indices.contains(number - 1) else { return [] }
    detail?.days = DetailState.ranges[number - 1]
    detail?.followsLive = true
    return (detail?.load()).map { [$0] } ?? []
  }

  /// A click or drag on the chart puts the cursor on that column's day.
  private mutating func clickChart(column: Int, row: Int) -> [HomeEffect] {
    guard let state = detail, let explorer = state.explorer,
      let index = HomeRenderer.detailLayout(state, window: state.window)
        .pointIndex(column: column - 1, line: row - 1)
    else { return [] }
    detail?.moveCursor(to: ExplorerState(series: explorer.series, cursor: index))
    return []
  }

  mutating func apply(detail data: HomeDetail) -> [HomeEffect] {
    // An answer for another row, currency or range (an older key's) is dropped.
    guard var state = detail, data.rowID == state.row.id, data.currency == state.row.currency,
      data.days == state.days
    else { return [] }
    state.data = data
    // Stale data comes first while the fresh answer loads; the loader's status ends that.
    state.loading = data.stale
    if let day = state.cursorDay, !data.series.chartPoints.contains(where: { $0.date == day }) {
      state.cursorDay = nil
    }
    detail = state
    return []
  }
}
