extension PriceSource {
  /// `input` upper-cased when it is a fiat currency code the ECB publishes, else the
  /// provider's ``ProviderError/invalidCurrency(provider:currency:)``: the check both ECB
  /// sources (Frankfurter and the ECB itself) make.
  static func fiatCode(_ input: String, provider: Provider) throws -> String {
    let code = CurrencyCode(input)
    guard FiatCurrencies.ecb[code.text] != nil else {
      throw ProviderError.invalidCurrency(provider: .provider(provider), currency: input)
    }
    return code.text
  }

  /// The daily closes of `asset` in `currency` for `days` from an ECB source's `series`, the
  /// check both ECB sources make: asked past the end by ``AnswerGate``'s margin, the days
  /// after the end dropped; the newest rate is the latest only when the span reaches today.
  /// `labelled`: the closes name `provider` as their ``DailyCloses/source``.
  static func ecbCloses(
    of asset: Asset, in currency: CurrencyCode, days: ClosedRange<Day>, provider: Provider,
    labelled: Bool, now: () -> Date,
    series: (_ pairs: [CurrencyPairKey], _ start: Day, _ end: Day) async throws -> [CurrencyPairKey: [RatePoint]]
  ) async throws -> DailyCloses {
    let today = Day(containing: now())
    let key = CurrencyPairKey(base: CurrencyCode(asset.id), quote: currency)
    let end = min(days.upperBound, today)
    let asked = AnswerGate.requested(days.lowerBound...end, through: today)
    let closes = (try await series([key], days.lowerBound, asked.upperBound)[key] ?? []).filter { $0.date <= end }
    let latest = closes.last.flatMap { end < today ? nil : $0 }.map {
      Quote(
        base: asset.symbol, quote: currency, rate: $0.rate, change24hPercent: nil, source: .provider(provider),
        fetchedAt: now(), updatedAt: $0.date.start)
    }
    return DailyCloses(closes: closes, latest: latest, source: labelled ? .provider(provider) : nil)
  }

  /// ECB reference rates through Frankfurter: fiat currencies only, one
  /// request for any number of pairs, fresh for an hour.
  ///
  /// Current rates come from the last week's series, so each carries its
  /// change since the previous ECB working day (reported as the 24-hour
  /// change) and is dated by its ECB day, not by when it was fetched.
  ///
  /// When Frankfurter is unreachable and nothing is cached, `offlineRates`
  /// (by default the ECB snapshot built into `rates`) answers, marked stale.
  public static func frankfurter(
    client: FrankfurterClient, now: @escaping @Sendable () -> Date,
    offlineRates: @autoclosure @escaping @Sendable () -> ECBSnapshot? = ECBSnapshot.embedded
  ) -> PriceSource {
    let name = Provider.frankfurter
    @Sendable func code(_ input: String) throws -> String { try fiatCode(input, provider: name) }
    return PriceSource(
      name: name,
      freshness: CacheFreshness.referenceRate,
      carriesForward: true,
      offlineRates: offlineRates(),
      firstDay: FrankfurterClient.firstDay,
      resolve: { Asset(symbol: try code($0), id: try code($0)) },
      validateQuote: { _ = try code($0.text) },
      prices: { pairs in
        let today = Day(containing: now())
        let keys = pairs.map { CurrencyPairKey(base: CurrencyCode($0.asset.id), quote: $0.quote) }
        let series = try await client.timeSeries(
          pairs: keys, start: today.adding(days: -7), end: today)
        let fetchedAt = now()
        return try zip(pairs, keys).map { pair, key in
          guard let last = series[key]?.last else {
            throw ProviderError.noData(provider: .provider(name), detail: "no ECB rate for \(key) this week")
          }
          return Quote(
            base: pair.asset.symbol, quote: pair.quote, rate: last.rate,
            change24hPercent: Change.lastStep((series[key] ?? []).map(\.rate)),
            source: .provider(name), fetchedAt: fetchedAt, updatedAt: last.date.start)
        }
      },
      dailyCloses: { asset, currency, days in
        try await ecbCloses(
          of: asset, in: currency, days: days, provider: name, labelled: false, now: now,
          series: client.dailySeries)
      })
  }
}
