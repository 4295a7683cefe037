extension RateDesk {
  /// One day's ECB rate with its provenance.
  public struct DatedRate: Sendable {
    /// The rate, dated by the working day it was published for.
    public var point: RatePoint
    /// Who answered: `frankfurter`, or the snapshot (`ECB snapshot to …`).
    public var source: String
    /// When it was fetched (for the snapshot, when its last rate was due).
    public var fetchedAt: Date
    /// Set when the snapshot stands in for the provider.
    public var staleness: Staleness?
  }

  /// The ECB rate of the fiat pair `base`/`quote` on `day`: the rate of the
  /// working day on or before it (at most a week earlier). It is the history
  /// of that week (``history(base:quote:window:followsData:)``), so the day
  /// store answers a day once known, and offline or unreachable the ECB
  /// snapshot built into `rates` does, marked stale.
  ///
  /// - Throws: ``ProviderError/unsupported(provider:detail:)`` for a pair that
  ///   does not route to the ECB, ``ProviderError/noData(provider:detail:)``
  ///   when there is no rate that week, or the provider's failure.
  public func referenceRate(base: String, quote: String, on day: Day) async throws -> DatedRate {
    let route = try route(base, quote)
    guard route.provider == .frankfurter, !route.inverted else {
      throw ProviderError.unsupported(
        provider: route.provider.rawValue, detail: "\(base)/\(quote) has no ECB reference rate")
    }
    let result = try await history(base: base, quote: quote, window: day.adding(days: -7)...day)
    guard let point = result.series.points.last(where: { $0.date <= day && !$0.carried }) else {
      throw ProviderError.noData(
        provider: Providers.frankfurter, detail: "no ECB rate for \(base)/\(quote) on or before \(day)")
    }
    return DatedRate(
      point: RatePoint(date: point.date, rate: point.rate), source: result.series.source,
      fetchedAt: result.series.fetchedAt, staleness: result.staleness)
  }
}
