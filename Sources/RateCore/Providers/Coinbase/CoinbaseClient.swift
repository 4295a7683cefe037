/// Coinbase Exchange public market data (keyless): the current price from
/// `/products/{BASE}-{QUOTE}/ticker` and candles from
/// `/products/{BASE}-{QUOTE}/candles`.
///
/// Every answer passes ``AnswerGate``: an implausible price, or a candle
/// outside the asked window, refuses the answer as a
/// ``ProviderError/malformedResponse(provider:endpoint:detail:)``. An unknown
/// product (404 `{"message":"NotFound"}`) is
/// ``ProviderError/notCovered(provider:what:)``: the exchange does not list
/// the pair.
public struct CoinbaseClient: Sendable {
  /// The public host.
  public static let publicBaseURL = URL(string: "https://api.exchange.coinbase.com")
  /// The most candles one answer holds; a longer span is refused by Coinbase.
  public static let maxCandlesPerRequest = 300

  /// A candle's width.
  public enum Granularity: Int, Sendable {
    case hour = 3600
    case day = 86_400
  }

  let http: ProviderHTTP

  /// Creates a client under `baseURL` (``publicBaseURL`` or a test server).
  public init(baseURL: URL, transport: HTTPTransport) {
    http = ProviderHTTP(
      provider: Provider.coinbase, baseURL: baseURL, transport: transport, headers: [:])
  }

  /// The last trade's price of `base` in `quote` and when it happened (nil
  /// when the answer's time is unreadable: the price is kept).
  public func ticker(base: String, quote: String) async throws -> (rate: Double, time: Date?) {
    let endpoint = "/products/{product}/ticker"
    let product = Self.product(base, quote)
    let response = try await http.get("/products/\(product)/ticker")
    try check(response, product: product)
    let dto = try http.decode(CoinbaseTickerDTO.self, from: response.body, endpoint: endpoint)
    let rate = try AnswerGate.price(
      dto.price.value, provider: Provider.coinbase, endpoint: endpoint, at: "price")
    return (rate, dto.time.flatMap(ISO8601.parse))
  }

  /// What a long candle range brought: the candles of the windows that
  /// arrived, oldest first, and when a later window failed, the instant from
  /// which nothing arrived and why.
  public struct CandleWindows: Sendable {
    /// `(bucket start, close)`, oldest first.
    public var samples: [(Date, Double)]
    /// The start of the first window that failed, if one did.
    public var missingFrom: Date?
    /// Why that window failed.
    public var failure: ProviderError?
  }

  /// The candles starting in `from..<to`, window by window (oldest first),
  /// keeping the windows that arrived when a later one fails: a long range
  /// timing out halfway keeps its first half. The first window's failure is
  /// thrown (nothing arrived).
  public func candleWindows(
    base: String, quote: String, granularity: Granularity, from: Date, to: Date
  ) async throws -> CandleWindows {
    let step = Double(granularity.rawValue)
    var samples: [(Date, Double)] = []
    let first = (from.timeIntervalSince1970 / step).rounded(.down) * step
    var start = first
    while start < to.timeIntervalSince1970 {
      let end = min(start + step * Double(Self.maxCandlesPerRequest), to.timeIntervalSince1970)
      do {
        samples += try await candleChunk(
          base: base, quote: quote, granularity: granularity,
          window: Date(timeIntervalSince1970: start)...Date(timeIntervalSince1970: end))
      } catch let error as ProviderError where start > first {
        return CandleWindows(
          samples: AnswerGate.normalized(samples), missingFrom: Date(timeIntervalSince1970: start),
          failure: error)
      }
      start = end
    }
    return CandleWindows(samples: AnswerGate.normalized(samples), missingFrom: nil, failure: nil)
  }

  /// One request: the candles starting in `window` (at most 300); candles
  /// outside it (an answer starting before `start`) dropped, a candle that
  /// is not whole refused (``AnswerGate/candleClose(low:high:open:close:provider:endpoint:at:)``).
  private func candleChunk(
    base: String, quote: String, granularity: Granularity, window: ClosedRange<Date>
  ) async throws -> [(Date, Double)] {
    let endpoint = "/products/{product}/candles"
    let product = Self.product(base, quote)
    // `end` is inclusive at Coinbase: the last bucket asked is the one before `window`'s end.
    let last = window.upperBound.addingTimeInterval(-Double(granularity.rawValue))
    let response = try await http.get(
      "/products/\(product)/candles",
      query: [
        ("granularity", String(granularity.rawValue)),
        ("start", ISO8601.format(window.lowerBound)),
        ("end", ISO8601.format(max(last, window.lowerBound))),
      ])
    try check(response, product: product)
    let rows = try http.decode([[LenientDouble]].self, from: response.body, endpoint: endpoint)
    // [time, low, high, open, close, volume]
    let columns = AnswerGate.CandleColumns(low: 1, high: 2, open: 3, close: 4, shape: "[time, low, high, open, close]")
    let samples = try AnswerGate.candleCloses(rows, columns, provider: Provider.coinbase, endpoint: endpoint)
    // Kept: the candles starting in the window (`end` inclusive, so its last bucket too).
    return try AnswerGate.series(
      samples, inside: window.lowerBound...max(last, window.lowerBound),
      asked: Day(containing: window.lowerBound)...Day(containing: window.upperBound),
      provider: Provider.coinbase, endpoint: endpoint)
  }

  /// Coinbase's product name: `BTC-USD`.
  static func product(_ base: String, _ quote: String) -> String {
    ProviderHTTP.encodeQueryValue("\(CurrencyCode(base).text)-\(CurrencyCode(quote).text)")
  }

  /// Throws the ``ProviderError`` a non-2xx answer stands for.
  private func check(_ response: HTTPResponse, product: String) throws {
    try http.check(response) { response in
      let message =
        (try? JSONDecoder().decode(CoinbaseMessageDTO.self, from: response.body))?.message
        .map { UntrustedText.sanitize(String($0.prefix(200))) }
        ?? ProviderHTTP.text(of: response.body)
      if response.status == 404 {
        return ErrorBodyReading(
          error: .notCovered(provider: .provider(.coinbase), what: product), message: message)
      }
      return ErrorBodyReading(error: nil, message: message)
    }
  }
}

/// `/products/{product}/ticker`: figures are strings.
struct CoinbaseTickerDTO: Decodable {
  let price: LenientDouble
  let time: String?
}

/// Every Coinbase error body: `{"message":"NotFound"}`.
struct CoinbaseMessageDTO: Decodable {
  let message: String?
}

extension CoinbaseClient {
  /// The close of each day in `days` that Coinbase has a candle for, oldest
  /// first: a daily candle's close is the price at its end, so the day's
  /// close by ``DailyResampler``'s rule (the candle starting at the day's
  /// 00:00 UTC). The request starts a day early and ends a day late
  /// (``AnswerGate/requested(_:through:)``: never past `today` when given);
  /// days before the product's listing are absent. When a later window
  /// fails, the days it would have brought are the answer's
  /// ``DailyCloses/cutShort``.
  public func dailyCloses(
    base: String, quote: String, days: ClosedRange<Day>, today: Day? = nil
  ) async throws -> DailyCloses {
    let request = AnswerGate.requested(days, through: today ?? days.upperBound.adding(days: 1))
    let answer = try await candleWindows(
      base: base, quote: quote, granularity: .day, from: request.lowerBound.start,
      to: request.upperBound.end)
    var cut: DailyCloses.CutShort?
    if let missing = answer.missingFrom, let failure = answer.failure {
      cut = DailyCloses.CutShort(from: Day(containing: missing), failure: failure)
    }
    return DailyCloses(
      closes: DailyResampler.closes(ofCandles: answer.samples, width: 86_400, in: days),
      latest: nil, cutShort: cut)
  }
}
