import RateCore
/// The state of the history explorer: a series and the day under the cursor. Pure.
public struct ExplorerState: Equatable, Sendable {
  /// What a key did.
  public enum Step: Equatable, Sendable {
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
  public let series: RateSeries
  /// The index in `series.points` of the selected day; 0 when there is none.
  public private(set) var cursor: Int

  /// Starts with the cursor on the last day.
  public init(series: RateSeries) {
    self.series = series
    self.cursor = max(0, series.points.count - 1)
  }

  /// Starts with the cursor on `cursor`, clamped to the series.
  public init(series: RateSeries, cursor: Int) {
    self.series = series
    self.cursor = min(max(0, cursor), max(0, series.points.count - 1))
  }

  /// The selected point; `nil` for an empty series.
  public var selected: RatePoint? {
    series.points.indices.contains(cursor) ? series.points[cursor] : nil
  }

  /// The point before the selected one; `nil` on the first day.
  public var previous: RatePoint? {
    cursor > 0 && series.points.indices.contains(cursor - 1) ? series.points[cursor - 1] : nil
  }

  /// Applies `key`: arrows move one day, Home/End jump to the ends (the
  /// cursor never leaves the series), `q`/`Esc` quit, Ctrl-C interrupts.
  public mutating func apply(_ key: ExplorerKey) -> Step {
    let last = max(0, series.points.count - 1)
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
