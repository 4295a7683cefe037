extension RateDesk {
  /// An hourly series with its provenance.
  public struct HourlyResult: Sendable {
    /// The points of the window, in the orientation asked for.
    public var series: Series<Date>
    /// Set when cached data stands in for a fresh answer.
    public var staleness: Staleness?
    /// The coin the pair resolved to (what names it in a journal).
    public var asset: Asset
  }

  /// The hourly points of `base` in `quote` over `window` (its days cut at
  /// now), from CoinGecko's automatic granularity: one request for the days
  /// from the window's first to today, cached as an ordinary short-lived
  /// entry (``HourlyHistory/freshness``), never in the permanent day store.
  ///
  /// - Throws: ``HourlyHistory/Refusal`` for a pair that is not a coin pair
  ///   or a window older than ``HourlyHistory/maximumDays`` days, before any
  ///   request; else the provider's errors.
  public func hourlyHistory(base: String, quote: String, window: ClosedRange<Day>) async throws
    -> HourlyResult
  {
    let route = try route(base, quote)
    let today = Day(containing: now())
    try HourlyHistory.check(route, window: window, today: today)
    let asset = try await source(.coinGecko).resolve(route.base)
    let days = window.lowerBound.distance(to: today) + 1
    let client = coinGeckoClient()
    let currency = route.quote
    let answer = try await CachedFetch(cache: cache, mode: configuration.mode, now: now, notify: notify)
      .value(
        key: "\(Provider.coinGecko)/hourly/\(asset.id)-\(currency)-\(max(days, 2))",
        source: .provider(.coinGecko), freshness: HourlyHistory.freshness,
        what: "hourly \(asset.symbol)/\(currency)"
      ) {
        do {
          let points = try await client.hourlyChart(id: asset.id, currency: currency.text, days: days)
          return try AnswerGate.series(
            points.map { ($0.date, $0.rate) },
            inside: AnswerGate.instants(of: window, now: now()), asked: window,
            provider: Provider.coinGecko, endpoint: "/coins/{id}/market_chart"
          ).map { SeriesPoint(date: $0.0, rate: $0.1) }
        } catch let error as ProviderError {
          throw error.about(asset, typed: asset.symbol)
        }
      }
    let points = answer.value.filter {
      $0.date >= window.lowerBound.start && $0.date < window.upperBound.end
    }
    var series = Series(
      base: asset.symbol, quote: currency, source: .provider(.coinGecko),
      fetchedAt: answer.fetchedAt, points: points)
    if route.inverted { series = series.inverted() }
    return HourlyResult(series: series, staleness: answer.staleness, asset: asset)
  }
}
