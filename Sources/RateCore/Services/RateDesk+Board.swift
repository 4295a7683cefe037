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
  public var source: RateSource
  /// When the data was fetched.
  public var fetchedAt: Date
  /// Set when cached data stands in for a fresh answer.
  public var staleness: Staleness?
  /// When the provider last updated the rate, when it says (the ECB day's
  /// start for a fiat pair): what ``UpdateRhythm`` judges.
  public var updatedAt: Date?
}

/// The pairs of a board that arrived, and those that did not.
public struct PairBoard: Sendable {
  /// The pairs that arrived (or are cached, marked stale), in the order asked.
  public var snapshots: [PairSnapshot]
  /// The pairs that did not, `BASE/QUOTE`, in the order asked, each with its failure.
  public var missing: [MissingFigure]

  /// A board of `snapshots`, lacking `missing`.
  public init(snapshots: [PairSnapshot] = [], missing: [MissingFigure] = []) {
    self.snapshots = snapshots
    self.missing = missing
  }
}

extension ConfiguredPair {
  /// `BASE/QUOTE`: how a board names the pair when it is missing.
  public var displayName: String { "\(base)/\(quote)" }
}

extension RateDesk {
  /// Current rate, change and a 7-day sparkline for each configured pair, in
  /// as few requests as possible: one Frankfurter time series for every fiat
  /// pair, one CoinGecko `/coins/markets` (with sparklines) per quote
  /// currency for the coin pairs, fetched concurrently; pairs a forced
  /// CoinDesk answers come from its daily closes.
  /// A pair with a currency that ended (added before it did) shows its last
  /// rate and week from the snapshot, dated by its last day, without a request.
  /// A street-rate pair (``ConfiguredPair/isStreet``) is priced from `ledger`
  /// (``StreetRate/snapshot(_:entries:now:)``), without a request.
  /// Never throws: a pair that fails is in ``PairBoard/missing`` and the others stand (a
  /// batch refused for one currency is asked pair by pair).
  public func board(for pairs: [ConfiguredPair], ledger: [LedgerEntry] = []) async -> PairBoard {
    var routed: [(pair: ConfiguredPair, route: PairRoute)] = []
    var results: [String: Result<PairSnapshot, any Error>] = [:]
    for pair in pairs {
      if pair.isStreet {
        results[pair.name] = Result { try StreetRate.snapshot(pair, entries: ledger, now: now()) }
      } else if isServedFromSnapshot(pair.base, pair.quote) {
        results[pair.name] = Result { try retiredSnapshot(pair) }
      } else {
        do { routed.append((pair, try route(pair.base, pair.quote))) } catch {
          results[pair.name] = .failure(error)
        }
      }
    }
    let fiatPairs = routed.filter { $0.route.provider == .frankfurter }
    let coinPairs = routed.filter { $0.route.provider == .coinGecko }
    async let fiat = fiatBoard(fiatPairs)
    async let coins = coinSnapshotsOrChain(coinPairs)
    for (name, result) in await fiat + coins { results[name] = result }
    for (pair, _) in routed where results[pair.name] == nil {
      results[pair.name] = await Result { try await closesSnapshot(pair) }
    }
    var board = PairBoard(snapshots: [], missing: [])
    for pair in pairs {
      switch results[pair.name] {
      case .success(let snapshot)?: board.snapshots.append(snapshot)
      case .failure(let error)?: board.missing.append(MissingFigure(pair.displayName, failure: error))
      case nil: board.missing.append(MissingFigure(pair.displayName))
      }
    }
    return board
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

  /// All fiat pairs from one cached time series of the last ten days
  /// (``recentFiatSeries(each:)``), by pair name.
  private func fiatBoard(_ routed: [(pair: ConfiguredPair, route: PairRoute)]) async
    -> [(String, Result<PairSnapshot, any Error>)]
  {
    guard !routed.isEmpty else { return [] }
    let today = Day(containing: now())
    let keys = routed.map { CurrencyPairKey(base: CurrencyCode($0.route.base), quote: $0.route.quote) }
    let results = await recentFiatSeries(each: keys)
    return zip(routed, results).map { item, result in
      (item.pair.name, result.map { Self.fiatSnapshot(item.pair, $0, today: today) })
    }
  }

  /// Coin pairs from CoinGecko's markets (``coinSnapshots(_:)``); with no provider pinned,
  /// each pair whose row failed in a way the chain passes on, or only its cache stood in,
  /// takes its week of closes and price from the coin chain (Coinbase, Kraken for the pairs
  /// they list), named by the source that answered. A pair the chain cannot answer afresh
  /// keeps CoinGecko's result: its stale row, or its failure.
  private func coinSnapshotsOrChain(_ routed: [(pair: ConfiguredPair, route: PairRoute)]) async
    -> [(String, Result<PairSnapshot, any Error>)]
  {
    var results = await coinSnapshots(routed)
    for (index, (name, result)) in results.enumerated() {
      guard case .success(let snapshot) = result, snapshot.points.count < 2 else { continue }
      results[index] = (name, .success(await withStoredWeek(snapshot)))
    }
    guard configuration.forcedProvider == nil else { return results }
    for (index, (name, result)) in results.enumerated() where Self.chainMayAnswer(result) {
      guard let pair = routed.first(where: { $0.pair.name == name })?.pair,
        let answer = try? await closesSnapshot(pair), answer.staleness == nil
      else { continue }
      results[index] = (name, .success(answer))
    }
    return results
  }

  /// `snapshot` (a market row without its 7-day series: CoinGecko sends an empty one for
  /// some coins) with its week from the daily closes (the day store, asked for what it lacks),
  /// ending with its rate; as it was when there are none.
  private func withStoredWeek(_ snapshot: PairSnapshot) async -> PairSnapshot {
    guard let closes = try? await history(base: snapshot.pair.base, quote: snapshot.pair.quote, days: 7)
    else { return snapshot }
    var week = closes.series.points.filter { !$0.carried }.map(\.rate)
    if let rate = snapshot.rate { week.append(rate) }
    var filled = snapshot
    if week.count >= 2 { filled.points = week }
    return filled
  }

  /// Whether the coin chain should be asked for a pair CoinGecko's markets gave `result`:
  /// a stale row, or a failure the chain passes on.
  private static func chainMayAnswer(_ result: Result<PairSnapshot, any Error>) -> Bool {
    switch result {
    case .success(let snapshot): return snapshot.staleness != nil
    case .failure(let error):
      guard let failure = error as? ProviderError else { return false }
      return SourceChain.fallsThrough(failure)
    }
  }

  /// The week of an ECB pair's recent `series` (oldest first) as its 7-day trend: a rate for
  /// each of the 7 days to `today`, a closure's day carrying the working day's rate
  /// (``MarketClosure``), the one rule of `pairs`, `watch` and the home list.
  public static func fiatWeek(_ series: [RatePoint], today: Day) -> [Double] {
    let byDay = Dictionary(series.map { ($0.date, $0) }, uniquingKeysWith: { $1 })
    return MarketClosure.rates(in: today.adding(days: -6)...today, today: today) { byDay[$0] }.map(\.rate)
  }

  /// A fiat pair's snapshot from its recent series.
  private static func fiatSnapshot(
    _ pair: ConfiguredPair, _ answer: CachedAnswer<[RatePoint]>, today: Day
  ) -> PairSnapshot {
    let series = answer.value
    let week = fiatWeek(series, today: today)
    return PairSnapshot(
      pair: pair, rate: week.last,
      // From the previous working day's rate, not a carried copy.
      changePercent: Change.lastStep(series.map(\.rate)), changePeriod: .workingDay,
      points: week, source: answer.source ?? .provider(.frankfurter),
      fetchedAt: answer.fetchedAt,
      staleness: answer.staleness, updatedAt: series.last?.date.start)
  }

  /// Coin pairs: one `/coins/markets?ids=…&sparkline=true` per quote currency, by pair name.
  /// A coin that does not resolve, or a currency whose request fails, fails its pairs alone.
  private func coinSnapshots(_ routed: [(pair: ConfiguredPair, route: PairRoute)]) async
    -> [(String, Result<PairSnapshot, any Error>)]
  {
    guard !routed.isEmpty else { return [] }
    let resolver = resolver()
    var assets: [String: Result<Asset, any Error>] = [:]
    for item in routed where assets[item.route.base] == nil {
      assets[item.route.base] = await Result { try await resolver.resolve(item.route.base) }
    }
    let byCurrency = Dictionary(grouping: routed, by: { $0.route.quote }).mapValues { members in
      members.compactMap { try? assets[$0.route.base]?.get() }
    }.filter { !$0.value.isEmpty }
    let answers = await markets(byCurrency: byCurrency, sparkline: true)
    return routed.compactMap { item in
      guard let asset = assets[item.route.base], let answer = answers[item.route.quote] else {
        return nil
      }
      let snapshot = asset.flatMap { asset in
        answer.map { Self.coinSnapshot(item.pair, item.route, asset: asset, answer: $0) }
      }
      return (item.pair.name, snapshot)
    }
  }

  /// A coin pair's snapshot from its currency's market rows.
  private static func coinSnapshot(
    _ pair: ConfiguredPair, _ route: PairRoute, asset: Asset,
    answer: MarketService.Answer<[CoinMarket]>
  ) -> PairSnapshot {
    let market = answer.value.first { $0.id == asset.id }
    var points = SparklineSampling.weekOfHourly(market?.sparkline7d ?? [])
    if let price = market?.currentPrice { points.append(price) }
    var change = market?.priceChangePercentage24h
    if route.inverted {
      points = points.compactMap(RateInversion.inverse(of:))
      change = change.flatMap(Change.inverted)
    }
    return PairSnapshot(
      pair: pair, rate: points.last, changePercent: change, changePeriod: .hours24,
      points: points, source: .provider(.coinGecko), fetchedAt: answer.fetchedAt,
      staleness: answer.staleness, updatedAt: market?.lastUpdated)
  }

  /// Market rows of each currency's coins (with a week of hourly prices when `sparkline`),
  /// one request per currency and 250 coins, the currencies concurrently; a currency whose
  /// request fails has its failure, and the others stand.
  public func markets(byCurrency coinsByCurrency: [CurrencyCode: [Asset]], sparkline: Bool = false)
    async -> [CurrencyCode: Result<MarketService.Answer<[CoinMarket]>, any Error>]
  {
    let service = marketService()
    return await withTaskGroup(of: CurrencyMarkets.self) { group in
      for (currency, coins) in coinsByCurrency {
        group.addTask {
          CurrencyMarkets(
            currency: currency,
            answer: await Result {
              try await service.markets(currency: currency, coins: coins, sparkline: sparkline)
            })
        }
      }
      var results: [CurrencyCode: Result<MarketService.Answer<[CoinMarket]>, any Error>] = [:]
      for await item in group { results[item.currency] = item.answer }
      return results
    }
  }

  private struct CurrencyMarkets: Sendable {
    var currency: CurrencyCode
    var answer: Result<MarketService.Answer<[CoinMarket]>, any Error>
  }
}
