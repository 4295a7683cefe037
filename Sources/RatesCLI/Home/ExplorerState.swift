import RateCore

/// The state of the history explorer: a series and the day under the cursor. Pure.
struct ExplorerState: Equatable, Sendable {
  /// What a key did.
  enum Step: Equatable, Sendable {
    /// The cursor moved: draw again.
    case moved
    /// Nothing changed (already at that end, or a key that does nothing).
    case unchanged
    /// Leave the explorer normally (`q`, `Esc`).
    case quit
    /// Leave the explorer as interrupted (Ctrl-C).
    case interrupt
  }

  /// The series, oldest first.
  let series: RateSeries
  /// Every day of the series, a gap (a day without a rate) as a `nan`
  /// point (``RateSeries/chartPoints``).
  let days: [RatePoint]
  /// The index in ``days`` of the selected day; 0 when there is none.
  private(set) var cursor: Int

  /// Starts with the cursor on `cursor`, clamped to the series: by default the last day.
  init(series: RateSeries, cursor: Int = .max) {
    self.series = series
    self.days = series.chartPoints
    self.cursor = min(max(0, cursor), max(0, days.count - 1))
  }

  /// The selected day; `nil` for an empty series.
  var selectedDay: Day? {
    days.indices.contains(cursor) ? days[cursor].date : nil
  }

  /// The selected point; `nil` for an empty series or a day without a rate.
  var selected: RatePoint? {
    days.indices.contains(cursor) ? Self.rated(days[cursor]) : nil
  }

  /// The point of the day before the selected one; `nil` on the first day
  /// and when that day has no rate (no change is shown across a gap).
  var previous: RatePoint? {
    cursor > 0 && days.indices.contains(cursor - 1) ? Self.rated(days[cursor - 1]) : nil
  }

  static func rated(_ point: RatePoint) -> RatePoint? {
    point.rate.isFinite ? point : nil
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.series == rhs.series && lhs.cursor == rhs.cursor
  }

  /// Applies `key`: arrows move one day, Home/End jump to the ends (the
  /// cursor never leaves the series), `q`/`Esc` quit, Ctrl-C interrupts.
  mutating func apply(_ key: ExplorerKey) -> Step {
    let last = max(0, days.count - 1)
    let target: Int
    switch key {
    case .left: target = max(0, cursor - 1)
    case .right: target = min(last, cursor + 1)
    case .home: target = 0
    case .end: target = last
    case .quit, .escape: return .quit
    case .interrupt: return .interrupt
    }
    guard target != cursor else { return .unchanged }
    cursor = target
    return .moved
  }
}
