import Foundation
import RateCore

/// The search screen: the query typed so far and what it found.
public struct SearchState: Equatable, Sendable {
  /// The text typed.
  public var query = ""
  /// The results for ``query``.
  public var hits: [HomeSearchHit] = []
  /// The selected hit.
  public var cursor = 0

  /// An empty search.
  public init() {}
}

extension HomeState {
  mutating func handleSearchKey(_ key: TerminalKey) -> [HomeEffect] {
    back()
  }

  mutating func apply(searchResults hits: [HomeSearchHit], for query: String, remote: Bool) -> [HomeEffect] {
    []
  }
}
