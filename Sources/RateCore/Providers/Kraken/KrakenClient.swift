/// Kraken public market data (keyless): the current price from
/// `/0/public/Ticker` and candles from `/0/public/OHLC` (the 720 most recent
/// only, whatever is asked).
///
/// Kraken answers `{"error":[…],"result":{…}}`, errors mostly over HTTP 200,
/// so the `error` array is read before anything else. Pair names are mapped
/// in one table (``KrakenPairs``). Every answer passes ``AnswerGate``.
public struct KrakenClient: Sendable {
  /// The public host.
  public static let publicBaseURL = URL(string: "https://api.kraken.com")

  /// A candle's width, in Kraken's minutes.
  public enum Interval: Int, Sendable {
    case hour = 60
    case day = 1440
  }

  let http: ProviderHTTP

  /// Creates a client under `baseURL` (``publicBaseURL`` or a test server).
  public init(baseURL: URL, transport: HTTPTransport) {
    http = ProviderHTTP(
      provider: Provider.kraken, baseURL: baseURL, transport: transport, headers: [:])
  }

  /// The last trade's price of `base` in `quote` (Kraken sends no time).
  public func ticker(base: String, quote: String) async throws -> Double {
    let endpoint = "/0/public/Ticker"
    let result = try await get(
      endpoint, query: [("pair", KrakenPairs.requestName(base, quote))], base: base, quote: quote,
      as: [String: KrakenTickerDTO].self)
    guard let entry = KrakenPairs.entry(in: result, base: base, quote: quote) else {
      throw AnswerGate.refusal(Provider.kraken, endpoint, "no \(base)/\(quote) in the answer")
    }
    guard let last = entry.c.first else {
      throw AnswerGate.refusal(Provider.kraken, endpoint, "no last trade price (c)")
    }
    return try AnswerGate.price(last.value, provider: Provider.kraken, endpoint: endpoint, at: "c[0]")
  }

  /// The candles Kraken keeps for `base`/`quote` since `since`, oldest
  /// first, as `(bucket start, close)`; the newest is still open.
  public func ohlc(base: String, quote: String, interval: Interval, since: Date) async throws
    -> [(Date, Double)]
  {
    let endpoint = "/0/public/OHLC"
    let result = try await get(
      endpoint,
      query: [
        ("pair", KrakenPairs.requestName(base, quote)), ("interval", String(interval.rawValue)),
        ("since", String(Int64(since.timeIntervalSince1970.rounded(.down)))),
      ], base: base, quote: quote, as: [String: KrakenOHLCField].self)
    guard case .rows(let rows)? = KrakenPairs.entry(in: result, base: base, quote: quote) else {
      throw AnswerGate.refusal(Provider.kraken, endpoint, "no \(base)/\(quote) candles in the answer")
    }
    // [time, open, high, low, close, vwap, volume, count]
    let columns = AnswerGate.CandleColumns(low: 3, high: 2, open: 1, close: 4, shape: "[time, open, high, low, close]")
    let samples = try AnswerGate.candleCloses(rows, columns, provider: Provider.kraken, endpoint: endpoint)
    // Kept: from the candle holding `since` (it starts before it) on; earlier ones dropped.
    let window =
      since.addingTimeInterval(-Double(interval.rawValue * 60))...Date.distantFuture
    let newest = max(samples.map(\.0).max() ?? since, since)
    return try AnswerGate.series(
      samples, inside: window, asked: Day(containing: since)...Day(containing: newest),
      provider: Provider.kraken, endpoint: endpoint)
  }

  /// One request; the envelope's `error` read first, then the status.
  private func get<Result: Decodable>(
    _ endpoint: String, query: [(String, String)], base: String, quote: String,
    as type: Result.Type
  ) async throws -> Result {
    let response = try await http.get(endpoint, query: query)
    let envelope = try? JSONDecoder().decode(KrakenEnvelope<Result>.self, from: response.body)
    if let first = envelope?.error.first {
      throw KrakenPairs.error(first, pair: "\(CurrencyCode(base).text)/\(CurrencyCode(quote).text)")
    }
    try http.check(response) { ErrorBodyReading(error: nil, message: ProviderHTTP.text(of: $0.body)) }
    let decoded = try http.decode(KrakenEnvelope<Result>.self, from: response.body, endpoint: endpoint)
    guard let result = decoded.result else {
      throw AnswerGate.refusal(Provider.kraken, endpoint, "no result and no error")
    }
    return result
  }
}

/// Kraken's names for assets and pairs: the one table.
public enum KrakenPairs {
  /// Symbols Kraken spells differently (BTC is XBT, DOGE is XDG).
  static let krakenSymbol: [String: String] = ["BTC": "XBT", "DOGE": "XDG"]
  /// Assets listed before Kraken's naming change: their pairs with a
  /// legacy currency are answered under `X<base>Z<quote>` (`XXBTZUSD`).
  static let legacyAssets: Set<String> = [
    "XBT", "ETH", "LTC", "XRP", "XLM", "XMR", "ETC", "ZEC", "XDG", "MLN", "REP",
  ]
  /// Currencies answered as `Z<code>` in legacy pairs.
  static let legacyCurrencies: Set<String> = ["USD", "EUR", "GBP", "JPY", "CAD"]

  /// The name a request asks for: `XBTUSD`.
  public static func requestName(_ base: String, _ quote: String) -> String {
    kraken(base) + kraken(quote)
  }

  /// The keys an answer may hold the pair under, most specific first:
  /// `XXBTZUSD` for legacy pairs, then the plain `XBTUSDT`.
  public static func answerKeys(_ base: String, _ quote: String) -> [String] {
    let (krakenBase, krakenQuote) = (kraken(base), kraken(quote))
    var keys: [String] = []
    if legacyAssets.contains(krakenBase), legacyCurrencies.contains(krakenQuote) {
      keys.append("X\(krakenBase)Z\(krakenQuote)")
    }
    keys.append(krakenBase + krakenQuote)
    return keys
  }

  static func kraken(_ symbol: String) -> String {
    let upper = CurrencyCode(symbol).text
    return krakenSymbol[upper] ?? upper
  }

  static func entry<Value>(in result: [String: Value], base: String, quote: String) -> Value? {
    answerKeys(base, quote).lazy.compactMap { result[$0] }.first
  }

  /// The ``ProviderError`` one of Kraken's `error` strings stands for.
  static func error(_ text: String, pair: String) -> ProviderError {
    let name = Provider.kraken
    switch text {
    case _ where text.hasPrefix("EQuery:Unknown asset pair"):
      return .notCovered(provider: .provider(name), what: pair)
    case _ where text.hasPrefix("EAPI:Rate limit exceeded"), _ where text.hasPrefix("EGeneral:Too many"):
      return .rateLimited(provider: .provider(name), retryAfter: nil)
    case _ where text.hasPrefix("EService:"):
      return .serverError(provider: .provider(name), status: 503)
    default:
      return .httpStatus(
        provider: .provider(name), status: 200, message: UntrustedText.sanitize(String(text.prefix(200))))
    }
  }
}

/// `{"error":[…],"result":{…}}`.
struct KrakenEnvelope<Result: Decodable>: Decodable {
  let error: [String]
  let result: Result?
}

/// One pair of `/0/public/Ticker`: figures are strings; `c` is `[price, volume]`.
struct KrakenTickerDTO: Decodable {
  let c: [LenientDouble]
}

/// One member of an OHLC `result`: the pair's rows, or `last` (a number
/// or a string).
enum KrakenOHLCField: Decodable {
  case rows([[LenientDouble]])
  case other

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let rows = try? container.decode([[LenientDouble]].self) {
      self = .rows(rows)
    } else if (try? container.decode(LenientDouble.self)) != nil {
      self = .other
    } else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected candle rows or a number")
    }
  }
}
