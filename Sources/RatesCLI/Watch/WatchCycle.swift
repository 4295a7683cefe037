import RateCore

/// What one feed's fetch gave.
struct FetchOutcome: Sendable {
  var feed: Int
  var snapshot: WatchFeed.Snapshot?
  var error: (any Error)?

  var result: Result<WatchFeed.Snapshot, any Error> {
    if let snapshot { return .success(snapshot) }
    return .failure(error ?? CancellationError())
  }
}

/// One run of a ``WatchEngine``: the board's state and what carries over
/// from one update to the next, with the steps of an update.
struct WatchCycle {
  /// Per-feed scheduling.
  struct Schedule {
    var lastSuccess: Date?
    var retryAt: Date?
    var failures = 0
    var everFetched = false
  }

  let engine: WatchEngine
  /// What the board shows.
  var state: WatchState
  var schedules: [Schedule]
  /// The alerts holding now, as `[alert index, item index]`.
  var activeAlerts: Set<[Int]> = []
  /// When the next update is due.
  var nextTick: Date
  /// The first redraw after an update takes the highlights off.
  var clearHighlights = false
  var seeded = false
  /// The last transient failure, reported if nothing was ever shown.
  var lastFatalCandidate: (any Error)?

  /// The first frame: whatever the cache holds, marked with its age; feeds
  /// still fresh (ECB rates within the hour) make no request until they age.
  init(engine: WatchEngine) async {
    self.engine = engine
    state = WatchState(
      items: engine.targets.map { target in
        let provider = engine.feeds[target.feed].provider
        return WatchItem(
          base: target.base, quote: target.quote, source: provider,
          changePeriod: ChangePeriod.of(source: provider).rawValue)
      },
      now: engine.now(), interval: engine.interval, budgetPerMinute: engine.budgetPerMinute)
    schedules = engine.feeds.map { _ in Schedule() }
    nextTick = engine.now()
    for (index, feed) in engine.feeds.enumerated() {
      let snapshot = feed.cached()
      engine.apply(snapshot, feed: index, to: &state, fresh: false)
      if feed.refreshEvery > 0, let fetchedAt = snapshot.fetchedAt,
        !snapshot.quotes.contains(where: { $0 == nil }),
        CacheFreshness.isFresh(fetchedAt, at: state.now, for: feed.refreshEvery)
      {
        schedules[index].lastSuccess = fetchedAt
        engine.markFresh(feed: index, in: &state)
      }
    }
    state.requestsLastMinute = await engine.meter.count(at: state.now)
  }

  /// Sleeps until ``nextTick``; on a terminal, wakes every `redrawEvery`
  /// to redraw the countdown. Throws when cancelled.
  mutating func waitForNextUpdate(emit: @Sendable (WatchEngine.Event, WatchState) async -> Void)
    async throws
  {
    while true {
      try Task.checkCancellation()
      let remaining = nextTick.timeIntervalSince(engine.now())
      guard remaining > 0 else { break }
      let step = engine.redrawEvery.map { min($0, remaining) } ?? remaining
      try await engine.sleep(.milliseconds(Int((step * 1000).rounded(.up))))
      guard engine.redrawEvery != nil else { continue }
      await refreshClock()
      if clearHighlights {
        clearHighlights = false
        for index in state.items.indices { state.items[index].highlight = false }
      }
      await emit(.tick, state)
    }
    try Task.checkCancellation()
  }

  /// When a feed due on every update would go over the budget: the time
  /// there is room again. Never over budget.
  func budgetBlocked(at start: Date) async -> Date? {
    var blocked: Date?
    for (index, feed) in engine.feeds.enumerated()
    where feed.refreshEvery == 0 && engine.isDue(feed, schedules[index], at: start) {
      if let free = await engine.meter.freeAt(
        feed.provider, budget: engine.budgetPerMinute, at: start)
      {
        blocked = max(blocked ?? free, free)
      }
    }
    guard let blocked, blocked > start else { return nil }
    return blocked
  }

  /// Moves the next update to `date`.
  mutating func postpone(to date: Date) {
    nextTick = date
    state.nextUpdate = date
  }

  /// The feeds due at `start` with room in the budget.
  func dueFeeds(at start: Date) async -> [Int] {
    var due: [Int] = []
    for (index, feed) in engine.feeds.enumerated()
    where engine.isDue(feed, schedules[index], at: start) {
      if await engine.meter.freeAt(feed.provider, budget: engine.budgetPerMinute, at: start) == nil {
        due.append(index)
      }
    }
    return due
  }

  /// Puts fresh values on the board and marks failing feeds stale with a
  /// retry time. Returns when the last failing per-update feed may be
  /// asked again. Throws a failure that is not transient.
  mutating func record(_ results: [FetchOutcome], at finished: Date) throws -> Date? {
    for index in state.items.indices {
      state.items[index].highlight = false
      state.items[index].newAlert = nil
    }
    var retryingUntil: Date?
    var missing: [MissingFigure] = []
    defer { state.missing = missing.isEmpty ? nil : NoticeText.missing(missing, keySetup: engine.keySetup) }
    for outcome in results {
      switch outcome.result {
      case .success(let snapshot):
        schedules[outcome.feed] = Schedule(lastSuccess: finished, everFetched: true)
        engine.apply(snapshot, feed: outcome.feed, to: &state, fresh: true)
        missing += snapshot.missing
      case .failure(let error):
        guard WatchEngine.isTransient(error) else { throw error }
        let retryAt = recordFailure(error, feed: outcome.feed, at: finished)
        if engine.feeds[outcome.feed].refreshEvery == 0 {
          retryingUntil = max(retryingUntil ?? retryAt, retryAt)
        }
      }
    }
    return retryingUntil
  }

  /// Marks a feed's shown values stale and schedules its retry; returns the retry time.
  private mutating func recordFailure(_ error: any Error, feed: Int, at finished: Date) -> Date {
    lastFatalCandidate = error
    schedules[feed].failures += 1
    let delay = engine.retryDelay(
      after: error, feed: engine.feeds[feed], failures: schedules[feed].failures)
    let retryAt = finished.addingTimeInterval(delay)
    schedules[feed].retryAt = retryAt
    for item in state.items.indices where engine.targets[item].feed == feed {
      if state.items[item].rate != nil { state.items[item].stale = true }
    }
    // Worded as `rates` words it on exit, key advice fitted to the user's setup.
    state.lastError =
      (error as? ProviderError)?.retryingMessage(keySetup: engine.keySetup)
      ?? ErrorReport(error, keySetup: engine.keySetup).message
    state.lastErrorAt = finished
    return retryAt
  }

  /// Alerts: reported once per crossing, on fresh values only.
  mutating func checkAlerts() {
    for (alertIndex, alert) in engine.alerts.enumerated() {
      for target in alert.targets where state.items.indices.contains(target) {
        let item = state.items[target]
        guard let rate = item.rate, !item.stale, !item.cached else { continue }
        let key = [alertIndex, target]
        if alert.rule.comparison.holds(rate, alert.rule.threshold) {
          state.items[target].alert = alert.rule.text
          if activeAlerts.insert(key).inserted { state.items[target].newAlert = alert.rule.text }
        } else {
          activeAlerts.remove(key)
          if state.items[target].alert == alert.rule.text { state.items[target].alert = nil }
        }
      }
    }
  }

  /// Counts the update and schedules the next: an interval after the start,
  /// or later while a failing feed waits for its retry.
  mutating func finishUpdate(started start: Date, finished: Date, retryingUntil: Date?) async {
    state.updates += 1
    state.lastUpdate = finished
    nextTick = max(start.addingTimeInterval(TimeInterval(engine.interval)), finished)
    state.retrying = retryingUntil != nil
    if let retryingUntil, retryingUntil > nextTick { nextTick = retryingUntil }
    state.nextUpdate = nextTick
    // The last of `--count` updates: nothing comes next, so nothing is "retrying".
    if let count = engine.count, state.updates >= count {
      state.nextUpdate = nil
      state.retrying = false
    }
    await refreshClock()
    clearHighlights = true
  }

  /// After the first update, once: recent history for the sparklines, each
  /// feed within what its budget has left. True when a terminal should redraw.
  mutating func seedHistoryOnce() async -> Bool {
    guard !seeded else { return false }
    seeded = true
    var changed = false
    for (index, feed) in engine.feeds.enumerated() {
      let used = await engine.meter.count(feed.provider, at: engine.now())
      let allowance = engine.budgetPerMinute - used - (feed.refreshEvery == 0 ? 1 : 0)
      guard allowance > 0, let history = await feed.seedHistory(allowance) else { continue }
      for item in state.items.indices where engine.targets[item].feed == index {
        let target = engine.targets[item]
        guard history.indices.contains(target.pair), !history[target.pair].isEmpty else { continue }
        state.items[item].history = WatchEngine.values(
          history[target.pair], inverted: target.inverted)
        changed = true
      }
    }
    guard changed, engine.redrawEvery != nil else { return false }
    await refreshClock()
    return true
  }

  /// How the run ends after this update, if it does: an alert with
  /// `exitOnAlert`, or `count` updates made (throwing the last failure when
  /// nothing was ever shown, so it gets its exit code).
  func outcome() throws -> WatchEngine.Outcome? {
    if !state.newAlerts.isEmpty, engine.exitOnAlert { return .alert }
    guard let count = engine.count, state.updates >= count else { return nil }
    if !state.items.contains(where: { $0.rate != nil }), let error = lastFatalCandidate {
      throw error
    }
    return .finished
  }

  /// The time and the requests in the last minute, as of now.
  private mutating func refreshClock() async {
    state.now = engine.now()
    state.requestsLastMinute = await engine.meter.count(at: state.now)
  }
}
