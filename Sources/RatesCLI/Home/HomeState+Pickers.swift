import Foundation
import RateCore

/// The two currency pickers of "add a pair".
public struct PickerState: Equatable, Sendable {
  /// The selected entry of the shown picker.
  public var cursor = 0

  /// A picker on its first entry.
  public init() {}
}

extension HomeState {
  mutating func handlePickerKey(_ key: TerminalKey) -> [HomeEffect] {
    back()
  }
}
