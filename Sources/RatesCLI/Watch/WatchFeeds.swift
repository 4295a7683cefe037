import RateCore

/// The feeds and targets for a watch: each request routed to its provider,
/// resolved, and given one feed per provider.
struct WatchPlan {
  var feeds: [WatchFeed]
  var requestTargets: [(request: WatchCommand.Request, target: WatchEngine.Target)]

  static func make(
    requests: [WatchCommand.Request], invocation: Invocation, meter: RequestMeter
  ) async throws -> WatchPlan {
    let desk = invocation.watchDesk(meter: meter)
    let routes = try requests.map { try desk.route($0.base, $0.quote) }
    var providers: [Provider] = []
    for route in routes where !providers.contains(route.provider) { providers.append(route.provider) }
    let sources = Dictionary(uniqueKeysWithValues: providers.map { ($0, desk.source($0)) })
    var pairsByProvider: [Provider: [AssetQuote]] = [:]
    var targets: [(WatchCommand.Request, WatchEngine.Target)] = []
    for (request, route) in zip(requests, routes) {
      guard let source = sources[route.provider],
        let feedIndex = providers.firstIndex(of: route.provider)
      else { continue }
      try source.validateQuote(route.quote)
      let asset: Asset
      if let known = request.asset, !route.inverted, route.provider == .coinGecko {
        asset = known
      } else {
        asset = try await source.resolve(route.base)
      }
      let pair = AssetQuote(asset: asset, quote: route.quote)
      var pairs = pairsByProvider[route.provider, default: []]
      let pairIndex = pairs.firstIndex(of: pair) ?? pairs.count
      if pairIndex == pairs.count { pairs.append(pair) }
      pairsByProvider[route.provider] = pairs
      targets.append(
        (request,
         WatchEngine.Target(
          feed: feedIndex, pair: pairIndex, inverted: route.inverted,
          base: route.inverted ? route.quote : asset.symbol,
          quote: route.inverted ? asset.symbol : route.quote)))
    }
    let feeds = providers.map { provider in
      WatchFeeds.feed(provider, pairs: pairsByProvider[provider, default: []], desk: desk)
    }
    return WatchPlan(feeds: feeds, requestTargets: targets)
  }
}

extension Invocation {
  /// The transport for `rates watch`: no hidden retries (the watch keeps its
  /// own schedule), and every request counted in `meter` for `provider`.
  func watchTransport(provider: String, meter: RequestMeter) -> HTTPTransport {
    let base = context.makeTransport(settings.timeoutSeconds).retrying(.none, sleep: context.sleep)
    let now = context.now
    return HTTPTransport { request in
      await meter.record(provider, at: now())
      return try await base.send(request)
    }
  }

  /// The desk a watch fetches through: always refreshing, on the metered transport.
  func watchDesk(meter: RequestMeter) -> RateDesk {
    RateDesk(
      configuration: deskConfiguration(mode: .refresh),
      transport: { provider in watchTransport(provider: provider.rawValue, meter: meter) },
      now: context.now, notify: { [context] in context.writeErr(NoticeText.line($0) + "\n") })
  }
}

/// The feeds `rates watch` builds from the desk.
enum WatchFeeds {
  /// The feed for `provider`'s `pairs`.
  static func feed(_ provider: Provider, pairs: [AssetQuote], desk: RateDesk) -> WatchFeed {
    switch provider {
    case .frankfurter:
      return ecb(pairs: pairs, desk: desk)
    case .coinGecko:
      return prices(
        service: desk.service(provider), pairs: pairs, now: desk.now,
        seedHistory: coinGeckoHistory(pairs, desk))
    case .coinDesk, .coinbase, .kraken, .ecb:
      return prices(service: desk.service(provider), pairs: pairs, now: desk.now)
    }
  }

  /// Prices through `service`, which must be in refresh mode (always one
  /// request, the cache updated). A stale answer is thrown as the failure
  /// behind it: the board keeps the last values itself, marked stale.
  static func prices(
    service: RateService, pairs: [AssetQuote], now: @escaping @Sendable () -> Date,
    seedHistory: @escaping @Sendable (Int) async -> [[Double]]? = { _ in nil }
  ) -> WatchFeed {
    let provider = service.source.name
    return WatchFeed(
      provider: provider, pairs: pairs, refreshEvery: 0,
      cached: {
        let quotes = service.cachedQuotes(for: pairs)
        return WatchFeed.Snapshot(quotes: quotes, fetchedAt: quotes.compactMap { $0?.fetchedAt }.min())
      },
      seedHistory: seedHistory,
      fetch: {
        let result = try await service.quotes(for: pairs)
        if let staleness = result.staleness {
          throw staleness.reason ?? ProviderError.noData(provider: provider, detail: "no fresh prices")
        }
        return WatchFeed.Snapshot(quotes: result.aligned(with: pairs), fetchedAt: now())
      })
  }

  /// CoinGecko history: 7 days (one point per 6 hours) from one
  /// `/coins/markets?sparkline=true` per quote currency, cached for a minute,
  /// as many currencies as the request allowance permits.
  static func coinGeckoHistory(_ pairs: [AssetQuote], _ desk: RateDesk)
    -> @Sendable (Int) async -> [[Double]]?
  {
    let service = desk.with(mode: .normal).marketService()
    return { allowance in
      var currencies: [String] = []
      for pair in pairs where !currencies.contains(pair.quote) { currencies.append(pair.quote) }
      var byPair: [AssetQuote: [Double]] = [:]
      for currency in currencies.prefix(max(allowance, 0)) {
        let coins = pairs.filter { $0.quote == currency }.map(\.asset)
        guard let answer = try? await service.markets(currency: currency, coins: coins, sparkline: true)
        else { continue }
        for pair in pairs where pair.quote == currency {
          let hourly = answer.value.first { $0.id == pair.asset.id }?.sparkline7d ?? []
          byPair[pair] = SparklineSampling.weekOfHourly(hourly)
        }
      }
      return pairs.map { byPair[$0] ?? [] }
    }
  }

  /// ECB rates: one time series of the last 10 days for every fiat pair (shared with
  /// `rates pairs` in the cache), at most once an hour, from Frankfurter or the ECB behind it
  /// (``RateDesk/recentFiatSeries(each:)``), each quote named by its source; it gives the
  /// rate, its change since the previous working day and the history.
  static func ecb(pairs: [AssetQuote], desk: RateDesk) -> WatchFeed {
    let keys = pairs.map { CurrencyPairKey(base: $0.asset.id, quote: $0.quote) }
    @Sendable func snapshot(
      _ series: [CurrencyPairKey: [RatePoint]], fetchedAt: Date, sources: [CurrencyPairKey: String]
    ) -> WatchFeed.Snapshot {
      var quotes: [Quote?] = []
      var history: [[Double]] = []
      for (pair, key) in zip(pairs, keys) {
        let points = series[key] ?? []
        history.append(points.map(\.rate))
        quotes.append(
          points.last.map { last in
            Quote(
              base: pair.asset.symbol, quote: pair.quote, rate: last.rate,
              change24hPercent: Change.lastStep(points.map(\.rate)),
              source: sources[key] ?? Providers.frankfurter,
              fetchedAt: fetchedAt, updatedAt: last.date.start)
          })
      }
      return WatchFeed.Snapshot(quotes: quotes, history: history, fetchedAt: fetchedAt)
    }
    return WatchFeed(
      provider: Provider.frankfurter.rawValue, pairs: pairs,
      refreshEvery: CacheFreshness.referenceRate,
      cached: {
        guard let entry = desk.cachedRecentFiatSeries(keys) else {
          return WatchFeed.Snapshot(quotes: pairs.map { _ in nil }, fetchedAt: nil)
        }
        return snapshot(
          entry.value, fetchedAt: entry.fetchedAt,
          sources: Dictionary(keys.map { ($0, entry.source) }, uniquingKeysWith: { first, _ in first }))
      },
      fetch: {
        let parts = try await fiatParts(keys, pairs: pairs, desk: desk)
        var fetched = snapshot(parts.series, fetchedAt: parts.fetchedAt, sources: parts.sources)
        fetched.missing = parts.missing
        return fetched
      })
  }

  /// The ECB series of `keys` (``RateDesk/recentFiatSeries(each:)``): a pair that fails is
  /// missing while the others arrive. Throws when none arrives, or when cached data stood in
  /// (the failure behind it: the board keeps the last values itself, marked stale).
  static func fiatParts(_ keys: [CurrencyPairKey], pairs: [AssetQuote], desk: RateDesk) async throws
    -> FiatParts
  {
    var series: [CurrencyPairKey: [RatePoint]] = [:]
    var sources: [CurrencyPairKey: String] = [:]
    var fetchedAt: Date?
    var missing: [MissingFigure] = []
    for (index, result) in await desk.recentFiatSeries(each: keys).enumerated() {
      switch result {
      case .success(let answer):
        if let staleness = answer.staleness {
          throw staleness.reason
            ?? ProviderError.noData(provider: Providers.frankfurter, detail: "no fresh rates")
        }
        series[keys[index]] = answer.value
        sources[keys[index]] = answer.source
        fetchedAt = min(fetchedAt ?? answer.fetchedAt, answer.fetchedAt)
      case .failure(let error):
        missing.append(MissingFigure("\(pairs[index].asset.symbol)/\(pairs[index].quote)", failure: error))
      }
    }
    guard let fetchedAt else {
      throw missing.first?.failure
        ?? ProviderError.noData(provider: Providers.frankfurter, detail: "no rates")
    }
    return FiatParts(series: series, fetchedAt: fetchedAt, missing: missing, sources: sources)
  }

  /// What ``fiatParts(_:pairs:desk:)`` found: the series that arrived, when, the pairs that
  /// failed, and the source that answered for each pair.
  struct FiatParts {
    var series: [CurrencyPairKey: [RatePoint]]
    var fetchedAt: Date
    var missing: [MissingFigure]
    var sources: [CurrencyPairKey: String]
  }
}
