/// A pair's current rate, change and last week, for a board of pairs.
public struct PairSnapshot: Sendable, Equatable {
  /// The pair as the user configured it.
  public var pair: ConfiguredPair
  /// The latest rate, when the provider sent one.
  public var rate: Double?
  /// The provider's own change over ``changePeriod``, in percent.
  public var changePercent: Double?
  /// What the change covers.
  public var changePeriod: ChangePeriod
  /// The last week, oldest first, ending with the latest rate.
  public var points: [Double]
  /// The provider that answered.
  public var source: String
  /// When the data was fetched.
  public var fetchedAt: Date
  /// Set when cached data stands in for a fresh answer.
  public var staleness: Staleness?
  /// When the provider last updated the rate, when it says (the ECB day's
  /// start for a fiat pair): what ``UpdateRhythm`` judges.
  public var updatedAt: Date?
}

extension RateDesk {
  /// Current rate, change and a 7-day sparkline for each configured pair, in
  /// as few requests as possible: one Frankfurter time series for every fiat
  /// pair, one CoinGecko `/coins/markets` (with sparklines) per quote
  /// currency for the coin pairs, fetched concurrently; pairs a forced
  /// CoinDesk answers come from its daily closes.
  /// A pair with a currency that ended (added before it did) shows its last
  /// rate and week from the snapshot, dated by its last day, without a request.
  public func board(for pairs: [ConfiguredPair]) async throws -> [PairSnapshot] {
    let current = pairs.filter { !isServedFromSnapshot($0.base, $0.quote) }
    let routed = try current.map { (pair: $0, route: try route($0.base, $0.quote)) }
    async let fiat = fiatSnapshots(routed.filter { $0.route.provider == .frankfurter })
    async let coins = coinSnapshotsOrChain(routed.filter { $0.route.provider == .coinGecko })
    var byName: [String: PairSnapshot] = [:]
    for pair in pairs where isServedFromSnapshot(pair.base, pair.quote) {
      byName[pair.name] = try retiredSnapshot(pair)
    }
    for snapshot in try await fiat + coins { byName[snapshot.pair.name] = snapshot }
    for (pair, _) in routed where byName[pair.name] == nil {
      byName[pair.name] = try await closesSnapshot(pair)
    }
    return pairs.compactMap { byName[$0.name] }
  }

  /// A pair with a currency that ended: its last week from the snapshot.
  private func retiredSnapshot(_ pair: ConfiguredPair) throws -> PairSnapshot {
    let last = endedCurrency(base: pair.base, quote: pair.quote)?.lastDay ?? Day(containing: now())
    let result = try retiredHistory(
      base: pair.base, quote: pair.quote, window: last.adding(days: -6)...last)
    let series = result.series
    return PairSnapshot(
      pair: pair, rate: series.points.last?.rate,
      changePercent: Change.lastStep(series.ownPoints.map(\.rate)), changePeriod: .workingDay,
      points: series.points.map(\.rate), source: series.source, fetchedAt: series.fetchedAt,
      staleness: nil, updatedAt: series.ownPoints.last?.date.start)
  }

  /// A pair from a week of daily closes (CoinDesk when forced).
  private func closesSnapshot(_ pair: ConfiguredPair) async throws -> PairSnapshot {
    let result = try await history(base: pair.base, quote: pair.quote, days: 7)
    let values = result.series.points.map(\.rate)
    return PairSnapshot(
      pair: pair, rate: values.last, changePercent: Change.lastStep(values),
      changePeriod: .workingDay, points: values, source: result.series.source,
      fetchedAt: result.series.fetchedAt, staleness: result.staleness)
  }

  /// All fiat pairs from one cached time series of the last ten days.
  private func fiatSnapshots(_ routed: [(pair: ConfiguredPair, route: PairRoute)]) async throws
    -> [PairSnapshot]
  {
    guard !routed.isEmpty else { return [] }
    let today = Day(containing: now())
    let keys = routed.map { CurrencyPairKey(base: $0.route.base, quote: $0.route.quote) }
    let answer = try await recentFiatSeries(keys)
    return zip(routed, keys).map { item, key in
      let series = answer.value[key] ?? []
      let byDay = Dictionary(series.map { ($0.date, $0) }, uniquingKeysWith: { $1 })
      let week = MarketClosure.rates(in: today.adding(days: -6)...today, today: today) { byDay[$0] }
      return PairSnapshot(
        pair: item.pair, rate: week.last?.rate,
        // From the previous working day's rate, not a carried copy.
        changePercent: Change.lastStep(series.map(\.rate)), changePeriod: .workingDay,
        points: week.map(\.rate), source: Providers.frankfurter, fetchedAt: answer.fetchedAt,
        staleness: answer.staleness, updatedAt: series.last?.date.start)
    }
  }

  /// Coin pairs from CoinGecko's markets (``coinSnapshots(_:)``); when those failed in a
  /// way the chain passes on, or only their cache stood in, and no provider is pinned: each
  /// pair's week of closes and price from the coin chain (Coinbase, Kraken for the pairs they
  /// list), named by the source that answered. A pair the chain cannot answer afresh keeps
  /// CoinGecko's stale row; when the markets failed, every pair must be answered, or their
  /// failure stands.
  private func coinSnapshotsOrChain(_ routed: [(pair: ConfiguredPair, route: PairRoute)])
    async throws -> [PairSnapshot]
  {
    let markets: Result<[PairSnapshot], any Error>
    do { markets = .success(try await coinSnapshots(routed)) } catch { markets = .failure(error) }
    let shown = (try? markets.get()) ?? []
    let fresh = shown.count == routed.count && shown.allSatisfy { $0.staleness == nil }
    guard !fresh, configuration.forcedProvider == nil else { return try markets.get() }
    if case .failure(let error) = markets {
      guard let failure = error as? ProviderError, SourceChain.fallsThrough(failure) else { throw error }
    }
    var byName = Dictionary(shown.map { ($0.pair.name, $0) }, uniquingKeysWith: { $1 })
    for (pair, _) in routed where byName[pair.name].map({ $0.staleness != nil }) ?? true {
      guard let answer = try? await closesSnapshot(pair), answer.staleness == nil else { continue }
      byName[pair.name] = answer
    }
    guard routed.allSatisfy({ byName[$0.pair.name] != nil }) else { return try markets.get() }
    return routed.compactMap { byName[$0.pair.name] }
  }

  /// Coin pairs: one `/coins/markets?ids=…&sparkline=true` per quote currency.
  private func coinSnapshots(_ routed: [(pair: ConfiguredPair, route: PairRoute)]) async throws
    -> [PairSnapshot]
  {
    guard !routed.isEmpty else { return [] }
    let resolver = resolver()
    var assets: [String: Asset] = [:]
    for item in routed where assets[item.route.base] == nil {
      assets[item.route.base] = try await resolver.resolve(item.route.base)
    }
    let byCurrency = Dictionary(grouping: routed, by: { $0.route.quote }).mapValues { members in
      members.compactMap { assets[$0.route.base] }
    }
    let answers = try await sparklineMarkets(byCurrency)
    return routed.compactMap { item in
      guard let answer = answers[item.route.quote], let asset = assets[item.route.base] else {
        return nil
      }
      let market = answer.value.first { $0.id == asset.id }
      var points = SparklineSampling.weekOfHourly(market?.sparkline7d ?? [])
      if let price = market?.currentPrice { points.append(price) }
      var change = market?.priceChangePercentage24h
      if item.route.inverted {
        points = points.compactMap { $0 == 0 ? nil : 1 / $0 }
        change = change.flatMap(Change.inverted)
      }
      return PairSnapshot(
        pair: item.pair, rate: points.last, changePercent: change, changePeriod: .hours24,
        points: points, source: Providers.coinGecko, fetchedAt: answer.fetchedAt,
        staleness: answer.staleness, updatedAt: market?.lastUpdated)
    }
  }

  /// Market rows with a week of hourly prices, one request per currency,
  /// concurrently.
  func sparklineMarkets(_ coinsByCurrency: [String: [Asset]]) async throws
    -> [String: MarketService.Answer<[CoinMarket]>]
  {
    let service = marketService()
    return try await withThrowingTaskGroup(of: CurrencyMarkets.self) { group in
      for (currency, coins) in coinsByCurrency {
        group.addTask {
          CurrencyMarkets(
            currency: currency,
            answer: try await service.markets(currency: currency, coins: coins, sparkline: true))
        }
      }
      var results: [String: MarketService.Answer<[CoinMarket]>] = [:]
      for try await item in group { results[item.currency] = item.answer }
      return results
    }
  }

  private struct CurrencyMarkets: Sendable {
    var currency: String
    var answer: MarketService.Answer<[CoinMarket]>
  }
}
