/// One board of coins and pairs in one currency (the interactive home list): the top coins by
/// market cap, the user's coins, the user's pairs and the starred coins outside those, each
/// with a week of prices. Parts that did not arrive are named in ``missing``; the board never
/// fails as a whole.
public struct MarketBoard: Sendable {
  /// The coins' currency.
  public var currency: CurrencyCode
  /// The top coins by market cap, best first.
  public var top: [CoinMarket]
  /// The user's coins in their order; a coin the answer lacked is a placeholder
  /// (``CoinMarket/placeholder(_:)``, no price) and named in ``missing``.
  public var coins: [CoinMarket]
  /// The starred coins that are neither in ``top`` nor in ``coins``, placeholders likewise.
  public var favorites: [CoinMarket]
  /// The pairs that arrived, in the order asked; the others are named in ``missing``.
  public var pairs: [PairSnapshot]
  /// When the coin rows were fetched (the pairs' time when no coin row arrived); `nil` when
  /// nothing arrived.
  public var fetchedAt: Date?
  /// Set when cached data stands in for a fresh answer in any part (the oldest such part).
  public var staleness: Staleness?
  /// What the board lacks, as the user names it: `KAS/USD`, `GBP/USD`, `the top 5 coins in USD`.
  public var missing: [String] = []
  /// Why parts are missing or stale: the errors thrown, then the failures cached data stood in
  /// for (``Staleness/reason``), coins first.
  public var failures: [any Error] = []

  /// The sources that answered for your coins when CoinGecko's markets failed (the coin
  /// chain: `coinbase`, `kraken`); empty when CoinGecko answered.
  public var coinSources: [RateSource] = []

  /// Whether no row arrived at all (placeholders do not count).
  public var isEmpty: Bool {
    top.isEmpty && pairs.isEmpty && !(coins + favorites).contains { $0.currentPrice != nil }
  }
}

extension CoinMarket {
  /// The last 7 days for a sparkline, oldest first: every sixth hourly price
  /// (``SparklineSampling``), then the current price.
  public var week: [Double] {
    var points = SparklineSampling.weekOfHourly(sparkline7d ?? [])
    if let currentPrice { points.append(currentPrice) }
    return points
  }
}

extension RateDesk {
  /// How many top coins a ``MarketBoard`` shows unless told otherwise: one
  /// `/coins/markets` page, which also holds most coins a user follows.
  public static let boardTopCount = 100

  /// The board in `currency`, in the fewest requests: coins from one
  /// `/coins/markets?sparkline=true` page (the top `top`, or the top
  /// ``followedCoinsPage`` when there are coins to show, which usually holds them; more than
  /// ``MarketService/pageSize`` take as many pages as needed) and one
  /// `ids=` request for the coins outside it; pairs as ``board(for:)`` fetches them (one
  /// Frankfurter series for every fiat pair). ECB rates are fresh for
  /// ``CacheFreshness/referenceRate`` even when this desk refreshes: they change once a
  /// working day. Never throws: what fails is missing, and its error is in
  /// ``MarketBoard/failures``. Street-rate pairs come from `ledger` (``StreetRate``).
  public func marketBoard(
    currency code: CurrencyCode, coins: [FavoriteCoin], favorites: [FavoriteCoin], pairs: [ConfiguredPair],
    ledger: [LedgerEntry] = [], top: Int = boardTopCount
  ) async -> MarketBoard {
    let coinIDs = Set(coins.map(\.id))
    let starred = favorites.filter { !coinIDs.contains($0.id) }
    async let fetchedCoins = boardCoins(code, top: top, following: coins + starred)
    async let fetchedPairs = boardPairs(pairs, ledger: ledger)
    let coinPart = await fetchedCoins
    let pairPart = await fetchedPairs
    let topIDs = Set(coinPart.top.map(\.id))
    func market(_ coin: FavoriteCoin) -> CoinMarket {
      coinPart.rows.first { $0.id == coin.id } ?? .placeholder(coin)
    }
    var board = MarketBoard(
      currency: code, top: coinPart.top, coins: coins.map(market),
      favorites: starred.filter { !topIDs.contains($0.id) }.map(market), pairs: pairPart.snapshots,
      fetchedAt: coinPart.fetchedAt ?? pairPart.snapshots.map(\.fetchedAt).max())
    board.coinSources = coinPart.sources
    board.missing = coinPart.missing + pairPart.missing
    board.failures = coinPart.failures + pairPart.failures
    let stale = coinPart.staleness + pairPart.snapshots.compactMap(\.staleness)
    board.staleness = stale.min { $0.fetchedAt < $1.fetchedAt }
    board.failures += stale.compactMap(\.reason).filter { reason in
      !board.failures.contains { ($0 as? ProviderError) == reason }
    }
    return board
  }

  /// What the coin requests of a board brought.
  private struct BoardCoins: Sendable {
    var top: [CoinMarket] = []
    /// Every row that arrived.
    var rows: [CoinMarket] = []
    var fetchedAt: Date?
    var staleness: [Staleness] = []
    var missing: [String] = []
    var failures: [any Error] = []
    /// The coin chain's sources that answered for coins when CoinGecko could not.
    var sources: [RateSource] = []
  }

  /// The top coins and `following`, with sparklines. When the top page fails, the coins
  /// outside it are not asked for (the same limit or outage would refuse them too).
  private func boardCoins(
    _ currency: CurrencyCode, top limit: Int, following: [FavoriteCoin]
  ) async -> BoardCoins {
    let service = marketService()
    var part = BoardCoins()
    let page: MarketService.Answer<[CoinMarket]>
    do {
      page = try await service.markets(
        currency: currency, top: following.isEmpty ? limit : max(limit, Self.followedCoinsPage),
        sparkline: true)
    } catch {
      part.failures = [error]
      part.missing = ["the top \(limit) coins in \(currency)"]
      await chainRows(following, currency, after: error, into: &part)
      return part
    }
    part.top = Array(page.value.prefix(limit))
    part.rows = page.value
    part.fetchedAt = page.fetchedAt
    part.staleness = [page.staleness].compactMap { $0 }
    part.missing = page.missing
    let outside = following.filter { coin in !page.value.contains { $0.id == coin.id } }
    guard !outside.isEmpty else { return part }
    do {
      let more = try await service.markets(
        currency: currency, coins: outside.map(\.asset), sparkline: true)
      part.rows += more.value
      part.staleness += [more.staleness].compactMap { $0 }
      part.missing += more.missing
    } catch {
      part.failures.append(error)
      part.missing += outside.map { "\($0.symbol)/\(currency)" }
    }
    return part
  }

  /// With CoinGecko's markets failing in a way the chain passes on and no provider pinned,
  /// `coins` from the coin chain (Coinbase, Kraken for the pairs they list): each a row with
  /// its price and the change of its last daily close, no market figures, its source in
  /// ``BoardCoins/sources``. A coin the chain cannot answer is named missing.
  private func chainRows(
    _ coins: [FavoriteCoin], _ currency: CurrencyCode, after error: any Error, into part: inout BoardCoins
  ) async {
    // The exchanges alone: CoinGecko just failed and is not asked again for each coin.
    var exchanges = self
    exchanges.configuration.coinSources = configuration.coinSources.filter { provider in
      provider == .coinbase && configuration.coinbaseURL != nil
        || provider == .kraken && configuration.krakenURL != nil
    }
    let passes = (error as? ProviderError).map(SourceChain.fallsThrough) ?? false
    let asks =
      passes && configuration.forcedProvider == nil
      && !exchanges.configuration.coinSources.isEmpty
    for coin in coins {
      guard asks,
        let result = try? await exchanges.history(base: coin.symbol, quote: currency.text, days: 7),
        result.staleness == nil, let price = result.series.points.last?.rate
      else {
        part.missing.append("\(coin.symbol)/\(currency)")
        continue
      }
      var row = CoinMarket.placeholder(coin)
      row.currentPrice = price
      row.priceChangePercentage24h = Change.lastStep(result.series.points.map(\.rate))
      part.rows.append(row)
      part.fetchedAt = part.fetchedAt ?? result.series.fetchedAt
      if !part.sources.contains(result.series.source) { part.sources.append(result.series.source) }
    }
  }

  /// What the pair requests of a board brought.
  private struct BoardPairs: Sendable {
    var snapshots: [PairSnapshot] = []
    var missing: [String] = []
    var failures: [any Error] = []
  }

  /// The pairs' snapshots: ECB pairs through a desk that keeps their hourly freshness,
  /// the others through this one; a pair that fails is missing, the others stand.
  private func boardPairs(_ pairs: [ConfiguredPair], ledger: [LedgerEntry]) async -> BoardPairs {
    let ecbDesk = configuration.mode == .refresh ? with(mode: .normal) : self
    let isECB = { (pair: ConfiguredPair) in
      !pair.isStreet && (try? self.route(pair.base, pair.quote).provider) == .frankfurter
    }
    var byName: [String: PairSnapshot] = [:]
    var failed: [String: MissingFigure] = [:]
    for (desk, group) in [(ecbDesk, pairs.filter(isECB)), (self, pairs.filter { !isECB($0) })]
    where !group.isEmpty {
      let board = await desk.board(for: group, ledger: ledger)
      for snapshot in board.snapshots { byName[snapshot.pair.name] = snapshot }
      for missing in board.missing { failed[missing.name] = missing }
    }
    var part = BoardPairs()
    part.snapshots = pairs.compactMap { byName[$0.name] }
    let missing = pairs.filter { byName[$0.name] == nil }.map(\.displayName)
    part.missing = missing
    part.failures = missing.compactMap { failed[$0]?.failure }
    return part
  }
}

/// A coin's market figures and daily history, for a detail view.
public struct CoinDetail: Sendable {
  /// The market figures, `nil` when they did not arrive (see ``failures``).
  public var market: CoinMarket?
  /// Daily points, oldest first; the last one follows the market's current price when that is
  /// the newer.
  public var series: RateSeries
  /// Set when cached data stands in for a fresh answer (the older of the two).
  public var staleness: Staleness?
  /// Why the market figures are missing, or what cached data stood in for.
  public var failures: [any Error]
}

extension RateDesk {
  /// `asset`'s market figures in `currency` (one `/coins/markets?ids=`) and its last `days`
  /// days (``RateService/history(of:in:days:)-(Asset,_,_)``), whose last point is the current
  /// price. Throws only when the history fails; missing market figures are in
  /// ``CoinDetail/failures``.
  public func coinDetail(_ asset: Asset, currency code: CurrencyCode, days: Int) async throws
    -> CoinDetail
  {
    async let marketAnswer = Result {
      try await marketService().markets(currency: code, coins: [asset])
    }
    let history = try await service(.coinGecko).history(of: asset, in: code, days: days)
    var detail = CoinDetail(
      market: nil, series: history.series, staleness: history.staleness, failures: [])
    switch await marketAnswer {
    case .success(let answer):
      detail.market = answer.value.first { $0.id == asset.id }
      if let price = detail.market?.currentPrice, answer.fetchedAt >= history.series.fetchedAt {
        detail.series = Self.following(detail.series, price: price, today: Day(containing: now()))
      }
      if let stale = answer.staleness {
        detail.failures += [stale.reason].compactMap { $0 }
        if detail.staleness.map({ stale.fetchedAt < $0.fetchedAt }) ?? true { detail.staleness = stale }
      }
    case .failure(let error):
      detail.failures.append(error)
    }
    detail.failures += [history.staleness?.reason, history.latestMissing].compactMap { $0 }
    return detail
  }

  /// `series` with today's point at `price` (replaced, or added after the last day).
  static func following(_ series: RateSeries, price: Double, today: Day) -> RateSeries {
    var copy = series
    if let last = copy.points.last, last.date == today {
      copy.points[copy.points.count - 1] = RatePoint(date: today, rate: price)
    } else if copy.points.last.map({ $0.date < today }) ?? true {
      copy.points.append(RatePoint(date: today, rate: price))
      copy.gaps.removeAll { $0 == today }
    }
    return copy
  }
}

extension Result where Failure == any Error {
  /// The result of an async `body`.
  init(catching body: () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}
