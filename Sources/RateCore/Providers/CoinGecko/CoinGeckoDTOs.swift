/// `/simple/price`: `{"<id>": {"<vs>": 1.0, "<vs>_24h_change": -1.2, "last_updated_at": 1718000000}}`.
/// Values are numbers or null; unknown ids are simply absent.
struct CoinGeckoSimplePriceDTO: Decodable {
  let prices: [String: [String: Double?]]

  init(from decoder: any Decoder) throws {
    prices = try decoder.singleValueContainer().decode([String: [String: Double?]].self)
  }
}

/// One `[timestamp_ms, value]` pair of a market chart.
struct CoinGeckoChartPointDTO: Decodable {
  let milliseconds: Double
  let value: Double?

  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    milliseconds = try container.decode(Double.self)
    value = try container.decodeIfPresent(Double.self)
  }
}

/// `/coins/{id}/market_chart`. Only `prices` is used; the other arrays may be
/// absent without harm.
struct CoinGeckoMarketChartDTO: Decodable {
  let prices: [CoinGeckoChartPointDTO]

  /// The price samples through ``AnswerGate``, oldest first, one per
  /// instant: a `null` value is no value and is skipped; a value that is not
  /// a plausible price, or a stamp in seconds or impossible, refuses the
  /// answer.
  func samples(endpoint: String) throws -> [(Date, Double)] {
    var samples: [(Date, Double)] = []
    for (index, point) in prices.enumerated() {
      guard let value = point.value else { continue }
      let date = try AnswerGate.chartInstant(
        milliseconds: point.milliseconds, endpoint: endpoint, at: "prices[\(index)][0]")
      samples.append(
        (
          date,
          try AnswerGate.price(
            value, provider: Provider.coinGecko, endpoint: endpoint, at: "prices[\(index)][1]")
        ))
    }
    return AnswerGate.normalized(samples)
  }
}

/// `/search`: only the coins matter here.
struct CoinGeckoSearchDTO: Decodable {
  struct Coin: Decodable {
    let id: String
    let name: String
    let symbol: String
    let marketCapRank: Int?

    enum CodingKeys: String, CodingKey {
      case id, name, symbol
      case marketCapRank = "market_cap_rank"
    }
  }
  let coins: [Coin]
}

/// CoinGecko's error bodies in all four documented shapes, read leniently.
///
/// - A: `{"error":"coin not found"}`
/// - B: `{"status":{"error_code":429,"error_message":"…"}}`
/// - C: `{"error":{"status":{"error_code":10012,"error_message":"…"}}}`
/// - D: `{"error_code":10011,"status":{"error_message":"…"}}`
///
/// `status` may also be a number (the HTTP status, or the CoinGecko code
/// itself); a number that is 429 or a five-digit code counts as the code.
/// Anything else (HTML, plain text) is kept as text.
struct CoinGeckoErrorBody: Equatable {
  var code: Int?
  var message: String

  init(data: Data) {
    guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
      let text = String(decoding: data.prefix(300), as: UTF8.self)
        .trimming(.whitespacesAndNewlines)
      // An HTML page (a CDN's error page) says nothing a terminal should show.
      message = text.hasPrefix("<") ? "" : text
      code = nil
      return
    }
    var code: Int?
    var message: String?
    func visit(_ dictionary: [String: JSONValue]) {
      if code == nil, let value = dictionary["error_code"]?.wholeNumber { code = value }
      if code == nil, let value = dictionary["status"]?.wholeNumber, value == 429 || value >= 10_000 {
        code = value
      }
      if message == nil, case .string(let value)? = dictionary["error_message"] { message = value }
      if message == nil, case .string(let value)? = dictionary["error"] { message = value }
      for key in ["status", "error"] {
        if case .object(let nested)? = dictionary[key] { visit(nested) }
      }
    }
    visit(object)
    self.code = code
    self.message = message ?? ""
  }
}

extension JSONValue {
  /// The value as an `Int` when it is a whole number that fits one.
  fileprivate var wholeNumber: Int? {
    switch self {
    case .integer(let value): Int(exactly: value)
    case .number(let value): Int(exactly: value)
    default: nil
    }
  }
}
