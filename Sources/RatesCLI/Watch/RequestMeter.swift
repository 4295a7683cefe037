import RateCore

/// Counts the HTTP requests `rates watch` makes per provider, so the status
/// line can show them and no provider gets more than its budget in any 60
/// seconds. Production feeds it from the transport; tests from their sources.
actor RequestMeter {
  /// The window requests are counted over.
  static let window: TimeInterval = 60

  private var log: [(provider: RateSource, at: Date)] = []

  /// Records one request to `provider` at `date`.
  func record(_ provider: RateSource, at date: Date) {
    log.removeAll { $0.at <= date.addingTimeInterval(-Self.window * 2) }
    log.append((provider, date))
  }

  /// Requests in the 60 seconds up to `now` (to `provider`, or all when `nil`).
  func count(_ provider: RateSource? = nil, at now: Date) -> Int {
    recent(provider, at: now).count
  }

  /// When `provider` may make another request under `budget` requests per
  /// 60 seconds: `nil` when it may now.
  func freeAt(_ provider: RateSource, budget: Int, at now: Date) -> Date? {
    let times = recent(provider, at: now).sorted()
    guard times.count >= max(budget, 1) else { return nil }
    return times[times.count - max(budget, 1)].addingTimeInterval(Self.window)
  }

  private func recent(_ provider: RateSource?, at now: Date) -> [Date] {
    let start = now.addingTimeInterval(-Self.window)
    return log.filter { ($0.provider == provider || provider == nil) && $0.at > start }.map(\.at)
  }
}
