/// Coin search without a request: filters coins already known locally (the well-known coins,
/// the user's lists, coins a board showed) the way ``MarketService/search(_:)`` ranks the
/// provider's answer.
public enum LocalCoinSearch {
  /// The ``CoinResolver/wellKnown`` coins as search results (no rank).
  public static var wellKnown: [CoinGeckoClient.SearchResult] {
    CoinResolver.wellKnown.map { symbol, id in
      CoinGeckoClient.SearchResult(
        id: id, symbol: symbol, name: CoinResolver.names[id] ?? id, marketCapRank: nil)
    }
  }

  /// The coins of `known` whose symbol, id or name contains `query` (ignoring case), each id
  /// once (the first entry with a rank wins): exact matches first, then prefixes, then by
  /// market-cap rank (unranked last), then symbol.
  public static func matches(_ query: String, in known: [CoinGeckoClient.SearchResult])
    -> [CoinGeckoClient.SearchResult]
  {
    let needle = query.trimming(.whitespaces).lowercased()
    guard !needle.isEmpty else { return [] }
    var byID: [String: CoinGeckoClient.SearchResult] = [:]
    for coin in known where byID[coin.id]?.marketCapRank == nil {
      var merged = coin
      merged.marketCapRank = coin.marketCapRank ?? byID[coin.id]?.marketCapRank
      byID[coin.id] = merged
    }
    let found = byID.values.filter { coin in
      [coin.symbol.lowercased(), coin.id, coin.name.lowercased()].contains { $0.contains(needle) }
    }
    return found.sorted { lhs, rhs in
      let l = MarketService.matchScore(lhs, needle)
      let r = MarketService.matchScore(rhs, needle)
      if l != r { return l < r }
      let lr = lhs.marketCapRank ?? Int.max
      let rr = rhs.marketCapRank ?? Int.max
      if lr != rr { return lr < rr }
      return lhs.symbol != rhs.symbol ? lhs.symbol < rhs.symbol : lhs.id < rhs.id
    }
  }

  /// The upper-case symbols that more than one coin (by id) of `coins` has.
  public static func sharedSymbols(_ coins: [CoinGeckoClient.SearchResult]) -> Set<String> {
    var ids: [String: Set<String>] = [:]
    for coin in coins { ids[CurrencyCode(coin.symbol).text, default: []].insert(coin.id) }
    return Set(ids.filter { $0.value.count > 1 }.keys)
  }
}
