import Foundation
import RateCore

/// The detail screen: one row, a chart range and a cursor on it.
public struct DetailState: Equatable, Sendable {
  /// The row the screen is about.
  public var row: HomeRow
  /// The chart's range: 7, 30, 90 or 365 days.
  public var days: Int = 30
  /// The loaded data, `nil` while loading.
  public var data: HomeDetail?

  /// A detail screen for `row`, not loaded.
  public init(row: HomeRow) {
    self.row = row
  }
}

extension HomeState {
  mutating func handleDetailKey(_ key: TerminalKey) -> [HomeEffect] {
    back()
  }

  mutating func apply(detail: HomeDetail) -> [HomeEffect] {
    self.detail?.data = detail
    return []
  }
}
