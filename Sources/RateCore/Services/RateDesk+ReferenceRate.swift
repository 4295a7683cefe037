extension RateDesk {
  /// One day's rate with its provenance: what `history --date` and
  /// `convert --date` show.
  public struct DatedRate: Sendable {
    /// The rate on the day asked, dated that day: its own, or an ECB rate
    /// standing over a closure (`carried`).
    public var point: RatePoint
    /// The day the rate was published for: the day asked, or the ECB working
    /// day before the closure it lies in.
    public var published: Day
    /// The history it was read from (its source, staleness and resolved asset).
    public var history: RateService.HistoryResult

    /// Who answered: Frankfurter, CoinGecko, or the snapshot (`ECB snapshot to …`).
    public var source: RateSource { history.series.source(on: published) }
    /// When it was fetched (for the snapshot, when its last rate was due).
    public var fetchedAt: Date { history.series.fetchedAt }
    /// Set when cached data or the snapshot stands in for the provider.
    public var staleness: Staleness? { history.staleness }
  }

  /// The rate of `base` in `quote` on `day`: for an ECB pair the rate
  /// ``MarketClosure`` says stands on it (its own, or the last publication
  /// before a closure it lies in), for a coin that day's close, never
  /// another day's. It is the history of the days the rule may reach
  /// (``history(base:quote:window:followsData:)``), so the day store answers
  /// a day once known, and offline or unreachable the ECB snapshot built
  /// into `rates` does, marked stale.
  ///
  /// - Throws: what ``checkedWindow(base:quote:_:)`` throws for `day` alone,
  ///   before any request; ``ProviderError/noData(provider:detail:)`` when no
  ///   rate stands on `day`, or what ``history(base:quote:window:followsData:)`` throws.
  public func rate(base: String, quote: String, on day: Day) async throws -> DatedRate {
    _ = try checkedWindow(base: base, quote: quote, day...day)
    // Today's rate may not be published yet: then one more day back.
    let window = day.adding(days: -(MarketClosure.maximumCarriedDays + 1))...day
    let result = try await history(base: base, quote: quote, window: window)
    let series = result.series
    guard let point = series.points.last(where: { $0.date == day }),
      let published = series.publishedDay(of: day)
    else { throw Self.noRate(on: day, in: result) }
    return DatedRate(point: point, published: published, history: result)
  }

  /// Why no rate stands on `day` in `result`: the provider left the day (or,
  /// for the ECB, the working day whose rate stands on it) out of its answer
  /// and it is asked again later; else it has none. Only ECB rates mention
  /// the working days before (coins are never carried). A day past the ECB
  /// snapshot standing in (offline, or the provider unreachable) is not
  /// cached: the provider may have it (what the other days past it say).
  static func noRate(on day: Day, in result: RateService.HistoryResult) -> any Error {
    let series = result.series
    if series.source.isECBSnapshot,
      let snapshot = result.staleness?.snapshotThrough, day > snapshot
    {
      return result.staleness?.reason ?? RateService.ServiceError.nothingCached("\(series.base)/\(series.quote)")
    }
    let ecb = series.source.isECB
    let reach = ecb ? MarketClosure.reach(back: day) : day
    let pair = "\(series.base)/\(series.quote)"
    if let waiting = result.leftOut.filter({ reach <= $0.key && $0.key <= day }).max(by: { $0.key < $1.key }) {
      return ProviderError.leftOut(provider: series.source, pair: pair, day: waiting.key, askAgain: waiting.value)
    }
    return ProviderError.noData(
      provider: series.source,
      detail: "no \(pair) \(ecb ? "rate" : "price") on \(day)\(ecb ? " or the working days before it" : "")")
  }
}
