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
        let today = Day(containing: now())
        let end = min(days.upperBound, today)
        let key = CurrencyPairKey(base: CurrencyCode(asset.id), quote: currency)
        // Past the end by AnswerGate's margin; the days after `end` dropped.
        let closes =
          (try await client.timeSeries(
            pairs: [key], start: days.lowerBound,
            end: AnswerGate.requested(days.lowerBound...end, through: today).upperBound)[key] ?? []).filter {
            $0.date <= end
          }
        let latest = closes.last.flatMap { end < today ? nil : $0 }.map {
          Quote(
            base: asset.symbol, quote: currency, rate: $0.rate, change24hPercent: nil, source: .provider(name),
            fetchedAt: now(), updatedAt: $0.date.start)
        }
        return DailyCloses(closes: closes, latest: latest, source: .provider(name))
      })
  }
}
