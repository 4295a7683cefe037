import Foundation
import RateCore

// The fake CoinGecko's market lists and search: `/coins/markets` and `/search`.
extension FakeCoinGecko {
  /// `/coins/markets`: the coins that have prices, by rank (unranked last),
  /// filtered by `ids`, paged by `per_page` and `page`.
  static func markets(
    _ request: RecordedRequest, now: Date, prices: [String: [String: Double]]
  ) -> LoopbackReply {
    guard let vs = request.query["vs_currency"]?.lowercased(), !vs.isEmpty else {
      return .json(#"{"error":"Missing parameter vs_currency"}"#, status: 400)
    }
    guard knownCurrencies(prices).contains(vs) else {
      return .json(#"{"error":"invalid vs_currency"}"#, status: 400)
    }
    let wanted = request.query["ids"].map { Set(FakeSupport.list($0)) }
    let perPage = min(max(Int(request.query["per_page"] ?? "") ?? 100, 1), 250)
    let page = max(Int(request.query["page"] ?? "") ?? 1, 1)
    let ranked = coins.filter { prices[$0.id] != nil && (wanted?.contains($0.id) ?? true) }
      .sorted { ($0.rank ?? Int.max) < ($1.rank ?? Int.max) }
    let slice = ranked.dropFirst((page - 1) * perPage).prefix(perPage)
    let stamp = now.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    // `sparkline=true`: 168 hourly prices over the last 7 days.
    func sparkline(_ id: String, _ vs: String) -> String {
      guard flag(request, "sparkline") else { return "" }
      let prices = (0..<168).map { hour in
        intradayValue(id: id, currency: vs, at: now.addingTimeInterval(-Double(168 - hour) * 3_600))
      }
      return ",\"sparkline_in_7d\":{\"price\":[\(prices.map { "\($0)" }.joined(separator: ","))]}"
    }
    // `price_change_percentage=1h,24h,7d`: `price_change_percentage_1h_in_currency` and so on.
    let periods = FakeSupport.list(request.query["price_change_percentage"] ?? "")
    func changes(_ id: String, _ vs: String) -> String {
      [("1h", 3_600.0), ("24h", 86_400.0), ("7d", 604_800.0)].filter { periods.contains($0.0) }
        .map { period, seconds in
          let value = change(id: id, currency: vs, now: now, over: seconds, prices: prices)
          return ",\"price_change_percentage_\(period)_in_currency\":\(value)"
        }.joined()
    }
    let rows = slice.map { coin -> String in
      let price = nowValue(id: coin.id, currency: vs, prices: prices)
      let supply = supply(id: coin.id)
      let high = FakeSupport.round(price * 1.02, places: 6)
      let low = FakeSupport.round(price * 0.97, places: 6)
      let ath = FakeSupport.round(price * 1.5, places: 6)
      let atl = FakeSupport.round(price * 0.01, places: 8)
      let change = change(id: coin.id, currency: vs, now: now, prices: prices)
      return
        "{\"id\":\(FakeSupport.quote(coin.id)),\"symbol\":\(FakeSupport.quote(coin.symbol.lowercased())),"
        + "\"name\":\(FakeSupport.quote(coin.name)),\"image\":\"missing_large.png\","
        + "\"current_price\":\(price),\"market_cap\":\(FakeSupport.round(price * supply, places: 1)),"
        + "\"market_cap_rank\":\(coin.rank.map(String.init) ?? "null"),"
        + "\"fully_diluted_valuation\":null,"
        + "\"total_volume\":\(FakeSupport.round(price * supply * 0.025, places: 1)),"
        + "\"high_24h\":\(high),\"low_24h\":\(low),\"price_change_24h\":null,"
        + "\"price_change_percentage_24h\":\(change),"
        + "\"circulating_supply\":\(supply),\"total_supply\":\(supply),"
        + "\"max_supply\":\(coin.id == "bitcoin" ? "21000000.0" : "null"),"
        + "\"ath\":\(ath),\"ath_change_percentage\":-33.3333,\"ath_date\":\"2024-03-14T07:10:36.635Z\","
        + "\"atl\":\(atl),\"atl_change_percentage\":9900.0,\"atl_date\":\"2015-10-20T00:00:00.000Z\","
        + "\"roi\":null,\"last_updated\":\"\(stamp)\"" + sparkline(coin.id, vs)
        + changes(coin.id, vs) + "}"
    }
    return .json("[\(rows.joined(separator: ","))]")
  }

  /// Shape C, HTTP 401, code 10012.
  public static func rangeError(now: Date) -> String {
    let stamp = now.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    return
      #"{"error":{"status":{"timestamp":"\#(stamp)","error_code":10012,"#
      + #""error_message":"Your request exceeds the allowed time range. Public API users are "#
      + #"limited to querying historical data within the past 365 days. Upgrade to a paid plan "#
      + #"to enjoy full historical data access: https://www.coingecko.com/en/api/pricing. "}}}"#
  }

  static func search(_ query: String) -> LoopbackReply {
    let needle = query.trimmingCharacters(in: .whitespaces).lowercased()
    let matches =
      needle.isEmpty
      ? []
      : coins.enumerated().filter { _, coin in
        [coin.id, coin.name, coin.symbol].contains { $0.lowercased().contains(needle) }
      }
      .sorted { ($0.element.rank ?? .max, $0.offset) < ($1.element.rank ?? .max, $1.offset) }
      .map(\.element)
    let entries = matches.map { coin in
      let thumb = "https://coin-images.coingecko.com/coins/images/1/thumb/\(coin.id).png"
      let large = "https://coin-images.coingecko.com/coins/images/1/large/\(coin.id).png"
      return "{\"id\":\(FakeSupport.quote(coin.id)),\"name\":\(FakeSupport.quote(coin.name)),"
        + "\"api_symbol\":\(FakeSupport.quote(coin.id)),\"symbol\":\(FakeSupport.quote(coin.symbol)),"
        + "\"market_cap_rank\":\(coin.rank.map(String.init) ?? "null"),"
        + "\"thumb\":\(FakeSupport.quote(thumb)),\"large\":\(FakeSupport.quote(large))}"
    }
    return .json(
      "{\"coins\":[\(entries.joined(separator: ","))],"
        + "\"exchanges\":[],\"icos\":[],\"categories\":[],\"nfts\":[]}")
  }
}
