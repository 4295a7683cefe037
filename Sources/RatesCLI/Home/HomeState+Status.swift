import RateCore

// What the status line may claim about the list's data, decided from the actual state.
extension HomeState {
  /// Whether `r` waits, and for how long: only while the list shows fresh data that the
  /// last load, asked less than ``manualRefreshSpacing`` ago, brought, the load ended well.
  /// Older or stale data, or a failed last load, never hold `r` back (its answer is the
  /// retry the status line offers). `age` (of the data) and `wait` in whole seconds.
  var refreshCooldown: (age: Int, wait: Int)? {
    guard let last = lastLoadRequest, let board, !board.stale, board.currency == currency else { return nil }
    if case .failed = status { return nil }
    let sinceRequest = now.timeIntervalSince(last)
    guard sinceRequest < Self.manualRefreshSpacing, board.fetchedAt >= last else { return nil }
    let age = max(0, Int(now.timeIntervalSince(board.fetchedAt)))
    return (age, Int((Self.manualRefreshSpacing - sinceRequest).rounded(.up)))
  }

  /// Whether the list's rows for the shown currency are still on their way: a load is in
  /// flight and no board of this currency came yet, or the one shown has no top coins.
  var listLoading: Bool {
    guard loadInFlight else { return false }
    guard let board, board.currency == currency else { return true }
    return !board.rows.contains { $0.kind == .top }
  }
}
