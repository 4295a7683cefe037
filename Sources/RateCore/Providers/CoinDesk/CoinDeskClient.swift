/// The CoinDesk Bitcoin Price Index v1 format: Bitcoin only, errors in plain
/// text.
///
/// The real service is retired; `rates` keeps the format for mirrors and
/// recorded data (see `RATES_COINDESK_URL`).
public struct CoinDeskClient: Sendable {
  /// The historical base URL.
  public static let defaultBaseURL = URL(string: "https://api.coindesk.com/v1/bpi")

  let http: ProviderHTTP

  /// Creates a client for the API under `baseURL`.
  public init(baseURL: URL, transport: HTTPTransport) {
    http = ProviderHTTP(
      provider: Provider.coinDesk, baseURL: baseURL, transport: transport, headers: [:])
  }

  /// The current BPI in `currency` (and the time CoinDesk last updated it).
  public func currentPrice(currency: String) async throws -> (rate: Double, updatedAt: Date?) {
    let code = CurrencyCode(currency).text
    let path = "/currentprice/\(ProviderHTTP.encodeQueryValue(code)).json"
    let endpoint = "/currentprice/{CODE}.json"
    let response = try await http.get(path, finalServerErrors: [Self.noResults])
    try check(response, currency: code, noResults: "no current price in \(code)")
    let dto = try http.decode(CoinDeskCurrentPriceDTO.self, from: response.body, endpoint: endpoint)
    guard let entry = dto.bpi[code] ?? dto.bpi.values.first(where: { CurrencyCode($0.code).text == code })
    else {
      throw ProviderError.malformedResponse(
        provider: .provider(.coinDesk), endpoint: endpoint, detail: "at bpi: missing key '\(code)'")
    }
    let rate = try AnswerGate.price(
      entry.rateFloat.value, provider: Provider.coinDesk, endpoint: endpoint,
      at: "bpi.\(code).rate_float")
    let updated = dto.time?.updatedISO.flatMap(ISO8601.parse)
    return (rate, updated)
  }

  /// The first day of the BPI: a range starting earlier is refused (404).
  public static let firstDay = Day(daysSinceEpoch: 14_807)  // 2010-07-17

  /// Daily closes in `currency` for every day from `start` to `end`
  /// inclusive, sorted by day. Days CoinDesk does not list are absent; days
  /// outside the range (CoinDesk may send its own 31-day window) are dropped,
  /// and an answer with none inside or an implausible close is refused
  /// (``AnswerGate``).
  public func historicalCloses(currency: String, start: Day, end: Day) async throws -> [RatePoint] {
    let code = CurrencyCode(currency).text
    let endpoint = "/historical/close.json"
    let response = try await http.get(
      endpoint,
      query: [("currency", code), ("start", start.description), ("end", end.description)],
      finalServerErrors: [Self.noResults])
    try check(response, currency: code, noResults: "no prices for that range")
    let dto = try http.decode(CoinDeskHistoricalDTO.self, from: response.body, endpoint: endpoint)
    var points: [RatePoint] = []
    for (key, value) in dto.bpi ?? [:] {
      guard let day = Day(key) else {
        throw ProviderError.malformedResponse(
          provider: .provider(.coinDesk), endpoint: endpoint,
          detail: "at bpi: '\(UntrustedText.sanitize(key))' is not a date")
      }
      let rate = try AnswerGate.price(
        value.value, provider: Provider.coinDesk, endpoint: endpoint,
        at: "bpi.\(UntrustedText.sanitize(key))")
      points.append(RatePoint(date: day, rate: rate))
    }
    // No slack: the days asked for, the rest of the BPI's own window dropped.
    return try AnswerGate.days(
      points, inside: start...end, asked: start...end, provider: Provider.coinDesk,
      endpoint: endpoint
    ).sorted { $0.date < $1.date }
  }

  /// The 500 body for a range with no data: final, not a server failure.
  static let noResults = "No results returned"

  /// Maps CoinDesk's plain-text errors (``ProviderHTTP/check(_:reading:)``);
  /// `noResults` says what "No results" means for the request.
  func check(_ response: HTTPResponse, currency: String, noResults: String) throws {
    try http.check(response) { response in
      let provider = Provider.coinDesk
      let text = ProviderHTTP.text(of: response.body)
      let lowered = text.lowercased()
      let error: ProviderError?
      if lowered.contains("currency was not found")
        || lowered.contains("is not supported or is invalid")
      {
        error = .invalidCurrency(provider: .provider(provider), currency: currency)
      } else if lowered.contains("only covers data from") {
        error = .noData(
          provider: .provider(provider), detail: "the BPI starts on 2010-07-17: ask for later days")
      } else if lowered.contains(Self.noResults.lowercased())
        || lowered.contains("end date is before your start date")
      {
        // The same text answers a start date in the future.
        error = .noData(provider: .provider(provider), detail: noResults)
      } else {
        error = nil
      }
      return ErrorBodyReading(error: error, message: text)
    }
  }
}
