import Foundation
import RateCore

// The fake CoinGecko, CoinDesk BPI and Frankfurter APIs: one implementation, served
// in process by `InProcessServer` (CLI tests), on a socket by `LoopbackServer`
// (end-to-end tests) and by the `fake-api` executable (benchmark and demo scripts).
// They answer like the real APIs (shapes as in apis.md) with synthetic,
// deterministic values relative to an injected `now`, so a test can recompute
// every expected number.
//
// Errors the real APIs document use their real bodies; errors the fakes had
// to invent start with "FakeCoinGecko:" or "FakeCoinDesk:".
//
//     let server = try LoopbackServer(handler: FakeCoinGecko.handler(now: { Date() }))
//     let base = server.baseURL.appendingPathComponent("api/v3")

// MARK: - CoinGecko

/// A fake CoinGecko v3 API under the path prefix `/api/v3`.
///
/// Values, all rounded to 2 decimals:
/// - `dailyValue(id:currency:day:)` is the point stamped `day.start` (00:00 UTC):
///   `base × wave(key: "<id>/<currency>", x: day.daysSinceEpoch)`, where
///   `base` is `defaultPrices[id][currency]` (or a value derived from the key) and
///   `wave(key, x) = 1 + 0.04·sin(0.45x + φ) + 0.015·sin(1.7x + 2φ)` with `φ` from
///   an FNV-1a hash of the key (see `FakeSupport.wave`).
/// - `intradayValue(id:currency:at:)` is the same curve at a fractional day, so it
///   equals `dailyValue` at midnights; used for hourly and 5-minute series.
/// - `nowValue(id:currency:)` is the `/simple/price` price and the chart's last
///   ("now") point: `prices[id][currency]`.
public enum FakeCoinGecko {
  /// The prices `/simple/price` serves by default; also the base of the curves.
  public static let defaultPrices: [String: [String: Double]] = [
    "bitcoin": ["eur": 61_234.5, "usd": 66_012.25, "gbp": 52_000.75],
    "ethereum": ["eur": 3_310.42, "usd": 3_568.9, "gbp": 2_810.3],
    "tether": ["eur": 0.9212, "usd": 1.0002, "gbp": 0.7851],
    "solana": ["eur": 152.31, "usd": 164.2, "gbp": 129.88],
    "ripple": ["eur": 0.4871, "usd": 0.5252, "gbp": 0.4153],
    "dogecoin": ["eur": 0.1432, "usd": 0.1544, "gbp": 0.1221],
    "cardano": ["eur": 0.4123, "usd": 0.4445, "gbp": 0.3516],
    "tron": ["eur": 0.1121, "usd": 0.1209, "gbp": 0.0956],
    "chainlink": ["eur": 15.42, "usd": 16.63, "gbp": 13.15],
    "polkadot": ["eur": 6.51, "usd": 7.02, "gbp": 5.55],
    "litecoin": ["eur": 77.8, "usd": 83.9, "gbp": 66.35],
    "ethereum-wormhole": ["eur": 3_301.1, "usd": 3_558.8, "gbp": 2_802.4],
    "bitcoin-cash": ["eur": 410.2, "usd": 442.1956, "gbp": 349.9006],
    "stellar": ["eur": 0.0981, "usd": 0.1058, "gbp": 0.0837],
    "monero": ["eur": 151.3, "usd": 163.1014, "gbp": 129.0589],
    "cosmos": ["eur": 7.41, "usd": 7.988, "gbp": 6.3207],
    "uniswap": ["eur": 9.12, "usd": 9.8314, "gbp": 7.7794],
    "near": ["eur": 5.43, "usd": 5.8535, "gbp": 4.6318],
    "aptos": ["eur": 8.05, "usd": 8.6779, "gbp": 6.8667],
    "filecoin": ["eur": 4.88, "usd": 5.2606, "gbp": 4.1626],
    "algorand": ["eur": 0.1723, "usd": 0.1857, "gbp": 0.147],
    "tezos": ["eur": 0.8312, "usd": 0.896, "gbp": 0.709],
    "zcash": ["eur": 22.4, "usd": 24.1472, "gbp": 19.1072],
    "dash": ["eur": 27.9, "usd": 30.0762, "gbp": 23.7987],
    "aave": ["eur": 88.1, "usd": 94.9718, "gbp": 75.1493],
  ]

  /// `defaultPrices` plus `btc` and `eth` quotes derived from the USD prices,
  /// as CoinGecko also prices coins in those.
  public static let pricesWithCryptoQuotes: [String: [String: Double]] = {
    var prices = defaultPrices
    for (id, table) in defaultPrices {
      guard let usd = table["usd"] else { continue }
      for (quote, quoteID) in [("btc", "bitcoin"), ("eth", "ethereum")] {
        if let reference = defaultPrices[quoteID]?["usd"] {
          prices[id]?[quote] = FakeSupport.round(usd / reference, places: 10)
        }
      }
    }
    return prices
  }()

  /// Circulating supply used for `market_caps` (`value × supply`) and
  /// `total_volumes` (`value × supply × 0.025`).
  public static func supply(id: String) -> Double {
    switch id {
    case "bitcoin": return 19_700_000
    case "ethereum": return 120_100_000
    default: return 1_000_000_000
    }
  }

  /// One row of the built-in `/search` table.
  public struct Coin: Sendable {
    let id: String
    let name: String
    let symbol: String
    let rank: Int?
  }

  /// The `/search` table, in market-cap order (unranked last). Only ids that
  /// have prices (`bitcoin`, `ethereum` by default) have charts and simple prices.
  public static let coins: [Coin] = [
    Coin(id: "bitcoin", name: "Bitcoin", symbol: "BTC", rank: 1),
    Coin(id: "ethereum", name: "Ethereum", symbol: "ETH", rank: 2),
    Coin(id: "tether", name: "Tether", symbol: "USDT", rank: 3),
    Coin(id: "solana", name: "Solana", symbol: "SOL", rank: 5),
    Coin(id: "ripple", name: "XRP", symbol: "XRP", rank: 6),
    Coin(id: "dogecoin", name: "Dogecoin", symbol: "DOGE", rank: 8),
    Coin(id: "cardano", name: "Cardano", symbol: "ADA", rank: 9),
    Coin(id: "tron", name: "TRON", symbol: "TRX", rank: 10),
    Coin(id: "chainlink", name: "Chainlink", symbol: "LINK", rank: 12),
    Coin(id: "polkadot", name: "Polkadot", symbol: "DOT", rank: 14),
    Coin(id: "litecoin", name: "Litecoin", symbol: "LTC", rank: 20),
    Coin(id: "bitcoin-cash", name: "Bitcoin Cash", symbol: "BCH", rank: 21),
    Coin(id: "stellar", name: "Stellar", symbol: "XLM", rank: 25),
    Coin(id: "monero", name: "Monero", symbol: "XMR", rank: 28),
    Coin(id: "cosmos", name: "Cosmos Hub", symbol: "ATOM", rank: 30),
    Coin(id: "uniswap", name: "Uniswap", symbol: "UNI", rank: 22),
    Coin(id: "near", name: "NEAR Protocol", symbol: "NEAR", rank: 23),
    Coin(id: "aptos", name: "Aptos", symbol: "APT", rank: 31),
    Coin(id: "filecoin", name: "Filecoin", symbol: "FIL", rank: 35),
    Coin(id: "algorand", name: "Algorand", symbol: "ALGO", rank: 50),
    Coin(id: "tezos", name: "Tezos", symbol: "XTZ", rank: 60),
    Coin(id: "zcash", name: "Zcash", symbol: "ZEC", rank: 70),
    Coin(id: "dash", name: "Dash", symbol: "DASH", rank: 80),
    Coin(id: "aave", name: "Aave", symbol: "AAVE", rank: 40),
    Coin(id: "evil-coin", name: "Evil\u{1B}[31mCoin", symbol: "EVIL", rank: 4_242),
    Coin(id: "ethereum-wormhole", name: "Ethereum (Wormhole)", symbol: "ETH", rank: nil),
  ]

  /// The current price: `prices[id][currency]`, or the curve's base when absent.
  public static func nowValue(
    id: String, currency: String, prices: [String: [String: Double]] = defaultPrices
  ) -> Double {
    prices[id]?[currency] ?? base(id: id, currency: currency)
  }

  /// The daily point stamped at `day.start` (00:00 UTC).
  public static func dailyValue(id: String, currency: String, day: Day) -> Double {
    intradayValue(id: id, currency: currency, at: day.start)
  }

  /// The curve at any instant (hourly and 5-minute series).
  public static func intradayValue(id: String, currency: String, at date: Date) -> Double {
    let x = date.timeIntervalSince1970 / 86_400
    return FakeSupport.round(
      base(id: id, currency: currency) * FakeSupport.wave(key: "\(id)/\(currency)", x: x),
      places: 2)
  }

  /// The change in percent of the current price over the `seconds` before `now`, 4 decimals:
  /// `(nowValue / intradayValue(now − seconds) − 1) × 100`; by default `<vs>_24h_change`
  /// (others: `price_change_percentage_1h_in_currency` and the like).
  public static func change(
    id: String, currency: String, now: Date, over seconds: TimeInterval = 86_400,
    prices: [String: [String: Double]] = defaultPrices
  ) -> Double {
    let then = intradayValue(id: id, currency: currency, at: now.addingTimeInterval(-seconds))
    let current = nowValue(id: id, currency: currency, prices: prices)
    return FakeSupport.round((current / then - 1) * 100, places: 4)
  }

  /// The base of the curve: the default price, or a value in 10…1010 derived from the key.
  public static func base(id: String, currency: String) -> Double {
    defaultPrices[id]?[currency]
      ?? 10 + Double(StableHash.fnv1a64("\(id)/\(currency)") % 100_000) / 100
  }

  /// Serves `/api/v3/ping`, `/simple/price`, `/coins/{id}/market_chart`,
  /// `/coins/{id}/market_chart/range`, `/coins/markets` and `/search`.
  ///
  /// - Parameters:
  ///   - now: the fake's clock, read once per request.
  ///   - prices: current prices by id, then lower-case currency. Known ids are its
  ///     keys; known currencies are every currency of any id.
  public static func handler(
    now: @escaping @Sendable () -> Date,
    prices: [String: [String: Double]] = pricesWithCryptoQuotes
  ) -> @Sendable (RecordedRequest) -> LoopbackReply {
    { request in
      let prefix = "/api/v3"
      guard request.path.hasPrefix(prefix + "/") else {
        return .json(#"{"error":"FakeCoinGecko: path outside /api/v3"}"#, status: 404)
      }
      let path = String(request.path.dropFirst(prefix.count))
      let components = path.split(separator: "/").map(String.init)
      let date = now()
      switch components.count {
      case 1 where components[0] == "ping":
        return .json(#"{"gecko_says":"(V3) To the Moon!"}"#)
      case 2 where components == ["simple", "price"]:
        return simplePrice(request, now: date, prices: prices)
      case 1 where components[0] == "search":
        return search(request.query["query"] ?? "")
      case 2 where components == ["coins", "markets"]:
        return markets(request, now: date, prices: prices)
      case 3 where components[0] == "coins" && components[2] == "market_chart":
        return chart(id: components[1], request, prices: prices) {
          marketChart(id: components[1], vs: $0, request, now: date, prices: prices)
        }
      case 4
      where components[0] == "coins" && components[2] == "market_chart"
        && components[3] == "range":
        return chart(id: components[1], request, prices: prices) {
          marketChartRange(id: components[1], vs: $0, request, now: date, prices: prices)
        }
      default:
        return .json(#"{"error":"Not Found"}"#, status: 404)
      }
    }
  }

  // MARK: Endpoints

  static func knownCurrencies(_ prices: [String: [String: Double]]) -> Set<String> {
    Set(prices.values.flatMap(\.keys))
  }

  static func flag(_ request: RecordedRequest, _ name: String) -> Bool {
    request.query[name]?.lowercased() == "true"
  }

  private static func simplePrice(
    _ request: RecordedRequest, now: Date, prices: [String: [String: Double]]
  ) -> LoopbackReply {
    let ids = FakeSupport.list(request.query["ids"])
    let currencies = FakeSupport.list(request.query["vs_currencies"])
    guard !currencies.isEmpty else {
      return .json(#"{"error":"Missing parameter vs_currencies"}"#, status: 400)
    }
    let known = knownCurrencies(prices)
    guard currencies.allSatisfy(known.contains) else {
      return .json(#"{"error":"invalid vs_currency"}"#, status: 400)
    }
    let seconds = Int(now.timeIntervalSince1970.rounded(.down))
    var entries: [String] = []
    var seen: Set<String> = []
    for id in ids where prices[id] != nil && seen.insert(id).inserted {
      var fields: [String] = []
      for vs in currencies {
        let price = nowValue(id: id, currency: vs, prices: prices)
        fields.append("\(FakeSupport.quote(vs)):\(price)")
        if flag(request, "include_market_cap") {
          fields.append("\(FakeSupport.quote(vs + "_market_cap")):\(price * supply(id: id))")
        }
        if flag(request, "include_24hr_vol") {
          let volume = FakeSupport.round(price * supply(id: id) * 0.025, places: 2)
          fields.append("\(FakeSupport.quote(vs + "_24h_vol")):\(volume)")
        }
        if flag(request, "include_24hr_change") {
          let change = change(id: id, currency: vs, now: now, prices: prices)
          fields.append("\(FakeSupport.quote(vs + "_24h_change")):\(change)")
        }
      }
      if flag(request, "include_last_updated_at") {
        fields.append("\"last_updated_at\":\(seconds - seconds % 20)")
      }
      entries.append("\(FakeSupport.quote(id)):{\(fields.joined(separator: ","))}")
    }
    return .json("{\(entries.joined(separator: ","))}")
  }

  /// A chart request for `id`: CoinGecko's refusal of an unknown coin (404) or currency
  /// (400), else what `answer` replies for its lower-cased `vs_currency`.
  private static func chart(
    id: String, _ request: RecordedRequest, prices: [String: [String: Double]],
    answer: (_ vs: String) -> LoopbackReply
  ) -> LoopbackReply {
    guard prices[id] != nil else { return .json(#"{"error":"coin not found"}"#, status: 404) }
    guard let vs = request.query["vs_currency"]?.lowercased(),
      knownCurrencies(prices).contains(vs)
    else { return .json(#"{"error":"invalid vs_currency"}"#, status: 400) }
    return answer(vs)
  }

  private static func marketChart(
    id: String, vs: String, _ request: RecordedRequest, now: Date,
    prices: [String: [String: Double]]
  ) -> LoopbackReply {
    let daysText = request.query["days"] ?? ""
    if daysText == "max" || (Int(daysText) ?? 0) > 365 {
      return .json(rangeError(now: now), status: 401)
    }
    guard let days = Int(daysText), days >= 1 else {
      return .json(#"{"error":"FakeCoinGecko: days must be a positive integer"}"#, status: 400)
    }

    var points: [(ms: Int64, value: Double)] = []
    if request.query["interval"] == "daily" || days > 90 {
      let today = Day(containing: now)
      points = (today.adding(days: 1 - days)...today).map {
        (FakeSupport.milliseconds($0.start), dailyValue(id: id, currency: vs, day: $0))
      }
    } else {
      // Automatic granularity: 5-minutely for 1 day, hourly for 2–90, with jitter; like the
      // real one it starts at now − N days, before the first day a client asks for.
      let step: TimeInterval = days == 1 ? 300 : 3_600
      let count = Int(TimeInterval(days) * 86_400 / step)
      for index in stride(from: count, through: 1, by: -1) {
        let nominal = now.addingTimeInterval(-TimeInterval(index) * step)
        let bucket = Int64((nominal.timeIntervalSince1970 / step).rounded(.down))
        let jitter = TimeInterval(Int(StableHash.fnv1a64("\(bucket)") % 40_000) - 20_000) / 1_000
        let stamp = nominal.addingTimeInterval(jitter)
        points.append(
          (FakeSupport.milliseconds(stamp), intradayValue(id: id, currency: vs, at: stamp)))
      }
    }
    points.append((FakeSupport.milliseconds(now), nowValue(id: id, currency: vs, prices: prices)))

    let supply = supply(id: id)
    func series(_ transform: (Double) -> Double) -> String {
      "[" + points.map { "[\($0.ms),\(transform($0.value))]" }.joined(separator: ",") + "]"
    }
    let body =
      "{\"prices\":\(series { $0 }),"
      + "\"market_caps\":\(series { FakeSupport.round($0 * supply, places: 1) }),"
      + "\"total_volumes\":\(series { FakeSupport.round($0 * supply * 0.025, places: 1) })}"
    return .json(body)
  }

  /// The first day each coin has prices (bitcoin 2013-04-28, ethereum
  /// 2015-08-07, every other coin 2017-01-01): a range before it has no points.
  public static func firstDay(id: String) -> Day {
    switch id {
    case "bitcoin": return Day(daysSinceEpoch: 15_823)  // 2013-04-28
    case "ethereum": return Day(daysSinceEpoch: 16_654)  // 2015-08-07
    default: return Day(daysSinceEpoch: 17_167)  // 2017-01-01
    }
  }

  /// `/coins/{id}/market_chart/range?vs_currency&from&to` (Unix seconds):
  /// daily points at 00:00 UTC for spans over 90 days, hourly (on the hour,
  /// no jitter) otherwise, from `firstDay(id:)` on, and the "now" point when
  /// `to` reaches now. Like the real range, its end is exclusive: a point
  /// stamped exactly `to` is not sent (a client must ask past the end). Without an `x-cg-pro-api-key` header, a `from` more than
  /// 365 days before now is the 10012 error (HTTP 401).
  private static func marketChartRange(
    id: String, vs: String, _ request: RecordedRequest, now: Date,
    prices: [String: [String: Double]]
  ) -> LoopbackReply {
    guard let fromSeconds = request.query["from"].flatMap(Double.init),
      let toSeconds = request.query["to"].flatMap(Double.init), fromSeconds <= toSeconds
    else { return .json(#"{"error":"FakeCoinGecko: from and to must be Unix seconds, from <= to"}"#, status: 400) }
    let from = Date(timeIntervalSince1970: fromSeconds)
    let to = min(Date(timeIntervalSince1970: toSeconds), now)
    if request.headers["x-cg-pro-api-key"] == nil, now.timeIntervalSince(from) > 365 * 86_400 {
      return .json(rangeError(now: now), status: 401)
    }
    let listed = firstDay(id: id).start
    let step: TimeInterval = to.timeIntervalSince(from) > 90 * 86_400 ? 86_400 : 3_600
    let first = Date(timeIntervalSince1970: (max(from, listed).timeIntervalSince1970 / step).rounded(.up) * step)
    var points = stride(from: first, to: to, by: step).map {
      (ms: FakeSupport.milliseconds($0), value: intradayValue(id: id, currency: vs, at: $0))
    }
    if now.timeIntervalSince(to) < 1, now >= listed {
      points.append((FakeSupport.milliseconds(now), nowValue(id: id, currency: vs, prices: prices)))
    }
    let series = "[" + points.map { "[\($0.ms),\($0.value)]" }.joined(separator: ",") + "]"
    return .json("{\"prices\":\(series),\"market_caps\":\(series),\"total_volumes\":\(series)}")
  }
}
