import Foundation

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
  /// working day on or before it (at most a week earlier), from one
  /// Frankfurter request for that week. Offline, or when Frankfurter is
  /// unreachable, the ECB snapshot built into `rates` answers, marked stale.
  /// Not cached (any day, however old; recent days go through ``history(base:quote:days:)``).
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
    let key = CurrencyPairKey(base: route.base, quote: route.quote)
    let client = frankfurterClient()
    let snapshot = source(.frankfurter).offlineRates
    let clock = now
    return try await CacheFallback.answer(
      mode: configuration.mode, hasCache: false, isFresh: false,
      fromCache: { _ in throw RateService.ServiceError.nothingCached("\(key.base)/\(key.quote)") },
      lastResort: { failure in
        guard let snapshot, let point = snapshot.rate(base: key.base, quote: key.quote, on: day)
        else { return nil }
        return DatedRate(
          point: point, source: snapshot.sourceName, fetchedAt: snapshot.publishedAt,
          staleness: RateService.staleness(of: snapshot, failure))
      }
    ) {
      let week = try await client.timeSeries(pairs: [key], start: day.adding(days: -7), end: day)
      guard let point = week[key]?.last(where: { $0.date <= day }) else {
        throw ProviderError.noData(
          provider: Providers.frankfurter, detail: "no ECB rate for \(key) on or before \(day)")
      }
      return DatedRate(
        point: point, source: Providers.frankfurter, fetchedAt: clock(), staleness: nil)
    }
  }
}
