import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The watch loop: a first frame from the cache, then one update per
/// interval, each fetching what is due in one request per provider, with
/// failures kept on screen as stale values and retried without ever going
/// over the request budget. Time comes only from the injected `now` and
/// `sleep`, so tests run it on a fake clock.
struct WatchEngine: Sendable {
  /// Where an item's value comes from.
  struct Target: Sendable, Equatable {
    /// The index into ``WatchEngine/feeds``.
    var feed: Int
    /// The index into that feed's pairs.
    var pair: Int
    /// Whether the value is `1 / rate` of the feed's pair.
    var inverted: Bool
    /// The pair as shown.
    var base: String
    var quote: String

  }

  /// An alert and the items it watches.
  struct Alert: Sendable, Equatable {
    var rule: AlertRule
    /// Indices into ``WatchEngine/targets``.
    var targets: [Int]

  }

  /// What the loop reports to its output.
  enum Event: Sendable, Equatable {
    /// The first frame, from the cache, before any request.
    case cached
    /// An update was made (some fetches may have failed).
    case update
    /// A redraw while waiting (terminal countdown).
    case tick
  }

  /// Why the loop ended.
  enum Outcome: Sendable, Equatable {
    /// `count` updates were made.
    case finished
    /// An alert crossed and `exitOnAlert` was set.
    case alert
  }

  var feeds: [WatchFeed]
  var targets: [Target]
  var alerts: [Alert]
  /// Seconds between updates.
  var interval: Int
  /// The most requests to one provider in any 60 seconds.
  var budgetPerMinute: Int
  /// Stop after this many updates.
  var count: Int?
  /// Stop when an alert crosses.
  var exitOnAlert: Bool
  /// Redraw this often while waiting (a terminal); `nil` for none.
  var redrawEvery: TimeInterval?
  var now: @Sendable () -> Date
  var sleep: @Sendable (Duration) async throws -> Void
  var meter: RequestMeter
  /// The user's CoinGecko key setup, so that the status line's key advice
  /// fits it (``KeyAdvice``); `nil` when unknown.
  var keySetup: KeySetup?

  /// Creates an engine.
  init(
    feeds: [WatchFeed], targets: [Target], alerts: [Alert] = [], interval: Int,
    budgetPerMinute: Int, count: Int? = nil, exitOnAlert: Bool = false,
    redrawEvery: TimeInterval? = nil, now: @escaping @Sendable () -> Date,
    sleep: @escaping @Sendable (Duration) async throws -> Void, meter: RequestMeter,
    keySetup: KeySetup? = nil
  ) {
    self.feeds = feeds
    self.targets = targets
    self.alerts = alerts
    self.interval = max(interval, 1)
    self.budgetPerMinute = max(budgetPerMinute, 1)
    self.count = count
    self.exitOnAlert = exitOnAlert
    self.redrawEvery = redrawEvery
    self.now = now
    self.sleep = sleep
    self.meter = meter
    self.keySetup = keySetup
  }

  /// Runs until `count` updates, an alert with `exitOnAlert`, a fatal
  /// error (unknown coin, API key) or cancellation (thrown).
  ///
  /// Each update: wait for its time (redrawing the countdown on a
  /// terminal), wait for room in the budget, fetch what is due (one request
  /// per provider, concurrently), record the answers and failures, check
  /// the alerts, report; after the first, seed the sparklines once.
  ///
  /// - Parameter emit: receives each event with the state to show.
  func run(emit: @Sendable (Event, WatchState) async -> Void) async throws -> Outcome {
    var cycle = await WatchCycle(engine: self)
    await emit(.cached, cycle.state)
    while true {
      try await cycle.waitForNextUpdate(emit: emit)
      let start = now()
      if let blocked = await cycle.budgetBlocked(at: start) {
        cycle.postpone(to: blocked)
        continue
      }
      let results = await fetch(await cycle.dueFeeds(at: start))
      try Task.checkCancellation()
      let finished = now()
      let retryingUntil = try cycle.record(results, at: finished)
      cycle.checkAlerts()
      await cycle.finishUpdate(started: start, finished: finished, retryingUntil: retryingUntil)
      await emit(.update, cycle.state)
      if await cycle.seedHistoryOnce(), redrawEvery != nil { await emit(.tick, cycle.state) }
      if let outcome = try cycle.outcome() { return outcome }
    }
  }

  /// Fetches `feeds`, one request each, concurrently; the outcomes in feed order.
  func fetch(_ due: [Int]) async -> [FetchOutcome] {
    // A struct, not a (Int, Result) tuple: the tuple form was miscompiled in
    // release builds (Swift 6.3.1): indices came back wrong and trapped.
    var results: [FetchOutcome] = []
    await withTaskGroup(of: FetchOutcome.self) { group in
      for index in due {
        let feed = feeds[index]
        group.addTask {
          do { return FetchOutcome(feed: index, snapshot: try await feed.fetch(), error: nil) } catch {
            return FetchOutcome(feed: index, snapshot: nil, error: error)
          }
        }
      }
      for await outcome in group { results.append(outcome) }
    }
    return results.sorted { $0.feed < $1.feed }
  }

  func isDue(_ feed: WatchFeed, _ schedule: WatchCycle.Schedule, at date: Date) -> Bool {
    if let retryAt = schedule.retryAt, retryAt > date { return false }
    guard feed.refreshEvery > 0, let last = schedule.lastSuccess else { return true }
    return date.timeIntervalSince(last) >= feed.refreshEvery
  }

  /// How long to wait before asking a failing provider again: its
  /// `Retry-After` (a 429 without one waits a minute); other failures back
  /// off from the interval (ECB rates: from a minute). Never longer than
  /// 5 minutes or the interval, whichever is longer (an hour for ECB rates),
  /// however far off a server's `Retry-After` points.
  func retryDelay(after error: any Error, feed: WatchFeed, failures: Int) -> TimeInterval {
    let base = feed.refreshEvery == 0 ? TimeInterval(interval) : 60
    let ceiling = feed.refreshEvery == 0 ? max(TimeInterval(interval), 300) : feed.refreshEvery
    let backoff = min(base * pow(2, Double(min(failures - 1, 10))), ceiling)
    if case .rateLimited(_, let retryAfter) = (error as? ProviderError)?.decisive {
      return min(max(TimeInterval(retryAfter ?? 60), backoff), ceiling)
    }
    return backoff
  }

  /// Failures that never end the watch: rate limits, server errors,
  /// timeouts, dropped connections, unreadable answers.
  static func isTransient(_ error: any Error) -> Bool {
    guard let error = error as? ProviderError else { return false }
    if case .network(_, .cancelled) = error { return false }
    return error.allowsStaleFallback
  }

  static func values(_ values: [Double], inverted: Bool) -> [Double] {
    inverted ? values.compactMap(RateInversion.inverse(of:)) : values
  }

  func markFresh(feed: Int, in state: inout WatchState) {
    for index in state.items.indices where targets[index].feed == feed {
      state.items[index].cached = false
    }
  }

  /// Puts a snapshot's values on the board.
  func apply(_ snapshot: WatchFeed.Snapshot, feed: Int, to state: inout WatchState, fresh: Bool) {
    for index in state.items.indices where targets[index].feed == feed {
      let target = targets[index]
      if let history = snapshot.history, history.indices.contains(target.pair),
        !history[target.pair].isEmpty
      {
        state.items[index].history = Self.values(history[target.pair], inverted: target.inverted)
      }
      guard snapshot.quotes.indices.contains(target.pair),
        let asked = snapshot.quotes[target.pair],
        let quote = target.inverted ? asked.inverted() : asked
      else { continue }
      var item = state.items[index]
      if fresh {
        item.previousRate = item.rate
        if let old = item.rate, old != quote.rate { item.highlight = true }
        item.seen.append(quote.rate)
        if item.seen.count > WatchItem.seenLimit { item.seen.removeFirst() }
      }
      item.rate = quote.rate
      // The source that answered: a coin chain's fallback names itself.
      item.source = quote.source
      item.changePeriod = quote.changePeriod.rawValue
      item.change24hPercent = quote.change24hPercent
      item.fetchedAt = quote.fetchedAt
      item.updatedAt = quote.updatedAt
      item.stale = false
      item.cached = !fresh
      state.items[index] = item
    }
  }
}
