import RateCore

// The home list: the cached board at once, then fresh data.
extension LiveHomeDriver {
  /// Sends the cached board (unless `refresh`), then, unless that was fresh and complete, the
  /// board fetched in the normal cache mode (`refresh`: the refresh mode), then the status.
  /// During a rate-limit pause, only the cached board and the pause.
  func loadBoard(currency: String, refresh: Bool, send: @escaping @Sendable (HomeEvent) -> Void)
    async
  {
    let lists: HomeLists
    do {
      lists = try self.lists()
    } catch {
      send(.status(await status(for: [error])))
      return
    }
    if let paused = await memory.pausedUntil, paused > desk.now() {
      // The provider asked us to wait: the cached rows, and no request until then.
      let cached = await board(currency: currency, lists: lists, mode: .offline)
      if !cached.isEmpty { send(.board(homeBoard(cached, lists: lists))) }
      send(.status(.rateLimited(until: paused)))
      return
    }
    if !refresh {
      let cached = await board(currency: currency, lists: lists, mode: .offline)
      if !cached.isEmpty { send(.board(homeBoard(cached, lists: lists))) }
      if !cached.isEmpty, cached.staleness == nil, cached.missing.isEmpty, cached.failures.isEmpty {
        send(.status(await status(for: await sendPortfolio(currency: currency, send: send))))
        return
      }
    }
    guard !Task.isCancelled else { return }
    send(.status(.loading))
    let fresh = await board(currency: currency, lists: lists, mode: refresh ? .refresh : .normal)
    guard !Task.isCancelled else { return }
    if !fresh.isEmpty { send(.board(homeBoard(fresh, lists: lists))) }
    let failures = await sendPortfolio(currency: currency, send: send)
    send(.status(await status(for: fresh.failures + failures)))
  }

  /// Sends the ledger's portfolio in `currency` (nil: nothing held); returns why it could
  /// not be valued, if it could not.
  private func sendPortfolio(currency: String, send: @escaping @Sendable (HomeEvent) -> Void) async
    -> [any Error]
  {
    let (portfolio, failure) = await self.portfolio(currency: currency)
    guard !Task.isCancelled else { return [] }
    send(.portfolio(portfolio))
    return [failure].compactMap { $0 }
  }

  /// The board from the desk in `mode`; its coins are remembered for the local search.
  private func board(currency: String, lists: HomeLists, mode: CacheMode) async -> MarketBoard {
    // A street-rate pair whose ledger cannot be read is missing, with the others standing.
    let ledger = (try? userData.streetEntries(for: lists.pairs)) ?? []
    let board = await desk(mode).marketBoard(
      currency: CurrencyCode(currency), coins: lists.coins, favorites: lists.favorites, pairs: lists.pairs,
      ledger: ledger, top: topCount)
    await memory.saw(board.top + board.coins + board.favorites)
    return board
  }

  /// The rows of `board`: top, your coins, your pairs (each pair, with or without data), then
  /// the starred coins outside those.
  func homeBoard(_ board: MarketBoard, lists: HomeLists) -> HomeBoard {
    let code = board.currency.text
    let bySnapshot = Dictionary(
      board.pairs.map { ($0.pair.name, $0) }, uniquingKeysWith: { first, _ in first })
    let rows =
      board.top.map { Self.row($0, kind: .top, currency: code) }
      + board.coins.map { Self.row($0, kind: .coin, currency: code) }
      + lists.pairs.map { Self.row($0, snapshot: bySnapshot[$0.name]) }
      + board.favorites.map { Self.row($0, kind: .favorite, currency: code) }
    return HomeBoard(
      currency: code, rows: rows, fetchedAt: board.fetchedAt ?? desk.now(),
      stale: board.staleness != nil, missing: board.missing.map(TerminalText.sanitize),
      fallbackSources: fallbacks(board))
  }

  /// The fallback sources that answered for `board`, as the status line names them
  /// (`Coinbase Exchange (CoinGecko unavailable)`); none when a provider is pinned.
  func fallbacks(_ board: MarketBoard) -> [String] {
    guard desk.configuration.forcedProvider == nil else { return [] }
    var sources: [RateSource] = []
    for source in board.coinSources + board.pairs.map(\.source) where !sources.contains(source) {
      if source.standsIn != nil { sources.append(source) }
    }
    return sources.compactMap { source in
      source.standsIn.map { primary in
        // "Frankfurter (ECB)" is named without its own parenthesis inside this one.
        let name = primary.displayName.split(separator: " (").first.map(String.init)
        return "\(source.displayName) (\(name ?? primary.displayName) unavailable)"
      }
    }
  }

  /// A coin's row; names and symbols sanitized (they come from the provider or the cache).
  static func row(_ coin: CoinMarket, kind: HomeRow.Kind, currency: String) -> HomeRow {
    HomeRow(
      kind: kind, id: coin.id, symbol: CurrencyCode(UntrustedText.sanitize(coin.symbol)).text,
      name: UntrustedText.sanitize(coin.name), currency: currency, rate: coin.currentPrice,
      changePercent: coin.priceChangePercentage24h, changePeriod: .hours24, week: coin.week,
      updatedAt: coin.lastUpdated,
      market: HomeMarketFigures(
        rank: coin.marketCapRank, change1h: coin.priceChangePercentage1h,
        change7d: coin.priceChangePercentage7d, marketCap: coin.marketCap, volume: coin.totalVolume))
  }

  /// A pair's row: its snapshot's figures, or none when it did not arrive.
  static func row(_ pair: ConfiguredPair, snapshot: PairSnapshot?) -> HomeRow {
    let base = UntrustedText.sanitize(pair.base)
    let quote = UntrustedText.sanitize(pair.quote)
    var row = HomeRow(
      kind: .pair, id: pair.name, symbol: "\(base)/\(quote)", name: "\(base)-\(quote)",
      currency: quote, rate: snapshot?.rate, changePercent: snapshot?.changePercent,
      changePeriod: snapshot?.changePeriod ?? .workingDay, week: snapshot?.points ?? [],
      updatedAt: snapshot?.updatedAt)
    row.source = pair.isStreet ? .ledger : nil
    return row
  }
}
