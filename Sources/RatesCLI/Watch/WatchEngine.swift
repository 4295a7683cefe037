import Foundation
import RateCore

/// One provider's share of a watch: its pairs, how to read them from the
/// cache, how to seed their history and how to fetch them (one request).
public struct WatchFeed: Sendable {
  /// Quotes (in ``pairs`` order) and, when the answer carries it, history.
  public struct Snapshot: Sendable {
    /// One quote per pair, `nil` where none is known.
    public var quotes: [Quote?]
    /// Recent values per pair, oldest first, when known.
    public var history: [[Double]]?
    /// When the data was fetched (the oldest quote's time for the cache).
    public var fetchedAt: Date?

    /// Creates a snapshot.
    public init(quotes: [Quote?], history: [[Double]]? = nil, fetchedAt: Date?) {
      self.quotes = quotes
      self.history = history
      self.fetchedAt = fetchedAt
    }
  }

  /// The provider's name (`coingecko`), for the request budget and output.
  public var provider: String
  /// The pairs asked of the provider.
  public var pairs: [AssetQuote]
  /// Seconds a successful fetch stands: 0 to fetch on every update (coins),
  /// 3600 for ECB rates, which change once a working day.
  public var refreshEvery: TimeInterval
  /// The cached data, without a request, for the first frame.
  public var cached: @Sendable () -> Snapshot
  /// Recent history per pair, making at most `allowance` requests; `nil`
  /// when the feed has none to offer.
  public var seedHistory: @Sendable (_ allowance: Int) async -> [[Double]]?
  /// Fresh data: one request. Throws the provider's error.
  public var fetch: @Sendable () async throws -> Snapshot

  /// Creates a feed.
  public init(
    provider: String, pairs: [AssetQuote], refreshEvery: TimeInterval,
    cached: @escaping @Sendable () -> Snapshot,
    seedHistory: @escaping @Sendable (_ allowance: Int) async -> [[Double]]? = { _ in nil },
    fetch: @escaping @Sendable () async throws -> Snapshot
  ) {
    self.provider = provider
    self.pairs = pairs
    self.refreshEvery = refreshEvery
    self.cached = cached
    self.seedHistory = seedHistory
    self.fetch = fetch
  }
}

/// The watch loop: a first frame from the cache, then one update per
/// interval, each fetching what is due in one request per provider, with
/// failures kept on screen as stale values and retried without ever going
/// over the request budget. Time comes only from the injected `now` and
/// `sleep`, so tests run it on a fake clock.
public struct WatchEngine: Sendable {
  /// Where an item's value comes from.
  public struct Target: Sendable, Equatable {
    /// The index into ``WatchEngine/feeds``.
    public var feed: Int
    /// The index into that feed's pairs.
    public var pair: Int
    /// Whether the value is `1 / rate` of the feed's pair.
    public var inverted: Bool
    /// The pair as shown.
    public var base: String
    public var quote: String

    /// Creates a target.
    public init(feed: Int, pair: Int, inverted: Bool, base: String, quote: String) {
      self.feed = feed
      self.pair = pair
      self.inverted = inverted
      self.base = base
      self.quote = quote
    }
  }

  /// An alert and the items it watches.
  public struct Alert: Sendable, Equatable {
    /// The rule.
    public var rule: AlertRule
    /// Indices into ``WatchEngine/targets``.
    public var targets: [Int]

    /// Creates an alert.
    public init(rule: AlertRule, targets: [Int]) {
      self.rule = rule
      self.targets = targets
    }
  }

  /// What the loop reports to its output.
  public enum Event: Sendable, Equatable {
    /// The first frame, from the cache, before any request.
    case cached
    /// An update was made (some fetches may have failed).
    case update
    /// A redraw while waiting (terminal countdown).
    case tick
  }

  /// Why the loop ended.
  public enum Outcome: Sendable, Equatable {
    /// `count` updates were made.
    case finished
    /// An alert crossed and `exitOnAlert` was set.
    case alert
  }

  public var feeds: [WatchFeed]
  public var targets: [Target]
  public var alerts: [Alert]
  /// Seconds between updates.
  public var interval: Int
  /// The most requests to one provider in any 60 seconds.
  public var budgetPerMinute: Int
  /// Stop after this many updates.
  public var count: Int?
  /// Stop when an alert crosses.
  public var exitOnAlert: Bool
  /// Redraw this often while waiting (a terminal); `nil` for none.
  public var redrawEvery: TimeInterval?
  public var now: @Sendable () -> Date
  public var sleep: @Sendable (Duration) async throws -> Void
  public var meter: RequestMeter

  /// Creates an engine.
  public init(
    feeds: [WatchFeed], targets: [Target], alerts: [Alert] = [], interval: Int,
    budgetPerMinute: Int, count: Int? = nil, exitOnAlert: Bool = false,
    redrawEvery: TimeInterval? = nil, now: @escaping @Sendable () -> Date,
    sleep: @escaping @Sendable (Duration) async throws -> Void, meter: RequestMeter
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
  }

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

  /// Per-feed scheduling.
  struct Schedule {
    var lastSuccess: Date?
    var retryAt: Date?
    var failures = 0
    var everFetched = false
  }

  /// Runs until `count` updates, an alert with `exitOnAlert`, a fatal
  /// error (unknown coin, API key) or cancellation (thrown).
  ///
  /// - Parameter emit: receives each event with the state to show.
  public func run(emit: @Sendable (Event, WatchState) async -> Void) async throws -> Outcome {
    var state = WatchState(
      items: targets.map { target in
        WatchItem(
          base: target.base, quote: target.quote, source: feeds[target.feed].provider,
          changePeriod: feeds[target.feed].provider == Providers.frankfurter ? "1d" : "24h")
      },
      now: now(), interval: interval, budgetPerMinute: budgetPerMinute)
    var schedules = feeds.map { _ in Schedule() }

    // The first frame: whatever the cache holds, marked with its age.
    for (index, feed) in feeds.enumerated() {
      let snapshot = feed.cached()
      apply(snapshot, feed: index, to: &state, fresh: false)
      if feed.refreshEvery > 0, let fetchedAt = snapshot.fetchedAt,
        !snapshot.quotes.contains(where: { $0 == nil }),
        CacheFreshness.isFresh(fetchedAt, at: state.now, for: feed.refreshEvery)
      {
        // Still fresh (ECB rates within the hour): no request until it ages.
        schedules[index].lastSuccess = fetchedAt
        markFresh(feed: index, in: &state)
      }
    }
    state.requestsLastMinute = await meter.count(at: state.now)
    await emit(.cached, state)

    var active: Set<[Int]> = []
    var seeded = false
    var nextTick = now()
    var clearHighlights = false
    var lastFatalCandidate: (any Error)?

    while true {
      // Wait for the next update, redrawing the countdown on a terminal.
      while true {
        try Task.checkCancellation()
        let current = now()
        let remaining = nextTick.timeIntervalSince(current)
        guard remaining > 0 else { break }
        let step = redrawEvery.map { min($0, remaining) } ?? remaining
        try await sleep(.milliseconds(Int((step * 1000).rounded(.up))))
        if redrawEvery != nil {
          state.now = now()
          state.requestsLastMinute = await meter.count(at: state.now)
          if clearHighlights {
            clearHighlights = false
            for index in state.items.indices { state.items[index].highlight = false }
          }
          await emit(.tick, state)
        }
      }
      try Task.checkCancellation()

      // Never over budget: a feed due on every update waits for room.
      let start = now()
      var blocked: Date?
      for (index, feed) in feeds.enumerated() where isDue(feed, schedules[index], at: start) {
        if let free = await meter.freeAt(feed.provider, budget: budgetPerMinute, at: start),
          feed.refreshEvery == 0
        {
          blocked = max(blocked ?? free, free)
        }
      }
      if let blocked, blocked > start {
        nextTick = blocked
        state.nextUpdate = blocked
        continue
      }

      // Fetch everything due, one request per provider, concurrently.
      var due: [Int] = []
      for (index, feed) in feeds.enumerated() where isDue(feed, schedules[index], at: start) {
        if await meter.freeAt(feed.provider, budget: budgetPerMinute, at: start) == nil {
          due.append(index)
        }
      }
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
      results.sort { $0.feed < $1.feed }
      try Task.checkCancellation()

      let finished = now()
      for index in state.items.indices {
        state.items[index].highlight = false
        state.items[index].newAlert = nil
      }
      var retryingUntil: Date?
      for outcome in results {
        let index = outcome.feed
        switch outcome.result {
        case .success(let snapshot):
          schedules[index].lastSuccess = finished
          schedules[index].retryAt = nil
          schedules[index].failures = 0
          schedules[index].everFetched = true
          apply(snapshot, feed: index, to: &state, fresh: true)
        case .failure(let error):
          guard Self.isTransient(error) else { throw error }
          lastFatalCandidate = error
          schedules[index].failures += 1
          let retry = retryDelay(after: error, feed: feeds[index], failures: schedules[index].failures)
          let retryAt = finished.addingTimeInterval(retry)
          schedules[index].retryAt = retryAt
          if feeds[index].refreshEvery == 0 { retryingUntil = max(retryingUntil ?? retryAt, retryAt) }
          for item in state.items.indices where targets[item].feed == index {
            if state.items[item].rate != nil { state.items[item].stale = true }
          }
          state.lastError = TerminalText.sanitize(
            (error as? any LocalizedError)?.errorDescription ?? String(describing: error))
          state.lastErrorAt = finished
        }
      }

      // Alerts: reported once per crossing, on fresh values only.
      for (alertIndex, alert) in alerts.enumerated() {
        for target in alert.targets where state.items.indices.contains(target) {
          let item = state.items[target]
          guard let rate = item.rate, !item.stale, !item.cached else { continue }
          let key = [alertIndex, target]
          if alert.rule.comparison.holds(rate, alert.rule.threshold) {
            state.items[target].alert = alert.rule.text
            if !active.contains(key) {
              active.insert(key)
              state.items[target].newAlert = alert.rule.text
            }
          } else {
            active.remove(key)
            if state.items[target].alert == alert.rule.text { state.items[target].alert = nil }
          }
        }
      }

      state.updates += 1
      state.lastUpdate = finished
      nextTick = max(start.addingTimeInterval(TimeInterval(interval)), finished)
      state.retrying = false
      if let retryingUntil, retryingUntil > nextTick {
        nextTick = retryingUntil
        state.retrying = true
      } else if retryingUntil != nil {
        state.retrying = true
      }
      state.nextUpdate = nextTick
      state.now = now()
      state.requestsLastMinute = await meter.count(at: state.now)
      await emit(.update, state)
      clearHighlights = true

      if !seeded {
        seeded = true
        var changed = false
        for (index, feed) in feeds.enumerated() {
          let used = await meter.count(feed.provider, at: now())
          let allowance = budgetPerMinute - used - (feed.refreshEvery == 0 ? 1 : 0)
          guard allowance > 0, let history = await feed.seedHistory(allowance) else { continue }
          for item in state.items.indices where targets[item].feed == index {
            let target = targets[item]
            guard history.indices.contains(target.pair), !history[target.pair].isEmpty else {
              continue
            }
            state.items[item].history = Self.values(history[target.pair], inverted: target.inverted)
            changed = true
          }
        }
        if changed, redrawEvery != nil {
          state.now = now()
          state.requestsLastMinute = await meter.count(at: state.now)
          await emit(.tick, state)
        }
      }

      if !state.newAlerts.isEmpty, exitOnAlert { return .alert }
      if let count, state.updates >= count {
        if !state.items.contains(where: { $0.rate != nil }), let error = lastFatalCandidate {
          // Nothing was ever shown: report why, with its exit code.
          throw error
        }
        return .finished
      }
    }
  }

  func isDue(_ feed: WatchFeed, _ schedule: Schedule, at date: Date) -> Bool {
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
    if case .rateLimited(_, let retryAfter) = error as? ProviderError {
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
    inverted ? values.compactMap { $0 == 0 ? nil : 1 / $0 } : values
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
      guard snapshot.quotes.indices.contains(target.pair), var quote = snapshot.quotes[target.pair]
      else { continue }
      if target.inverted { quote = quote.inverted() }
      var item = state.items[index]
      if fresh {
        item.previousRate = item.rate
        if let old = item.rate, old != quote.rate { item.highlight = true }
        item.seen.append(quote.rate)
        if item.seen.count > WatchItem.seenLimit { item.seen.removeFirst() }
      }
      item.rate = quote.rate
      item.change24hPercent = quote.change24hPercent
      item.fetchedAt = quote.fetchedAt
      item.updatedAt = quote.updatedAt
      item.stale = false
      item.cached = !fresh
      state.items[index] = item
    }
  }
}
