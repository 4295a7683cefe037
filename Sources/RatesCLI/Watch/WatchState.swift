import RateCore

/// One watched pair as the board shows it.
struct WatchItem: Sendable, Equatable {
  /// The asset, as shown (`BTC`, `GBP`).
  var base: String
  /// The currency of the price (`USD`).
  var quote: String
  /// The provider that answers (`coingecko`, `frankfurter`).
  var source: RateSource
  /// The latest value, if any is known yet.
  var rate: Double?
  /// The value before the latest update that changed this item.
  var previousRate: Double?
  /// The provider's change in percent over ``changePeriod``.
  var change24hPercent: Double?
  /// `24h` for coins, `1d` for ECB rates (since the previous working day).
  var changePeriod: String
  /// The last 7 days, oldest first, ending with the latest value when seeded (coins: every
  /// sixth hourly price and the current one, ``CoinMarket/week``; ECB pairs: a rate a day,
  /// closures carried, ``RateDesk/fiatWeek(_:today:)``; street rates: the daily averages).
  var history: [Double] = []
  /// The values fetched during this watch, oldest first.
  var seen: [Double] = []
  /// When the value was fetched.
  var fetchedAt: Date?
  /// When the provider last updated the value, when it says.
  var updatedAt: Date?
  /// The last fetch for this item failed: the value shown is older.
  var stale = false
  /// The value comes from the cache of an earlier run, not this watch.
  var cached = false
  /// The value changed in the latest update (highlighted for one frame).
  var highlight = false
  /// The alert currently holding for this item, if any.
  var alert: String?
  /// The alert that crossed in the latest update (reported once).
  var newAlert: String?

  /// Whether the quote is much older than its provider's rhythm at `now`
  /// (``UpdateRhythm``): `old` on the board and the plain line, `"old"` in JSON.
  func isOld(at now: Date) -> Bool {
    UpdateRhythm.isOld(updatedAt: updatedAt, source: source, at: now)
  }

  /// `BTC/USD`, as pairs are written in every text output.
  var name: String { "\(base)/\(quote)" }

  /// The change since the previous value, when there is one.
  var sinceLast: Double? {
    guard let rate, let previousRate else { return nil }
    return rate - previousRate
  }

  /// The values the 7-day trend draws, as `pairs` and the home list draw them: the week
  /// (``history``), its last point the latest value; nothing before the week is known.
  var trend: [Double] {
    guard let rate, !history.isEmpty else { return history }
    return history.dropLast() + [rate]
  }

  /// The most values kept in ``seen``.
  static let seenLimit = 240
}

/// Everything the watch board shows; the renderer is a pure function of it.
struct WatchState: Sendable, Equatable {
  /// The pairs, in the order asked.
  var items: [WatchItem]
  /// The time of this frame.
  var now: Date
  /// Seconds between updates.
  var interval: Int
  /// When the last update was made, if any.
  var lastUpdate: Date?
  /// When the next update is due.
  var nextUpdate: Date?
  /// Whether the next update is a retry after a failure.
  var retrying = false
  /// The last failure, one line.
  var lastError: String?
  /// When it happened.
  var lastErrorAt: Date?
  /// The warning naming the pairs the latest update lacked while the others arrived.
  var missing: String?
  /// HTTP requests made in the last 60 seconds, all providers.
  var requestsLastMinute = 0
  /// The most requests to one provider in any 60 seconds.
  var budgetPerMinute: Int
  /// Updates made so far.
  var updates = 0

  /// The alerts that crossed in the latest update, as `(item, rule)`.
  var newAlerts: [(item: WatchItem, rule: String)] {
    items.compactMap { item in item.newAlert.map { (item, $0) } }
  }
}
