extension RateDesk {
  /// A current quote for a route, as asked (inverted back for a fiat/coin
  /// pair), with its own provider's staleness.
  public struct RoutedQuote: Sendable {
    /// The quote, in the orientation the user asked for.
    public var quote: Quote
    /// Set when cached data stands in for a fresh answer from its provider.
    public var staleness: Staleness?
    /// The coin or currency the route's provider resolved for the pair (the coin of a
    /// fiat/coin pair): what names it in a journal (see ``CommodityName/of(_:source:resolved:)``).
    public var asset: Asset
  }

  /// Current quotes for `routes`, in their order: one call per provider,
  /// concurrently, each batching all of its routes. A route its provider
  /// sent nothing for is `nil`; the first failure (in route order) is thrown.
  public func quotes(for routes: [PairRoute]) async throws -> [RoutedQuote?] {
    try await quoteResults(for: routes).map { try $0.get() }
  }

  /// Current quotes for `routes`, in their order, each with its own outcome: one call per
  /// provider, concurrently, each batching all of its routes (route by route when a batch is
  /// refused for one of them at a provider that ``Provider/refusesWholeBatch``,
  /// ``partByPart(_:_:)``). A route its provider sent nothing for is
  /// `.success(nil)`; a provider that fails fails its routes alone.
  public func quoteResults(for routes: [PairRoute]) async -> [Result<RoutedQuote?, any Error>] {
    // Arrays searched in order, not a `Set` or dictionaries keyed by `Provider`: its `Hashable`
    // conformance costs a run-time lookup (a scan of every conformance) for a provider or two.
    var providers: [Provider] = []
    for route in routes where !providers.contains(route.provider) { providers.append(route.provider) }
    providers.sort { $0.rawValue < $1.rawValue }
    let answers = await withTaskGroup(of: ProviderAnswer.self) { group in
      for provider in providers {
        let mine = routes.filter { $0.provider == provider }
        group.addTask {
          let ask: @Sendable ([PairRoute]) async throws -> [Result<RoutedQuote?, any Error>] = {
            try await routedQuotes($0, at: provider)
          }
          let results =
            provider.refusesWholeBatch
            ? await partByPart(mine, ask)
            : await Result { try await ask(mine) }.wholeBatch(mine.count)
          return ProviderAnswer(provider: provider, results: results.map { $0.flatMap { $0 } })
        }
      }
      var answers: [ProviderAnswer] = []
      for await answer in group { answers.append(answer) }
      return answers
    }
    var next = [Int](repeating: 0, count: answers.count)
    return routes.map { route in
      guard let at = answers.firstIndex(where: { $0.provider == route.provider }) else {
        return .success(nil)
      }
      next[at] += 1
      return answers[at].results.dropFirst(next[at] - 1).first ?? .success(nil)
    }
  }

  /// One provider's answers inside ``quoteResults(for:)``'s task group (a struct,
  /// not a tuple: tuples of results were miscompiled in release builds).
  private struct ProviderAnswer: Sendable {
    var provider: Provider
    /// One per route of this provider, in order.
    var results: [Result<RoutedQuote?, any Error>]
  }

  /// Current quotes for routes that all go to `provider`, in one request, in their order
  /// (inverted back for a fiat/coin pair); `nil` for a route the answer lacks, or its
  /// failure when the source knows why (``RateService/QuotesResult/reasons``).
  private func routedQuotes(_ routes: [PairRoute], at provider: Provider) async throws
    -> [Result<RoutedQuote?, any Error>]
  {
    let (result, pairs) = try await quotes(routes, at: provider)
    let aligned = result.aligned(with: pairs)
    return zip(routes, zip(pairs, aligned)).map { route, item in
      if item.1 == nil, let reason = result.reasons[item.0] { return .failure(reason) }
      // A price with no inverse (zero) is no price for an inverted route.
      return .success(
        item.1.flatMap { route.inverted ? $0.inverted() : $0 }.map { quote in
          RoutedQuote(quote: quote, staleness: result.staleness, asset: item.0.asset)
        })
    }
  }

  /// Current quotes for routes that all go to `provider`, in one request.
  private func quotes(_ routes: [PairRoute], at provider: Provider) async throws
    -> (RateService.QuotesResult, [AssetQuote])
  {
    let source = source(provider)
    var pairs: [AssetQuote] = []
    for route in routes {
      try source.validateQuote(route.quote)
      pairs.append(AssetQuote(asset: try await source.resolve(route.base), quote: route.quote))
    }
    return (try await service(provider).quotes(for: pairs), pairs)
  }

  /// The last `days` days of `base` in `quote`, from the provider the pair
  /// routes to (inverted for a fiat/coin pair); for a pair with a currency
  /// that ended, the `days` days up to its last rate, from the snapshot.
  public func history(base: String, quote: String, days: Int) async throws
    -> RateService.HistoryResult
  {
    if let last = endedCurrency(base: base, quote: quote)?.lastDay {
      let window = last.adding(days: -(days - 1))...last
      return try retiredHistory(base: base, quote: quote, window: window)
    }
    let route = try route(base, quote)
    var result = try await service(route.provider).history(
      of: route.base, in: route.quote, days: days)
    if route.inverted { result.series = result.series.inverted() }
    return result
  }

  /// The days of `window` (cut at today) of `base` in `quote`, from the
  /// provider the pair routes to (inverted for a fiat/coin pair).
  ///
  /// - Parameter followsData: `window` is "the last N days", not a range the
  ///   user named: data that ends before it (a recorded mirror, the ECB
  ///   snapshot) may then be shown as its own last N days. A named range is
  ///   never moved.
  public func history(
    base: String, quote: String, window: ClosedRange<Day>, followsData: Bool = false
  ) async throws -> RateService.HistoryResult {
    let window = try checkedWindow(base: base, quote: quote, window)
    if isServedFromSnapshot(base, quote) {
      return try retiredHistory(base: base, quote: quote, window: window)
    }
    let route = try route(base, quote)
    var result = try await service(route.provider).history(
      of: route.base, in: route.quote, window: window, followsData: followsData)
    if route.inverted { result.series = result.series.inverted() }
    return result
  }

  /// The ECB rates of the last ten days for `keys`, in one request, cached
  /// for an hour under one key for the set (shared by `pairs` and `watch`):
  /// enough for a week of rates and the working day before it.
  public func recentFiatSeries(_ keys: [CurrencyPairKey]) async throws
    -> CachedAnswer<[CurrencyPairKey: [RatePoint]]>
  {
    let today = Day(containing: now())
    return try await CachedFetch(cache: cache, mode: configuration.mode, now: now, notify: notify)
      .sourcedValue(
        key: Self.recentFiatKey(keys), freshness: CacheFreshness.referenceRate,
        what: "your fiat pairs"
      ) { try await fiatSeries(keys, start: today.adding(days: -10), end: today) }
  }

  /// The ECB rates of `keys` from `start` to `end` and the source that answered: Frankfurter,
  /// or, unless a provider is pinned, the ECB itself when Frankfurter fails in a way the
  /// currency chain passes on (``SourceChain``: its pauses and rules).
  func fiatSeries(_ keys: [CurrencyPairKey], start: Day, end: Day) async throws
    -> ([CurrencyPairKey: [RatePoint]], RateSource)
  {
    let frankfurter = frankfurterClient()
    let ecb = ecbClient()
    var sources = [PriceSource.frankfurter(client: frankfurter, now: now)]
    if configuration.forcedProvider == nil { sources.append(.ecb(client: ecb, now: now)) }
    let asker = SourceChain.Asker(
      sources: sources, pauses: ProviderPauses(cacheFolder: configuration.cacheDirectory), now: now)
    let question = SourceChain.Question(
      pairs: NameList.capped(keys.map { "\($0.base)/\($0.quote)" }), closes: true)
    return try await asker.first(question) { source in
      source.name == .ecb
        ? (try await ecb.timeSeries(pairs: keys, start: start, end: end), .provider(.ecb))
        : (try await frankfurter.timeSeries(pairs: keys, start: start, end: end), .provider(source.name))
    }
  }

  /// ``recentFiatSeries(_:)`` for `keys`, one answer per key in their order: one request
  /// for the set, or pair by pair when the set is refused for one of them (a currency the
  /// provider lacks), so the pairs it serves arrive; a pair that fails has its failure.
  public func recentFiatSeries(each keys: [CurrencyPairKey]) async
    -> [Result<CachedAnswer<[RatePoint]>, any Error>]
  {
    await partByPart(keys) { part in
      let answer = try await recentFiatSeries(part)
      return part.map {
        CachedAnswer(
          value: answer.value[$0] ?? [], fetchedAt: answer.fetchedAt, staleness: answer.staleness,
          source: answer.source)
      }
    }
  }

  /// What ``recentFiatSeries(_:)`` last cached for `keys`, without asking the provider;
  /// nil when nothing usable is cached (`source`: nil when the entry names none `rates` knows).
  public func cachedRecentFiatSeries(_ keys: [CurrencyPairKey])
    -> (value: [CurrencyPairKey: [RatePoint]], fetchedAt: Date, source: RateSource?)?
  {
    cache.load([CurrencyPairKey: [RatePoint]].self, key: Self.recentFiatKey(keys)).entry
      .map { ($0.value, $0.fetchedAt, RateSource(name: $0.source)) }
  }

  /// The cache key of ``recentFiatSeries(_:)`` for a set of pairs.
  static func recentFiatKey(_ keys: [CurrencyPairKey]) -> String {
    let name = keys.map(\.description).sorted().joined(separator: ",")
    return "frankfurter/week/\(MarketService.keyPart(name))"
  }
}
