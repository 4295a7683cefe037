import RateCore
import Synchronization

/// The feeds and targets for a watch: each request routed to its provider,
/// resolved, and given one feed per provider.
struct WatchPlan {
  var feeds: [WatchFeed]
  var requestTargets: [(request: WatchCommand.Request, target: WatchEngine.Target)]

  static func make(
    requests: [WatchCommand.Request], invocation: Invocation, meter: RequestMeter
  ) async throws -> WatchPlan {
    let desk = invocation.watchDesk(meter: meter)
    let ledger = LedgerReader { try invocation.userData().ledger.read().entries }
    let routes = try requests.map { try route($0, desk: desk, ledger: ledger) }
    var providers: [RateSource] = []
    for route in routes where !providers.contains(route.name) { providers.append(route.name) }
    var pairsByProvider: [RateSource: [AssetQuote]] = [:]
    var targets: [(WatchCommand.Request, WatchEngine.Target)] = []
    for (request, route) in zip(requests, routes) {
      guard let feedIndex = providers.firstIndex(of: route.name) else { continue }
      let asset: Asset
      switch route {
      case .street:
        let code = CurrencyCode(request.base).text
        asset = Asset(symbol: code, id: code)
      case .provider(let route):
        let source = desk.source(route.provider)
        try source.validateQuote(route.quote)
        if let known = request.asset, !route.inverted, route.provider == .coinGecko {
          asset = known
        } else {
          asset = try await source.resolve(route.base)
        }
      }
      let (quote, inverted) = route.quote(request)
      let pair = AssetQuote(asset: asset, quote: quote)
      var pairs = pairsByProvider[route.name, default: []]
      let pairIndex = pairs.firstIndex(of: pair) ?? pairs.count
      if pairIndex == pairs.count { pairs.append(pair) }
      pairsByProvider[route.name] = pairs
      targets.append(
        (
          request,
          WatchEngine.Target(
            feed: feedIndex, pair: pairIndex, inverted: inverted,
            base: inverted ? quote.text : asset.symbol, quote: inverted ? asset.symbol : quote.text)
        ))
    }
    let feeds = providers.map { name in
      let pairs = pairsByProvider[name, default: []]
      guard let provider = name.provider else {
        return WatchFeeds.street(pairs: pairs, ledger: ledger, now: invocation.context.now)
      }
      return WatchFeeds.feed(provider, pairs: pairs, desk: desk)
    }
    return WatchPlan(feeds: feeds, requestTargets: targets)
  }

  /// Where a request's prices come from: a provider, or the ledger's street rate.
  enum Route {
    case provider(PairRoute)
    case street

    /// The feed's source: the provider, or ``RateSource/ledger``.
    var name: RateSource {
      switch self {
      case .provider(let route): return .provider(route.provider)
      case .street: return .ledger
      }
    }

    /// The currency the feed prices in, and whether the request is its inverse.
    func quote(_ request: WatchCommand.Request) -> (CurrencyCode, Bool) {
      switch self {
      case .provider(let route): return (route.quote, route.inverted)
      case .street: return (CurrencyCode(request.quote), false)
      }
    }
  }

  /// A request's route: the ledger for a street-rate pair, and for a pair no provider serves
  /// that the ledger has exchanges of; else the provider's.
  static func route(_ request: WatchCommand.Request, desk: RateDesk, ledger: LedgerReader) throws
    -> Route
  {
    if request.street { return .street }
    do {
      return .provider(try desk.route(request.base, request.quote))
    } catch ProviderError.noProvider(let base, let quote) {
      guard
        StreetRate.isRecorded(
          base: CurrencyCode(base), quote: CurrencyCode(quote), entries: try ledger.entries())
      else {
        throw ProviderError.noProvider(base: base, quote: quote)
      }
      return .street
    }
  }
}

/// The ledger's entries for a watch: read when first asked for and kept, read again by
/// ``reread()`` (each update of a street-rate feed).
final class LedgerReader: Sendable {
  private let read: @Sendable () throws -> [LedgerEntry]
  private let kept = Mutex<[LedgerEntry]?>(nil)

  init(_ read: @escaping @Sendable () throws -> [LedgerEntry]) { self.read = read }

  /// The entries as last read (read now if never).
  func entries() throws -> [LedgerEntry] {
    if let entries = kept.withLock({ $0 }) { return entries }
    return try reread()
  }

  /// The entries read now.
  func reread() throws -> [LedgerEntry] {
    let entries = try read()
    kept.withLock { $0 = entries }
    return entries
  }
}

extension Invocation {
  /// The transport for `rates watch`: no hidden retries (the watch keeps its
  /// own schedule), and every request counted in `meter` for `provider`.
  func watchTransport(provider: RateSource, meter: RequestMeter) -> HTTPTransport {
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
      configuration: Self.deskConfiguration(settings, mode: .refresh),
      transport: { provider in watchTransport(provider: .provider(provider), meter: meter) },
      now: context.now, notify: { [context] in context.writeErr(NoticeText.line($0) + "\n") })
  }
}

/// The feeds `rates watch` builds from the desk.
enum WatchFeeds {
  /// Street rates (``StreetRate``) from the ledger, read again on every update (a local
  /// file, no request): each pair's rate, change and week as `rates pairs` shows them.
  static func street(pairs: [AssetQuote], ledger: LedgerReader, now: @escaping @Sendable () -> Date)
    -> WatchFeed
  {
    @Sendable func snapshot(_ entries: [LedgerEntry]) -> WatchFeed.Snapshot {
      let at = now()
      var quotes: [Quote?] = []
      var history: [[Double]] = []
      var missing: [MissingFigure] = []
      for pair in pairs {
        let configured = ConfiguredPair(
          base: pair.asset.symbol, quote: pair.quote.text, addedAt: at, source: .ledger)
        do {
          let street = try StreetRate.snapshot(configured, entries: entries, now: at)
          quotes.append(
            street.rate.map {
              Quote(
                base: configured.base, quote: pair.quote, rate: $0,
                change24hPercent: street.changePercent, source: .ledger, fetchedAt: at,
                updatedAt: street.updatedAt)
            })
          history.append(street.points)
        } catch {
          quotes.append(nil)
          history.append([])
          missing.append(MissingFigure(configured.displayName, failure: error))
        }
      }
      return WatchFeed.Snapshot(quotes: quotes, history: history, fetchedAt: at, missing: missing)
    }
    return WatchFeed(
      provider: .ledger, pairs: pairs, refreshEvery: 0,
      cached: { snapshot((try? ledger.entries()) ?? []) },
      fetch: { snapshot(try ledger.reread()) })
  }

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
    let provider = RateSource.provider(service.source.name)
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

  /// CoinGecko history: 7 days (one point per 6 hours, then the current price: the week
  /// `pairs` and the home list draw) from one `/coins/markets?sparkline=true` per quote
  /// currency, cached for a minute, as many currencies as the request allowance permits.
  static func coinGeckoHistory(_ pairs: [AssetQuote], _ desk: RateDesk)
    -> @Sendable (Int) async -> [[Double]]?
  {
    let service = desk.with(mode: .normal).marketService()
    return { allowance in
      var currencies: [CurrencyCode] = []
      for pair in pairs where !currencies.contains(pair.quote) { currencies.append(pair.quote) }
      var byPair: [AssetQuote: [Double]] = [:]
      for currency in currencies.prefix(max(allowance, 0)) {
        let coins = pairs.filter { $0.quote == currency }.map(\.asset)
        guard let answer = try? await service.markets(currency: currency, coins: coins, sparkline: true)
        else { continue }
        for pair in pairs where pair.quote == currency {
          byPair[pair] = answer.value.first { $0.id == pair.asset.id }?.week ?? []
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
    let keys = pairs.map { CurrencyPairKey(base: CurrencyCode($0.asset.id), quote: $0.quote) }
    @Sendable func snapshot(
      _ series: [CurrencyPairKey: [RatePoint]], fetchedAt: Date, sources: [CurrencyPairKey: RateSource]
    ) -> WatchFeed.Snapshot {
      var quotes: [Quote?] = []
      var history: [[Double]] = []
      let today = Day(containing: fetchedAt)
      for (pair, key) in zip(pairs, keys) {
        let points = series[key] ?? []
        history.append(points.isEmpty ? [] : RateDesk.fiatWeek(points, today: today))
        quotes.append(
          points.last.map { last in
            Quote(
              base: pair.asset.symbol, quote: pair.quote, rate: last.rate,
              change24hPercent: Change.lastStep(points.map(\.rate)),
              source: sources[key] ?? .provider(.frankfurter),
              fetchedAt: fetchedAt, updatedAt: last.date.start)
          })
      }
      return WatchFeed.Snapshot(quotes: quotes, history: history, fetchedAt: fetchedAt)
    }
    return WatchFeed(
      provider: .provider(.frankfurter), pairs: pairs,
      refreshEvery: CacheFreshness.referenceRate,
      cached: {
        guard let entry = desk.cachedRecentFiatSeries(keys) else {
          return WatchFeed.Snapshot(quotes: pairs.map { _ in nil }, fetchedAt: nil)
        }
        return snapshot(
          entry.value, fetchedAt: entry.fetchedAt,
          sources: Dictionary(
            keys.compactMap { key in entry.source.map { (key, $0) } }, uniquingKeysWith: { first, _ in first }))
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
    var sources: [CurrencyPairKey: RateSource] = [:]
    var fetchedAt: Date?
    var missing: [MissingFigure] = []
    for (index, result) in await desk.recentFiatSeries(each: keys).enumerated() {
      switch result {
      case .success(let answer):
        if let staleness = answer.staleness {
          throw staleness.reason
            ?? ProviderError.noData(provider: .provider(.frankfurter), detail: "no fresh rates")
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
        ?? ProviderError.noData(provider: .provider(.frankfurter), detail: "no rates")
    }
    return FiatParts(series: series, fetchedAt: fetchedAt, missing: missing, sources: sources)
  }

  /// What ``fiatParts(_:pairs:desk:)`` found: the series that arrived, when, the pairs that
  /// failed, and the source that answered for each pair.
  struct FiatParts {
    var series: [CurrencyPairKey: [RatePoint]]
    var fetchedAt: Date
    var missing: [MissingFigure]
    var sources: [CurrencyPairKey: RateSource]
  }
}
