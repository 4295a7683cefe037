/// The one façade a front end asks for rates: it resolves what the user
/// typed, routes each pair to a provider (inverting a fiat/coin pair), fetches
/// in as few requests as possible, caches, falls back to stale cache, and
/// returns values with their provenance. Facts worth telling the user
/// (a corrupt cache file, an ambiguous symbol) go to ``notify`` as typed
/// ``Notice`` values; the front end chooses the words.
///
/// Every provider client, price source and cache-backed service is built
/// here and nowhere else.
public struct RateDesk: Sendable {
  /// Where the providers are and how to use the cache.
  public struct Configuration: Sendable, Equatable {
    /// CoinGecko's base URL (the public or pro host, or a mirror).
    public var coinGeckoURL: URL
    /// The CoinGecko key and its plan, if any.
    public var coinGeckoKey: CoinGeckoClient.APIKey?
    /// The CoinDesk BPI v1 base URL.
    public var coinDeskURL: URL
    /// The Frankfurter v1 base URL.
    public var frankfurterURL: URL
    /// Coinbase Exchange's base URL; nil leaves it out of the coin chain.
    public var coinbaseURL: URL?
    /// Kraken's base URL; nil leaves it out of the coin chain.
    public var krakenURL: URL?
    /// The coin sources in the order they are asked (``SourceChain/coinOrder``
    /// unless the user set `providers`).
    public var coinSources: [Provider]
    /// A provider the user forced for every pair, if any.
    public var forcedProvider: Provider?
    /// The cache folder.
    public var cacheDirectory: URL
    /// How the cache and the network may be used.
    public var mode: CacheMode
    /// One base URL serving both ECB paths (`RATES_ECB_URL`: a mirror, a test
    /// server); nil asks the ECB's own two hosts.
    public var ecbURL: URL? = nil

    /// Creates a configuration.
    public init(
      coinGeckoURL: URL, coinGeckoKey: CoinGeckoClient.APIKey?, coinDeskURL: URL,
      frankfurterURL: URL, coinbaseURL: URL? = nil, krakenURL: URL? = nil,
      coinSources: [Provider] = SourceChain.coinOrder, forcedProvider: Provider?,
      cacheDirectory: URL, mode: CacheMode
    ) {
      self.coinGeckoURL = coinGeckoURL
      self.coinGeckoKey = coinGeckoKey
      self.coinDeskURL = coinDeskURL
      self.frankfurterURL = frankfurterURL
      self.coinbaseURL = coinbaseURL
      self.krakenURL = krakenURL
      self.coinSources = coinSources
      self.forcedProvider = forcedProvider
      self.cacheDirectory = cacheDirectory
      self.mode = mode
    }
  }

  /// The configuration.
  public var configuration: Configuration
  /// The transport to use for each provider (a watch meters them apart).
  let transport: @Sendable (Provider) -> HTTPTransport
  /// The transport of a coin source with another behind it in the chain: the
  /// front end's choice, e.g. one attempt (the next source answers instead of
  /// a retry, within the command's time); ``transport`` when not given.
  let chainTransport: @Sendable (Provider) -> HTTPTransport
  /// The current time.
  public let now: @Sendable () -> Date
  /// Receives notices as they happen.
  private(set) var notify: @Sendable (Notice) -> Void
  /// The days this run has asked for, shared by every service the desk makes.
  let asked = AskedDays()

  /// Creates a desk.
  ///
  /// - Parameters:
  ///   - transport: the HTTP transport for each provider.
  ///   - chainTransport: the transport of a coin source that has another behind it in
  ///     the chain (``coinChain()``); `transport` when nil.
  ///   - now: the clock.
  ///   - notify: receives ``Notice`` values for the user.
  public init(
    configuration: Configuration, transport: @escaping @Sendable (Provider) -> HTTPTransport,
    chainTransport: (@Sendable (Provider) -> HTTPTransport)? = nil,
    now: @escaping @Sendable () -> Date, notify: @escaping @Sendable (Notice) -> Void
  ) {
    self.configuration = configuration
    self.transport = transport
    self.chainTransport = chainTransport ?? transport
    self.now = now
    self.notify = notify
  }

  /// The same desk with another cache mode (a watch always refreshes).
  public func with(mode: CacheMode) -> RateDesk {
    var copy = self
    copy.configuration.mode = mode
    return copy
  }

  /// The same desk (the days it asked, its services' state) passing on only the notices
  /// `shows` accepts: a command that names what an answer left out in its own one line
  /// leaves ``Notice/missingFromAnswer(provider:pairs:)`` out.
  public func showing(_ shows: @escaping @Sendable (Notice) -> Bool) -> RateDesk {
    var copy = self
    let notify = notify
    copy.notify = { if shows($0) { notify($0) } }
    return copy
  }

  // MARK: - The one home of every factory

  /// The file cache.
  public var cache: JSONFileCache { JSONFileCache(directory: configuration.cacheDirectory) }

  /// A CoinGecko client with the user's key.
  public func coinGeckoClient() -> CoinGeckoClient {
    CoinGeckoClient(
      baseURL: configuration.coinGeckoURL, key: configuration.coinGeckoKey,
      transport: transport(.coinGecko))
  }

  /// A Frankfurter (ECB) client.
  public func frankfurterClient() -> FrankfurterClient {
    FrankfurterClient(baseURL: configuration.frankfurterURL, transport: transport(.frankfurter))
  }

  /// A client of the ECB's own daily file and data API.
  public func ecbClient() -> ECBClient {
    if let url = configuration.ecbURL {
      return ECBClient(baseURL: url, transport: transport(.ecb))
    }
    guard let daily = ECBClient.dailyFileBaseURL, let data = ECBClient.dataAPIBaseURL else {
      return ECBClient(baseURL: URL(fileURLWithPath: "/"), transport: transport(.ecb))
    }
    return ECBClient(dailyBaseURL: daily, dataBaseURL: data, transport: transport(.ecb))
  }

  /// Resolves coin names through CoinGecko (offline: from the cache only).
  public func resolver() -> CoinResolver {
    CoinResolver(
      client: coinGeckoClient(), cache: cache, now: now, offline: configuration.mode == .offline,
      notify: notify)
  }

  /// CoinGecko's cached search and market data.
  public func marketService() -> MarketService {
    MarketService(
      client: coinGeckoClient(), cache: cache, mode: configuration.mode, now: now, notify: notify)
  }

  /// The price source for `provider`: for coins (``Provider/coinGecko``)
  /// the fallback chain of ``coinChain()`` unless the user pinned a provider;
  /// any other provider alone.
  public func source(_ provider: Provider) -> PriceSource {
    if provider == .coinGecko, configuration.forcedProvider == nil { return coinChain() }
    let source = single(provider)
    // A chain notes its own links' successes; a pinned provider answers alone.
    guard source.members.isEmpty else { return source }
    return source.notingSuccess(in: ProviderPauses(cacheFolder: configuration.cacheDirectory), now: now)
  }

  /// One provider's source, never falling back, on `link`'s transport (a coin
  /// source with another behind it) or the provider's own.
  func single(_ provider: Provider, link: Bool = false) -> PriceSource {
    let http = link ? chainTransport(provider) : transport(provider)
    switch provider {
    case .coinGecko:
      let client = CoinGeckoClient(
        baseURL: configuration.coinGeckoURL, key: configuration.coinGeckoKey, transport: http)
      return .coinGecko(client: client, resolver: resolver(), now: now)
    case .coinDesk:
      return .coinDesk(
        client: CoinDeskClient(baseURL: configuration.coinDeskURL, transport: http), now: now)
    case .frankfurter:
      let frankfurter = PriceSource.frankfurter(client: frankfurterClient(), now: now)
      // Pinned (`--provider frankfurter`), it never falls back.
      guard configuration.forcedProvider == nil else { return frankfurter }
      return SourceChain.chain(
        frankfurter, then: [single(.ecb)],
        pauses: ProviderPauses(cacheFolder: configuration.cacheDirectory), now: now)
    case .coinbase:
      guard let url = configuration.coinbaseURL else { return .unconfigured(Provider.coinbase) }
      return .coinbase(client: CoinbaseClient(baseURL: url, transport: http), now: now)
    case .kraken:
      guard let url = configuration.krakenURL else { return .unconfigured(Provider.kraken) }
      return .kraken(client: KrakenClient(baseURL: url, transport: http), now: now)
    case .ecb:
      return .ecb(client: ecbClient(), now: now)
    }
  }

  /// The cached rate service for `provider`.
  public func service(_ provider: Provider) -> RateService {
    RateService(
      source: source(provider), cache: cache, mode: configuration.mode, now: now, notify: notify,
      asked: asked)
  }

  /// The provider for coins: the forced one, else CoinGecko.
  public var coinProvider: Provider { configuration.forcedProvider ?? .coinGecko }

  /// The route for `base`/`quote`, honouring a forced provider.
  ///
  /// - Throws: ``ProviderError/noProvider(base:quote:)`` or
  ///   ``ProviderError/unsupported(provider:detail:)``.
  public func route(_ base: String, _ quote: String) throws -> PairRoute {
    try PairRouter.route(base: base, quote: quote, forced: configuration.forcedProvider)
  }
}
