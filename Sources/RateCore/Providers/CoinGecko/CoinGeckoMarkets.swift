/// One row of `/coins/markets`: a coin's market data in one currency.
///
/// Every number is optional, as the API documents (tail coins have nulls and
/// zero market caps); names are sanitized for the terminal.
public struct CoinMarket: Equatable, Sendable, Codable {
  public var id: String
  /// Upper case.
  public var symbol: String
  public var name: String
  public var currentPrice: Double?
  public var marketCap: Double?
  public var marketCapRank: Int?
  public var totalVolume: Double?
  public var high24h: Double?
  public var low24h: Double?
  public var priceChangePercentage24h: Double?
  public var circulatingSupply: Double?
  public var totalSupply: Double?
  public var maxSupply: Double?
  public var ath: Double?
  public var athChangePercentage: Double?
  public var athDate: Date?
  public var atl: Double?
  public var atlChangePercentage: Double?
  public var atlDate: Date?
  public var lastUpdated: Date?
  /// Hourly prices over the last 7 days, when asked for with `sparkline`.
  public var sparkline7d: [Double]?
  /// The change of the price over the last hour, in percent (`price_change_percentage=1h`).
  public var priceChangePercentage1h: Double? = nil
  /// The change of the price over the last 7 days, in percent (`price_change_percentage=7d`).
  public var priceChangePercentage7d: Double? = nil
}

/// The wire shape of a `/coins/markets` row.
///
/// Numbers are read leniently: the 2018 format sent several of them as
/// strings (`"price_change_percentage_24h":"4.46"`, `"circulating_supply":
/// "17236100.0"`), and a key may be absent, `null`, an integer or a float.
/// Keys not listed here (`roi` as 0, `null` or an object; `image`,
/// `fully_diluted_valuation`) are ignored.
struct CoinGeckoMarketDTO: Decodable {
  let id: String
  let symbol: String
  let name: String
  let currentPrice: Double?
  let marketCap: Double?
  let marketCapRank: Int?
  let totalVolume: Double?
  let high24h: Double?
  let low24h: Double?
  let priceChangePercentage24h: Double?
  let circulatingSupply: Double?
  let totalSupply: Double?
  let maxSupply: Double?
  let ath: Double?
  let athChangePercentage: Double?
  let athDate: String?
  let atl: Double?
  let atlChangePercentage: Double?
  let atlDate: String?
  let lastUpdated: String?
  let sparklineIn7d: Sparkline?
  let priceChangePercentage1h: Double?
  let priceChangePercentage7d: Double?

  struct Sparkline: Decodable {
    let price: [Double?]?
  }

  enum CodingKeys: String, CodingKey {
    case id, symbol, name, ath, atl
    case currentPrice = "current_price"
    case marketCap = "market_cap"
    case marketCapRank = "market_cap_rank"
    case totalVolume = "total_volume"
    case high24h = "high_24h"
    case low24h = "low_24h"
    case priceChangePercentage24h = "price_change_percentage_24h"
    case circulatingSupply = "circulating_supply"
    case totalSupply = "total_supply"
    case maxSupply = "max_supply"
    case athChangePercentage = "ath_change_percentage"
    case athDate = "ath_date"
    case atlChangePercentage = "atl_change_percentage"
    case atlDate = "atl_date"
    case lastUpdated = "last_updated"
    case sparklineIn7d = "sparkline_in_7d"
    case priceChangePercentage1h = "price_change_percentage_1h_in_currency"
    case priceChangePercentage7d = "price_change_percentage_7d_in_currency"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func number(_ key: CodingKeys) throws -> Double? {
      try container.decodeIfPresent(LenientDouble.self, forKey: key)?.value
    }
    id = try container.decode(String.self, forKey: .id)
    symbol = try container.decode(String.self, forKey: .symbol)
    name = try container.decode(String.self, forKey: .name)
    currentPrice = try number(.currentPrice)
    marketCap = try number(.marketCap)
    marketCapRank = try number(.marketCapRank).flatMap { $0 >= 1 && $0 < 1e9 ? Int($0) : nil }
    totalVolume = try number(.totalVolume)
    high24h = try number(.high24h)
    low24h = try number(.low24h)
    priceChangePercentage24h = try number(.priceChangePercentage24h)
    circulatingSupply = try number(.circulatingSupply)
    totalSupply = try number(.totalSupply)
    maxSupply = try number(.maxSupply)
    ath = try number(.ath)
    athChangePercentage = try number(.athChangePercentage)
    athDate = try container.decodeIfPresent(String.self, forKey: .athDate)
    atl = try number(.atl)
    atlChangePercentage = try number(.atlChangePercentage)
    atlDate = try container.decodeIfPresent(String.self, forKey: .atlDate)
    lastUpdated = try container.decodeIfPresent(String.self, forKey: .lastUpdated)
    sparklineIn7d = try container.decodeIfPresent(Sparkline.self, forKey: .sparklineIn7d)
    priceChangePercentage1h = try number(.priceChangePercentage1h)
    priceChangePercentage7d = try number(.priceChangePercentage7d)
  }

  /// The row for the rest of `rates`, through ``AnswerGate`` field by field:
  /// a price (current, high, low, ATH, ATL, sparkline points) that is not
  /// plausible, an amount (market cap, volume, supplies) or a change that
  /// is not, is removed and shown as unknown; the row is kept.
  var domain: CoinMarket {
    func price(_ value: Double?) -> Double? { value.flatMap { AnswerGate.isPrice($0) ? $0 : nil } }
    func amount(_ value: Double?) -> Double? { value.flatMap { AnswerGate.isAmount($0) ? $0 : nil } }
    func change(_ value: Double?) -> Double? {
      value.flatMap { AnswerGate.isChangePercent($0) ? $0 : nil }
    }
    return CoinMarket(
      id: id, symbol: Asset.label(symbol: CurrencyCode(UntrustedText.sanitize(symbol)).text, id: id),
      name: UntrustedText.sanitize(name), currentPrice: price(currentPrice), marketCap: amount(marketCap),
      marketCapRank: marketCapRank,
      totalVolume: amount(totalVolume), high24h: price(high24h), low24h: price(low24h),
      priceChangePercentage24h: change(priceChangePercentage24h),
      circulatingSupply: amount(circulatingSupply), totalSupply: amount(totalSupply),
      maxSupply: amount(maxSupply), ath: price(ath), athChangePercentage: change(athChangePercentage),
      athDate: athDate.flatMap(ISO8601.parse), atl: price(atl),
      // From the all-time low a coin may have risen far more than 10^9 %: only finite.
      atlChangePercentage: atlChangePercentage.flatMap { $0.isFinite && $0 >= -100 ? $0 : nil },
      atlDate: atlDate.flatMap(ISO8601.parse), lastUpdated: lastUpdated.flatMap(ISO8601.parse),
      sparkline7d: sparklineIn7d?.price.map { $0.compactMap { $0 }.filter(AnswerGate.isPrice) },
      priceChangePercentage1h: change(priceChangePercentage1h),
      priceChangePercentage7d: change(priceChangePercentage7d))
  }
}

extension CoinGeckoClient {
  /// Market data from `/coins/markets` in one currency, by market cap.
  ///
  /// - Parameters:
  ///   - ids: only these coins (any number, one request) or, when `nil`, the
  ///     top coins.
  ///   - perPage: rows per page, 1 to 250.
  ///   - sparkline: also fetch 7 days of hourly prices per coin.
  ///
  /// Every row also brings its 1-hour and 7-day changes (`price_change_percentage=1h,24h,7d`).
  public func markets(
    currency: String, ids: [String]? = nil, perPage: Int = 100, page: Int = 1,
    sparkline: Bool = false
  ) async throws -> [CoinMarket] {
    let endpoint = "/coins/markets"
    var query = [
      ("vs_currency", currency.lowercased()), ("order", "market_cap_desc"),
      ("per_page", String(min(max(perPage, 1), 250))), ("page", String(max(page, 1))),
      ("sparkline", sparkline ? "true" : "false"), ("price_change_percentage", "1h,24h,7d"),
    ]
    if let ids { query.insert(("ids", ids.joined(separator: ",")), at: 1) }
    let response = try await http.get(endpoint, query: query)
    try check(
      response, endpoint: endpoint, coin: ids?.joined(separator: ",") ?? "",
      currency: CurrencyCode(currency).text)
    return try http.decode([CoinGeckoMarketDTO].self, from: response.body, endpoint: endpoint)
      .filter { ProviderHTTP.isPlausibleID($0.id) }.map(\.domain)
  }
}

extension CoinMarket {
  /// The row with its `last_updated` removed (shown as unknown) when it is not a
  /// possible update time at `now` (``AnswerGate/isUpdateTime(_:now:)``), like any
  /// other bad number of a row.
  func withPlausibleUpdateTime(now: Date) -> CoinMarket {
    guard let time = lastUpdated, !AnswerGate.isUpdateTime(time, now: now) else { return self }
    var copy = self
    copy.lastUpdated = nil
    return copy
  }

  /// A row for a favorite the provider did not return (delisted, or stale cache).
  public static func placeholder(_ favorite: FavoriteCoin) -> CoinMarket {
    CoinMarket(
      id: favorite.id, symbol: favorite.symbol, name: favorite.name ?? favorite.id, currentPrice: nil,
      marketCap: nil, marketCapRank: nil, totalVolume: nil, high24h: nil, low24h: nil,
      priceChangePercentage24h: nil, circulatingSupply: nil, totalSupply: nil, maxSupply: nil,
      ath: nil, athChangePercentage: nil, athDate: nil, atl: nil, atlChangePercentage: nil,
      atlDate: nil, lastUpdated: nil, sparkline7d: nil)
  }
}
