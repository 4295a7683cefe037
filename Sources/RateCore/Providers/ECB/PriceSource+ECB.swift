extension PriceSource {
  /// ECB reference rates from the ECB itself (``ECBClient``): the same figures
  /// as Frankfurter's, fiat currencies only, fresh for an hour. A pair is
  /// `rate[quote] / rate[base]` of the EUR-based figures, as Frankfurter
  /// computes it, so both sources give the same number for the same day.
  ///
  /// Current rates come from the daily file, dated by their ECB day; it holds
  /// one day, so they carry no change figure. A pair whose code the day lacks
  /// is left out; none at all is ``ProviderError/noData(provider:detail:)``.
  /// Closes carry `ecb` as their ``DailyCloses/source``.
  public static func ecb(
    client: ECBClient, now: @escaping @Sendable () -> Date,
    offlineRates: @autoclosure @escaping @Sendable () -> ECBSnapshot? = ECBSnapshot.embedded
  ) -> PriceSource {
    let name = Provider.ecb
    @Sendable func code(_ input: String) throws -> String { try fiatCode(input, provider: name) }
    return PriceSource(
      name: name, freshness: CacheFreshness.referenceRate, carriesForward: true,
      offlineRates: offlineRates(), firstDay: FrankfurterClient.firstDay,
      resolve: { Asset(symbol: try code($0), id: try code($0)) },
      validateQuote: { _ = try code($0.text) },
      prices: { pairs in
        let (day, rates) = try await client.latest()
        let fetchedAt = now()
        let quotes = pairs.compactMap { pair -> Quote? in
          guard let base = rates[CurrencyCode(pair.asset.id)], let quote = rates[pair.quote]
          else { return nil }
          return Quote(
            base: pair.asset.symbol, quote: pair.quote, rate: Figure.crossRate(quote, per: base), change24hPercent: nil,
            source: .provider(name), fetchedAt: fetchedAt, updatedAt: day.start)
        }
        guard !quotes.isEmpty || pairs.isEmpty else {
          let asked = pairs.map { "\($0.asset.id)/\($0.quote)" }.joined(separator: ", ")
          throw ProviderError.noData(provider: .provider(name), detail: "no ECB rate for \(asked) on \(day)")
        }
        return quotes
      },
      dailyCloses: { asset, currency, days in
        try await ecbCloses(
          of: asset, in: currency, days: days, provider: name, labelled: true, now: now,
          series: client.timeSeries)
      })
  }
}
