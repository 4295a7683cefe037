extension RateService {
  /// Current rates of `pairs` from the source's ``PriceSource/offlineRates``
  /// (the ECB snapshot): each pair's rate standing today by the ECB rule
  /// (on the snapshot's last day once it is older than today), with its
  /// change since the rate standing the day before it was published, marked
  /// stale with `failure`. `nil` when there is no snapshot or it lacks a
  /// pair: the failure stands.
  func snapshotQuotes(_ pairs: [AssetQuote], failure: ProviderError?) -> QuotesResult? {
    guard let snapshot = source.offlineRates else { return nil }
    let day = min(Day(containing: now()), snapshot.lastDay)
    var quotes: [Quote] = []
    for pair in pairs {
      guard let last = snapshot.rate(base: pair.asset.id, quote: pair.quote.text, on: day, today: day)
      else { return nil }
      let previous = snapshot.rate(
        base: pair.asset.id, quote: pair.quote.text, on: last.published.adding(days: -1), today: day)
      quotes.append(
        Quote(
          base: pair.asset.symbol, quote: pair.quote, rate: last.point.rate,
          change24hPercent: previous.flatMap { Change.lastStep([$0.point.rate, last.point.rate]) },
          source: snapshot.source, fetchedAt: snapshot.publishedAt,
          updatedAt: last.published.start))
    }
    return QuotesResult(quotes: quotes, staleness: Self.staleness(of: snapshot, failure))
  }

  /// Whether the source's snapshot has a rate newer than `day`: one of a
  /// working day after it that was published by now (a clock set in the past
  /// never sees the snapshot's later days as newer).
  func snapshotIsNewer(than day: Day) -> Bool {
    guard let snapshot = source.offlineRates else { return false }
    return min(snapshot.lastDay, UpdateRhythm.newestECBDay(at: now())) > day
  }

  /// How an answer from `snapshot` is marked: stale, as of its last rate.
  static func staleness(of snapshot: ECBSnapshot, _ failure: ProviderError?) -> Staleness {
    Staleness(fetchedAt: snapshot.publishedAt, reason: failure, snapshotThrough: snapshot.lastDay)
  }
}

extension HistoryRequest {
  /// The newest day the cache has a value for (a close or the latest price).
  var newestCachedDay: Day? {
    (Array(closes.keys) + [latest?.point.date].compactMap { $0 }).max()
  }

  /// The window from the source's ``PriceSource/offlineRates`` (the ECB
  /// snapshot), marked stale with `failure`, its `source` naming the snapshot.
  ///
  /// For the last N days (`followsData`), when the snapshot's last rate no
  /// longer stands on the window's last day (it ends before that working
  /// day), the series shows the `days` days up to the
  /// snapshot's last day instead, with
  /// ``Notice/dataEndsEarly(provider:pair:newest:days:)``, as for any data
  /// that ends early: a window of mostly empty days would show nothing useful.
  /// `nil` when there is no snapshot or it has no rate for the pair.
  func fromSnapshot(_ failure: ProviderError?) -> RateService.HistoryResult? {
    guard let snapshot = service.source.offlineRates else { return nil }
    let last = snapshot.lastDay
    let end = window.upperBound
    let endsEarly =
      followsData && last < end && !MarketClosure.rateStands(from: last, on: end, today: end)
    let shown = endsEarly ? last.adding(days: -(days - 1))...last : window
    let read = MarketClosure.reach(back: shown.lowerBound)...shown.upperBound
    let byDay = Dictionary(
      snapshot.series(base: asset.id, quote: quote.text, in: read).map { ($0.date, $0) },
      uniquingKeysWith: { $1 })
    // The last rate stands on the closures right after it (a weekend), never on a later working day.
    let points = MarketClosure.rates(in: shown, today: min(end, MarketClosure.standsThrough(last))) {
      byDay[$0]
    }
    guard !points.isEmpty else { return nil }
    if endsEarly {
      service.notify(
        .dataEndsEarly(
          provider: .ecbSnapshot(through: nil), pair: "\(asset.symbol)/\(quote)", newest: last,
          days: days))
    }
    return RateService.HistoryResult(
      series: RateSeries(
        base: asset.symbol, quote: quote, source: snapshot.source,
        fetchedAt: snapshot.publishedAt, points: points,
        gaps: RateService.gaps(in: shown, points: points)),
      staleness: RateService.staleness(of: snapshot, failure))
  }
}
