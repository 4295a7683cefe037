/// CoinGecko v3: current prices, daily history and coin search.
///
/// Every method makes exactly one request. Statuses are checked before any
/// decoding, and each documented error body becomes a ``ProviderError``.
///
/// Every answer passes ``AnswerGate``: an implausible price, or a chart
/// point with an impossible time, outside the asked window or stamped in
/// seconds, refuses the answer as a
/// ``ProviderError/malformedResponse(provider:endpoint:detail:)``, as does a
/// value of the wrong JSON type. An impossible `last_updated_at` (not seconds
/// from 1970 to 9999) is treated like a missing one (the price is kept, its
/// time unknown); a possible one before 2009-01-03 or over an hour ahead of
/// our clock refuses the answer where the quote is built
/// (``AnswerGate/isUpdateTime(_:now:)``).
public struct CoinGeckoClient: Sendable {
  /// The public host.
  public static let publicBaseURL = URL(string: "https://api.coingecko.com/api/v3")
  /// How many days back the keyless and Demo plans reach (older ranges: code 10012).
  public static let freePlanDays = 365
  /// The paid plans' host.
  public static let proBaseURL = URL(string: "https://pro-api.coingecko.com/api/v3")

  /// The plan a key belongs to.
  public enum APIKey: Sendable, Equatable {
    case demo(String)
    case pro(String)

    /// The plan the key is sent as.
    public var plan: APIKeyPlan {
      switch self {
      case .demo: return .demo
      case .pro: return .pro
      }
    }
  }

  let http: ProviderHTTP
  /// The plan of the key sent with every request, if any: what an error
  /// about the key is about.
  let keyPlan: APIKeyPlan?

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - baseURL: the API root, e.g. ``publicBaseURL`` or a test server.
  ///   - key: the API key, sent as a header (never in the URL).
  ///   - transport: the network seam.
  public init(baseURL: URL, key: APIKey?, transport: HTTPTransport) {
    var headers: [String: String] = [:]
    switch key {
    case .demo(let value): headers["x-cg-demo-api-key"] = value
    case .pro(let value): headers["x-cg-pro-api-key"] = value
    case nil: break
    }
    http = ProviderHTTP(
      provider: Provider.coinGecko, baseURL: baseURL, transport: transport, headers: headers)
    keyPlan = key?.plan
  }

  /// One price of one coin in one currency from `/simple/price`.
  public struct Price: Equatable, Sendable {
    public var rate: Double
    public var change24hPercent: Double?
    public var updatedAt: Date?
  }

  /// Current prices of all `ids` in all `currencies`, in one request.
  ///
  /// - Returns: prices keyed by id, then by upper-case currency. Ids the API
  ///   does not know are absent, as are currencies without a price.
  public func simplePrices(ids: [String], currencies: [String]) async throws
    -> [String: [String: Price]]
  {
    let endpoint = "/simple/price"
    let vs = currencies.map { $0.lowercased() }
    let response = try await http.get(
      endpoint,
      query: [
        ("ids", ids.joined(separator: ",")), ("vs_currencies", vs.joined(separator: ",")),
        ("include_24hr_change", "true"), ("include_last_updated_at", "true"),
      ])
    try check(
      response, endpoint: endpoint, coin: ids.joined(separator: ","),
      currency: vs.map { CurrencyCode($0).text }.joined(separator: ","))
    let dto = try http.decode(CoinGeckoSimplePriceDTO.self, from: response.body, endpoint: endpoint)
    var result: [String: [String: Price]] = [:]
    for (id, fields) in dto.prices {
      let updated = (fields["last_updated_at"] ?? nil).flatMap(ProviderNumbers.date(unixSeconds:))
      var byCurrency: [String: Price] = [:]
      for currency in vs {
        // A null or 0 price is no price (CoinGecko's sign of a coin it has none for); any
        // other implausible one refuses the answer (``AnswerGate``).
        guard let rate = fields[currency] ?? nil, rate != 0 else { continue }
        _ = try AnswerGate.price(
          rate, provider: Provider.coinGecko, endpoint: endpoint,
          at: "\(UntrustedText.sanitize(String(id.prefix(40)))).\(currency)")
        let change = (fields["\(currency)_24h_change"] ?? nil).flatMap {
          AnswerGate.isChangePercent($0) ? $0 : nil
        }
        byCurrency[CurrencyCode(currency).text] = Price(
          rate: rate, change24hPercent: change, updatedAt: updated)
      }
      result[id] = byCurrency
    }
    return result
  }

  /// Hourly prices of `id` over the last `days` days (2 to 90) from
  /// `/coins/{id}/market_chart` without `interval`: CoinGecko's automatic
  /// granularity, hourly (jittered) for 2 to 90 days, oldest first; the last
  /// pair is "now".
  public func hourlyChart(id: String, currency: String, days: Int) async throws -> [SeriesPoint<Date>] {
    try await marketChart(id: id, currency: currency, days: min(max(days, 2), 90), daily: false)
      .map { SeriesPoint(date: $0.0, rate: $0.1) }
  }

  /// Daily prices of `id` over the last `days` days from
  /// `/coins/{id}/market_chart?interval=daily`, as `(instant, price)` pairs,
  /// oldest first; the last pair is "now". Without `daily`, no `interval`: CoinGecko's
  /// automatic granularity (``hourlyChart(id:currency:days:)``).
  public func marketChart(id: String, currency: String, days: Int, daily: Bool = true) async throws
    -> [(Date, Double)]
  {
    let encodedID = ProviderHTTP.encodeQueryValue(id)
    let endpoint = "/coins/\(encodedID)/market_chart"
    var query = [("vs_currency", currency.lowercased()), ("days", String(days))]
    if daily { query.append(("interval", "daily")) }
    let response = try await http.get(endpoint, query: query)
    try check(
      response, endpoint: "/coins/{id}/market_chart", coin: id, currency: CurrencyCode(currency).text,
      days: days)
    let dto = try http.decode(
      CoinGeckoMarketChartDTO.self, from: response.body, endpoint: "/coins/{id}/market_chart")
    // The window (now, which the client does not know) is kept by the caller:
    // ``AnswerGate/instants(of:now:)``.
    return try dto.samples(endpoint: "/coins/{id}/market_chart")
  }

  /// Samples between `from` and `to` from one
  /// `/coins/{id}/market_chart/range` (Unix seconds): daily for spans over
  /// 90 days, hourly below, sorted by time. The free plans reach back 365
  /// days (``ProviderError/historyTooOld(provider:)``, code 10012).
  ///
  /// - Parameters:
  ///   - reachingBack: how many days before today `from` is, so a 10012 is
  ///     read as the 365-day limit only when the span passed it.
  ///   - asked: the days the user asked for, which a refusal quotes; by
  ///     default the days of `from` and `to`.
  public func marketChartRange(
    id: String, currency: String, from: Date, to: Date, reachingBack: Int? = nil,
    asked: ClosedRange<Day>? = nil
  ) async throws -> [(Date, Double)] {
    let encodedID = ProviderHTTP.encodeQueryValue(id)
    let endpoint = "/coins/{id}/market_chart/range"
    let response = try await http.get(
      "/coins/\(encodedID)/market_chart/range",
      query: [
        ("vs_currency", currency.lowercased()),
        ("from", String(Int64(from.timeIntervalSince1970.rounded(.down)))),
        ("to", String(Int64(to.timeIntervalSince1970.rounded(.down)))),
      ])
    try check(
      response, endpoint: endpoint, coin: id, currency: CurrencyCode(currency).text, days: reachingBack)
    let dto = try http.decode(CoinGeckoMarketChartDTO.self, from: response.body, endpoint: endpoint)
    // Kept: from a day before `from` (daily stamps at 00:00 UTC) to an hour after `to`;
    // the rest of a wider answer is dropped (``AnswerGate``).
    return try AnswerGate.series(
      try dto.samples(endpoint: endpoint),
      inside: from.addingTimeInterval(-86_400)...to.addingTimeInterval(AnswerGate.clockSkew),
      asked: asked ?? Day(containing: from)...max(Day(containing: from), Day(containing: to)),
      provider: Provider.coinGecko, endpoint: endpoint)
  }

  /// One coin found by `/search`.
  public struct SearchResult: Equatable, Sendable, Codable {
    public var id: String
    public var symbol: String
    public var name: String
    public var marketCapRank: Int?

    /// Creates a result.
    public init(id: String, symbol: String, name: String, marketCapRank: Int?) {
      self.id = id
      self.symbol = symbol
      self.name = name
      self.marketCapRank = marketCapRank
    }
  }

  /// `/ping`: the answer CoinGecko gives when it is up, `{"gecko_says": "…"}`, through the
  /// same status check and decoding as every endpoint (`rates doctor`'s probe).
  public func ping() async throws {
    let endpoint = "/ping"
    let response = try await http.get(endpoint)
    try check(response, endpoint: endpoint, coin: "", currency: "")
    _ = try http.decode([String: String].self, from: response.body, endpoint: endpoint)
  }

  /// Coins matching `query` by name or symbol, best match first.
  public func search(_ query: String) async throws -> [SearchResult] {
    let endpoint = "/search"
    let response = try await http.get(endpoint, query: [("query", query)])
    try check(response, endpoint: endpoint, coin: query, currency: "")
    let dto = try http.decode(CoinGeckoSearchDTO.self, from: response.body, endpoint: endpoint)
    return dto.coins.filter { ProviderHTTP.isPlausibleID($0.id) }.map {
      SearchResult(
        id: $0.id, symbol: Asset.label(symbol: CurrencyCode(UntrustedText.sanitize($0.symbol)).text, id: $0.id),
        name: UntrustedText.sanitize($0.name),
        marketCapRank: $0.marketCapRank.flatMap { $0 >= 1 ? $0 : nil })
    }
  }

  /// Throws the ``ProviderError`` a non-2xx response stands for
  /// (``ProviderHTTP/check(_:reading:)`` with CoinGecko's error bodies).
  ///
  /// - Parameter days: how far back the request reached, for a history; a
  ///   10012 ("exceeds the allowed time range") is reported as
  ///   ``ProviderError/historyTooOld(provider:)`` only when it reached past
  ///   365 days, and otherwise with CoinGecko's own message.
  public func check(
    _ response: HTTPResponse, endpoint: String, coin: String, currency: String, days: Int? = nil
  ) throws {
    try http.check(response) { [keyPlan] response in
      Self.reading(
        response, endpoint: endpoint, coin: coin, currency: currency, days: days, sent: keyPlan)
    }
  }

  /// What CoinGecko's error body says, in all four documented shapes.
  static func reading(
    _ response: HTTPResponse, endpoint: String, coin: String, currency: String, days: Int?,
    sent: APIKeyPlan?
  ) -> ErrorBodyReading {
    let provider = Provider.coinGecko
    let body = CoinGeckoErrorBody(data: response.body)
    let message = body.message.lowercased()
    let error: ProviderError?
    switch body.code {
    case 429?:
      error = .rateLimited(provider: .provider(provider), retryAfter: RetryAfter.seconds(from: response))
    case 10012? where (days ?? 0) > Self.freePlanDays: error = .historyTooOld(provider: .provider(provider))
    case 10002?: error = .apiKeyMissing(provider: .provider(provider))
    case let code? where code == 10010 || code == 10011:
      error = .keyPlanMismatch(provider: .provider(provider), code: code, sent: sent)
    case 10005?: error = .paidPlanOnly(provider: .provider(provider), endpoint: endpoint, sent: sent)
    default:
      if message.contains("coin not found") || message.contains("could not find coin") {
        error = .coinNotFound(provider: .provider(provider), coin: coin)
      } else if message.contains("invalid vs_currency") {
        error = .invalidCurrency(provider: .provider(provider), currency: currency)
      } else {
        error = nil
      }
    }
    return ErrorBodyReading(error: error, message: body.message)
  }
}
