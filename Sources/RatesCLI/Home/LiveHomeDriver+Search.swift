import RateCore

// The search screen: coins known locally at once, the provider's search after a pause.
extension LiveHomeDriver {
  /// The pause after the last key before the provider is asked.
  static let searchPause = Duration.milliseconds(400)
  /// The shortest query the provider is asked about.
  static let remoteSearchMinimum = 2

  /// Sends the local hits at once; then, for a query of at least ``remoteSearchMinimum``
  /// characters, after ``searchPause`` and within the search budget (one request per
  /// ``HomeDriverMemory/searchSpacing``, none during a rate-limit pause), the provider's.
  /// Returns quietly when cancelled (a newer query replaced this one).
  func search(_ query: String, send: @escaping @Sendable (HomeEvent) -> Void) async {
    let known = await localCoins()
    let local = LocalCoinSearch.matches(query, in: known)
    send(.searchResults(query: query, hits: Self.hits(local, among: known), remote: false))
    guard query.trimming(.whitespaces).count >= Self.remoteSearchMinimum else {
      return
    }
    do {
      try await sleep(Self.searchPause)
      while true {
        if let paused = await memory.pausedUntil, paused > desk.now() { return }
        let wait = await memory.takeSearchSlot(at: desk.now())
        if wait <= 0 { break }
        try await sleep(.milliseconds(Int((wait * 1000).rounded())))
      }
    } catch {
      return
    }
    send(.status(.loading))
    do {
      let answer = try await desk.marketService().search(query)
      guard !Task.isCancelled else { return }
      send(.searchResults(query: query, hits: Self.hits(answer.value, among: known), remote: true))
      send(.status(await status(for: [answer.staleness?.reason].compactMap { $0 })))
    } catch {
      guard !Task.isCancelled else { return }
      send(.status(await status(for: [error])))
    }
  }

  /// The coins known without a request: the user's coins and favorites, the coins the last
  /// boards showed, and the well-known coins.
  private func localCoins() async -> [CoinGeckoClient.SearchResult] {
    let lists = (try? self.lists()) ?? HomeLists()
    let mine = (lists.coins + lists.favorites).map {
      CoinGeckoClient.SearchResult(
        id: $0.id, symbol: Asset.label(typed: $0.symbol, id: $0.id), name: $0.name ?? $0.id,
        marketCapRank: nil)
    }
    return mine + (await memory.seenCoins) + LocalCoinSearch.wellKnown
  }

  /// `results` as hits, sanitized; a symbol is shared when several coins of the results or
  /// of the local list have it.
  static func hits(_ results: [CoinGeckoClient.SearchResult], among known: [CoinGeckoClient.SearchResult])
    -> [HomeSearchHit]
  {
    let shared = LocalCoinSearch.sharedSymbols(results + known)
    return results.map {
      let symbol = Asset.label(typed: UntrustedText.sanitize($0.symbol), id: $0.id)
      return HomeSearchHit(
        id: $0.id, symbol: symbol, name: UntrustedText.sanitize($0.name),
        marketCapRank: $0.marketCapRank, sharedSymbol: shared.contains(CurrencyCode($0.symbol).text))
    }
  }
}
