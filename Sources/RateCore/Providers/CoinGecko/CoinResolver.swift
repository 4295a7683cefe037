/// Turns what a user types (`BTC`, `eth`, `ethereum-wormhole`) into a
/// CoinGecko coin id.
///
/// The best-known symbols resolve with no request. A name matching a known id is taken
/// as that id; a name containing `-` is taken as an id and labelled by the symbol
/// `/search` gives it (``labelled(id:cached:)``). Anything else goes through
/// `/search` once, and the answer is cached for a day. When several coins
/// share a symbol, the one with the highest market-cap rank wins and the
/// resolver says so.
public struct CoinResolver: Sendable {
  /// Symbols of the largest coins by market cap, mapped to their ids.
  public static let wellKnown: [String: String] = [
    "BTC": "bitcoin", "ETH": "ethereum", "USDT": "tether", "XRP": "ripple",
    "BNB": "binancecoin", "SOL": "solana", "USDC": "usd-coin", "DOGE": "dogecoin",
    "ADA": "cardano", "TRX": "tron", "AVAX": "avalanche-2", "LINK": "chainlink",
    "DOT": "polkadot", "LTC": "litecoin", "BCH": "bitcoin-cash", "XLM": "stellar",
    "XMR": "monero", "ATOM": "cosmos", "TON": "the-open-network", "SHIB": "shiba-inu",
    "DAI": "dai", "UNI": "uniswap", "NEAR": "near", "APT": "aptos", "ETC": "ethereum-classic",
    "FIL": "filecoin", "HBAR": "hedera-hashgraph", "ICP": "internet-computer",
    "ARB": "arbitrum", "OP": "optimism", "SUI": "sui", "PEPE": "pepe", "AAVE": "aave",
    "ALGO": "algorand", "XTZ": "tezos", "EOS": "eos", "ZEC": "zcash", "DASH": "dash",
  ]

  /// Names of the ``wellKnown`` coins, by id.
  public static let names: [String: String] = [
    "bitcoin": "Bitcoin", "ethereum": "Ethereum", "tether": "Tether", "ripple": "XRP",
    "binancecoin": "BNB", "solana": "Solana", "usd-coin": "USDC", "dogecoin": "Dogecoin",
    "cardano": "Cardano", "tron": "TRON", "avalanche-2": "Avalanche", "chainlink": "Chainlink",
    "polkadot": "Polkadot", "litecoin": "Litecoin", "bitcoin-cash": "Bitcoin Cash",
    "stellar": "Stellar", "monero": "Monero", "cosmos": "Cosmos Hub", "the-open-network": "Toncoin",
    "shiba-inu": "Shiba Inu", "dai": "Dai", "uniswap": "Uniswap", "near": "NEAR Protocol",
    "aptos": "Aptos", "ethereum-classic": "Ethereum Classic", "filecoin": "Filecoin",
    "hedera-hashgraph": "Hedera", "internet-computer": "Internet Computer", "arbitrum": "Arbitrum",
    "optimism": "Optimism", "sui": "Sui", "pepe": "Pepe", "aave": "Aave", "algorand": "Algorand",
    "tezos": "Tezos", "eos": "EOS", "zcash": "Zcash", "dash": "Dash",
  ]

  /// The ids of the ``wellKnown`` coins: coins known to exist.
  public static let knownIDs = Set(wellKnown.values)

  /// Whether `asset` is known to exist: a ``wellKnown`` coin, or one
  /// `/search` found. An id typed as such (`ethereum-wormhole`) is taken
  /// unchecked, its symbol being the id as given, and is not verified.
  public static func isVerified(_ asset: Asset) -> Bool {
    knownIDs.contains(asset.id) || asset.symbol != asset.id
  }

  /// How long a `/search` answer is reused.
  public static let searchTTL: TimeInterval = 86_400

  let client: CoinGeckoClient
  let cache: JSONFileCache
  let now: @Sendable () -> Date
  let offline: Bool
  let notify: @Sendable (Notice) -> Void

  struct CachedResolution: CacheValue {
    var id: String
    var symbol: String
    var alternatives: [String]
  }

  /// Why a name is not resolved to a coin.
  public enum Refusal: Error, Equatable, Sendable {
    /// `code` is a currency (``CurrencyCode/isCurrency``): a coin with
    /// that symbol is named by its id.
    case currencyCode(String)
  }

  /// Resolves `input` to an asset.
  ///
  /// - Throws: ``Refusal/currencyCode(_:)`` for a currency code, before any
  ///   request; ``ProviderError/coinNotFound(provider:coin:)`` when no coin
  ///   matches, or the search's own failure.
  public func resolve(_ input: String) async throws -> Asset {
    let trimmed = input.trimming(.whitespaces)
    let upper = CurrencyCode(trimmed).text
    let lower = trimmed.lowercased()
    if let id = Self.wellKnown[upper] { return Asset(symbol: upper, id: id) }
    if CurrencyCode(upper).isCurrency { throw Refusal.currencyCode(upper) }
    if let symbol = Self.wellKnown.first(where: { $0.value == lower })?.key {
      return Asset(symbol: symbol, id: lower)
    }
    let key = "coingecko/resolve/\(lower)"
    let cached = cache.load(CachedResolution.self, key: key).entry
    let fresh = cached.map { CacheFreshness.isFresh($0.fetchedAt, at: now(), for: Self.searchTTL) } ?? false
    if lower.contains("-") { return await labelled(id: lower, cached: fresh ? cached?.value : nil) }
    return try await CacheFallback.answer(
      mode: offline ? .offline : .normal, hasCache: cached != nil, isFresh: fresh,
      fromCache: { _ in
        guard let value = cached?.value else { throw RateService.ServiceError.notLookedUp(trimmed) }
        return Asset(symbol: value.symbol, id: value.id)
      },
      fetch: { try await search(trimmed, key: key) })
  }

  /// A coin typed by its id (`wrapped-bitcoin`), labelled by its symbol (`WBTC`) as every
  /// other coin is: from a fresh cached resolution, else from `/search` (cached for a day)
  /// when it lists that exact id and its symbol names it (no well-known coin and no better
  /// ranked result has that symbol: `ethereum-wormhole`, symbol ETH, stays
  /// `ethereum-wormhole`, never shown or routed as Ethereum). An id `/search` does not list,
  /// or a search that fails or cannot be made (offline), leaves the id as typed, unchecked,
  /// as its label: the price request still decides whether the coin exists.
  func labelled(id: String, cached: CachedResolution?) async -> Asset {
    if let cached, cached.id == id { return Asset(symbol: cached.symbol, id: id) }
    guard !offline, let results = try? await client.search(id),
      let exact = results.first(where: { $0.id == id }),
      Self.wellKnown[CurrencyCode(exact.symbol).text] == nil,
      Self.choose(exact.symbol.lowercased(), from: results)?.id == id
    else { return Asset(symbol: id, id: id) }
    let resolution = CachedResolution(id: id, symbol: exact.symbol, alternatives: [])
    try? cache.save(resolution, key: "coingecko/resolve/\(id)", source: Provider.coinGecko.rawValue, fetchedAt: now())
    return Asset(symbol: resolution.symbol, id: id)
  }

  /// Looks `input` up with `/search` and caches the choice.
  func search(_ input: String, key: String) async throws -> Asset {
    let results = try await client.search(input)
    let lower = input.lowercased()
    guard let resolution = Self.choose(lower, from: results) else {
      throw ProviderError.coinNotFound(provider: .provider(.coinGecko), coin: input)
    }
    if !resolution.alternatives.isEmpty {
      notify(
        .ambiguousSymbol(
          symbol: resolution.symbol, chosen: resolution.id, alternatives: resolution.alternatives))
    }
    try? cache.save(resolution, key: key, source: Provider.coinGecko.rawValue, fetchedAt: now())
    return Asset(symbol: resolution.symbol, id: resolution.id)
  }

  /// Picks the coin for `input` from search results: an exact id wins, then
  /// the best-ranked coin whose symbol matches. Symbols are kept as the
  /// results label them (upper case, or the id: ``Asset/label(symbol:id:)``).
  static func choose(_ input: String, from results: [CoinGeckoClient.SearchResult])
    -> CachedResolution?
  {
    if let exact = results.first(where: { $0.id == input }) {
      return CachedResolution(id: exact.id, symbol: exact.symbol, alternatives: [])
    }
    let matches = results.filter { $0.symbol.lowercased() == input }
      .sorted { ($0.marketCapRank ?? Int.max) < ($1.marketCapRank ?? Int.max) }
    guard let best = matches.first else { return nil }
    return CachedResolution(
      id: best.id, symbol: best.symbol, alternatives: matches.dropFirst().map(\.id))
  }
}
