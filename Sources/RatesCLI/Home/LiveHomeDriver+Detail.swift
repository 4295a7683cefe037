import RateCore

// The detail screen: a coin's market figures and history, or a pair's ECB history.
extension LiveHomeDriver {
  /// Sends the cached detail at once when there is one, then, unless it was fresh, the
  /// fetched one, then the status. During a rate-limit pause, only the cached detail and the
  /// pause: no request.
  func loadDetail(
    row: HomeRow, currency: String, days: Int, send: @escaping @Sendable (HomeEvent) -> Void
  ) async {
    if row.kind == .portfolio {
      await loadPortfolioDetail(row: row, currency: currency, days: days, send: send)
      return
    }
    let load: @Sendable (RateDesk) async throws -> (HomeDetail, [any Error])
    if row.kind == .pair {
      guard let pair = pairNamed(row) else {
        send(.status(.failed(TerminalText.sanitize("\(row.id) is not one of your pairs"))))
        return
      }
      if pair.street {
        streetDetail(pair, row: row, days: days, send: send)
        return
      }
      load = { desk in try await Self.pairDetail((pair.base, pair.quote), row: row, days: days, desk: desk) }
    } else {
      let asset = Asset(symbol: row.symbol, id: row.id)
      load = { desk in try await Self.coinDetail(asset, row: row, currency: currency, days: days, desk: desk) }
    }
    let cachedDetail = try? await load(desk(.offline))
    if let (cached, _) = cachedDetail { send(.detail(cached)) }
    if let paused = await memory.pausedUntil, paused > desk.now() {
      // The provider asked us to wait: the cached detail, and no request until then.
      send(.status(.rateLimited(until: paused)))
      return
    }
    if let (cached, failures) = cachedDetail, !cached.stale, failures.isEmpty {
      send(.status(.idle))
      return
    }
    guard !Task.isCancelled else { return }
    send(.status(.loading))
    do {
      let (detail, failures) = try await load(desk)
      guard !Task.isCancelled else { return }
      send(.detail(detail))
      send(.status(await status(for: failures)))
    } catch {
      guard !Task.isCancelled else { return }
      send(.status(await status(for: [error])))
    }
  }

  /// The portfolio's value chart: the ledger's holdings on each of the last `days` days
  /// times that day's stored rates, as `rates portfolio history --days` values them. The day
  /// store answers the days it has (one request per missing range, none when warm); during
  /// a rate-limit pause, only what it has, and the pause.
  func loadPortfolioDetail(
    row: HomeRow, currency: String, days: Int, send: @escaping @Sendable (HomeEvent) -> Void
  ) async {
    var mode = CacheMode.normal
    if let paused = await memory.pausedUntil, paused > desk.now() { mode = .offline }
    if mode == .normal { send(.status(.loading)) }
    do {
      let now = desk.now()
      let window = try HistorySpan.lastDays(days).window(today: Day(containing: now))
      let series = try await PortfolioCommand.History.series(
        try userData.ledger.read().entries, window: window, currency: CurrencyCode(currency), desk: desk(mode),
        fetchedAt: now)
      guard !Task.isCancelled else { return }
      send(
        .detail(
          HomeDetail(
            rowID: row.id, currency: currency, days: days, market: nil, series: series,
            fetchedAt: now, stale: false)))
      send(.status(mode == .offline ? .rateLimited(until: await memory.pausedUntil ?? now) : .idle))
    } catch {
      guard !Task.isCancelled else { return }
      if mode == .offline, let paused = await memory.pausedUntil {
        send(.status(.rateLimited(until: paused)))
      } else {
        send(.status(await status(for: [error])))
      }
    }
  }

  /// The stored pair a row stands for, else the pair its id names (`GBP-USD`): never its
  /// displayed symbol read back.
  private func pairNamed(_ row: HomeRow) -> (base: String, quote: String, street: Bool)? {
    if let stored = try? userData.pairs.read().first(where: { $0.name == row.id }) {
      return (stored.base, stored.quote, stored.isStreet)
    }
    return PairName(row.id).map { ($0.base, $0.quote, false) }
  }

  /// A street-rate pair's chart: the ledger's daily averages over the last `days` days
  /// (``StreetRate/series(base:quote:days:entries:now:)``, `ledger stats`), a day without an
  /// exchange a gap; no request.
  private func streetDetail(
    _ pair: (base: String, quote: String, street: Bool), row: HomeRow, days: Int,
    send: @escaping @Sendable (HomeEvent) -> Void
  ) {
    do {
      let now = desk.now()
      let series = try StreetRate.series(
        base: CurrencyCode(pair.base), quote: CurrencyCode(pair.quote), days: days,
        entries: try userData.ledger.read().entries,
        now: now)
      send(
        .detail(
          HomeDetail(
            rowID: row.id, currency: CurrencyCode(pair.quote).text, days: days, market: nil,
            series: series, fetchedAt: now, stale: false)))
      send(.status(.idle))
    } catch {
      send(.status(.failed(line(for: error))))
    }
  }

  private static func coinDetail(
    _ asset: Asset, row: HomeRow, currency: String, days: Int, desk: RateDesk
  ) async throws -> (HomeDetail, [any Error]) {
    let code = CurrencyCode(currency)
    let detail = try await desk.coinDetail(asset, currency: code, days: days)
    let market = detail.market.map { figures -> CoinMarket in
      var copy = figures
      copy.name = UntrustedText.sanitize(figures.name)
      copy.symbol = CurrencyCode(UntrustedText.sanitize(figures.symbol)).text
      return copy
    }
    return (
      HomeDetail(
        rowID: row.id, currency: code.text, days: days, market: market,
        series: detail.series, fetchedAt: detail.series.fetchedAt, stale: detail.staleness != nil),
      detail.failures
    )
  }

  private static func pairDetail(
    _ pair: (base: String, quote: String), row: HomeRow, days: Int, desk: RateDesk
  ) async throws -> (HomeDetail, [any Error]) {
    let result = try await desk.history(base: pair.base, quote: pair.quote, days: days)
    let failures = [result.staleness?.reason, result.latestMissing].compactMap { $0 }
    return (
      HomeDetail(
        rowID: row.id, currency: CurrencyCode(pair.quote).text, days: days, market: nil,
        series: result.series, fetchedAt: result.series.fetchedAt,
        stale: result.staleness != nil),
      failures
    )
  }
}
