import Foundation
import RateCore

// MARK: - Coinbase Exchange

/// A fake Coinbase Exchange public API under the path prefix `/coinbase`,
/// answering in the real shapes (fixtures/real/coinbase, apis.md 4.1) with
/// synthetic, deterministic figures.
///
/// - Products: ``listings`` (BTC-USD from 2015-07-20, ETH-USD, BTC-EUR);
///   anything else is 404 `{"message":"NotFound"}`.
/// - `/products/{P}/ticker`: `price` (a string) is ``price(base:quote:at:)``
///   at now, `time` now with microseconds.
/// - `/products/{P}/candles?granularity=86400|3600&start=&end=`: buckets from
///   `start` to `end` inclusive and, as the real one may send, the bucket
///   before `start`, newest first, none before the listing or after now; more than 300 → 400 with Coinbase's message; another
///   granularity → 400 `Unsupported granularity`. A candle's close is
///   ``price(base:quote:at:)`` at the bucket's end.
public enum FakeCoinbase {
  /// The listed products and their first day.
  public static let listings: [String: Day] = [
    "BTC-USD": Day(year: 2015, month: 7, day: 20) ?? Day(daysSinceEpoch: 0),
    "ETH-USD": Day(year: 2016, month: 5, day: 18) ?? Day(daysSinceEpoch: 0),
    "BTC-EUR": Day(year: 2015, month: 4, day: 23) ?? Day(daysSinceEpoch: 0),
  ]
  static let basePrices: [String: Double] = ["BTC": 60_000, "ETH": 3_000]
  static let euroPerDollar = 0.92

  /// The fake's price of `base` in `quote` at `instant`, rounded to cents.
  public static func price(base: String, quote: String, at instant: Date) -> Double {
    let dollars = basePrices[base.uppercased()] ?? 1
    let inQuote = quote.uppercased() == "EUR" ? dollars * euroPerDollar : dollars
    let x = instant.timeIntervalSince1970 / 3_600
    return FakeSupport.round(
      inQuote * FakeSupport.wave(key: "coinbase/\(base)-\(quote)", x: x / 24), places: 2)
  }

  /// A request handler at `now`.
  public static func handler(now: @escaping @Sendable () -> Date)
    -> @Sendable (RecordedRequest) -> LoopbackReply
  {
    { request in
      let answer = answer(path: request.path, query: request.query, now: now())
      return .json(answer.body, status: answer.status)
    }
  }

  /// The status and body for `path` (after `/coinbase`) and `query` at `now`.
  public static func answer(path: String, query: [String: String], now: Date)
    -> (status: Int, body: String)
  {
    let parts = path.split(separator: "/").map(String.init).filter { $0 != "coinbase" }
    guard parts.count == 3, parts[0] == "products", let listed = listings[parts[1]] else {
      return (404, #"{"message":"NotFound"}"#)
    }
    let symbols = parts[1].split(separator: "-").map(String.init)
    switch parts[2] {
    case "ticker":
      let price = price(base: symbols[0], quote: symbols[1], at: now)
      let micros = String(format: "%06d", Int(now.timeIntervalSince1970 * 1e6) % 1_000_000)
      let time = ISO8601.format(now).dropLast() + ".\(micros)Z"
      return (
        200,
        #"{"ask":"\#(price + 0.01)","bid":"\#(price)","volume":"1207.50668151","trade_id":"18502105","price":"\#(price)","size":"0.00730812","time":"\#(time)"}"#
      )
    case "candles":
      return candles(symbols, query: query, listed: listed, now: now)
    default:
      return (404, #"{"message":"NotFound"}"#)
    }
  }

  static func candles(_ symbols: [String], query: [String: String], listed: Day, now: Date)
    -> (status: Int, body: String)
  {
    guard let step = query["granularity"].flatMap(Int.init), [3_600, 86_400].contains(step) else {
      return (400, #"{"message":"Unsupported granularity"}"#)
    }
    let end = query["end"].flatMap(ISO8601.parse) ?? now
    let start = query["start"].flatMap(ISO8601.parse) ?? end.addingTimeInterval(-Double(step * 299))
    let first = Int64((start.timeIntervalSince1970 / Double(step)).rounded(.up)) * Int64(step)
    let last = Int64((end.timeIntervalSince1970 / Double(step)).rounded(.down)) * Int64(step)
    if (last - first) / Int64(step) + 1 > 300 {
      return (
        400,
        #"{"message":"granularity too small for the requested time range. Count of aggregations requested exceeds 300"}"#
      )
    }
    // Like the real exchange, the answer may start a candle before `start`.
    let earliest = first - Int64(step)
    let listedOrNow = Int64(listed.start.timeIntervalSince1970)...Int64(now.timeIntervalSince1970)
    let buckets = stride(from: last, through: earliest, by: -step).filter { listedOrNow.contains($0) }
    let rows = buckets.map { bucket in
      let close = price(
        base: symbols[0], quote: symbols[1], at: Date(timeIntervalSince1970: Double(bucket + Int64(step))))
      return "[\(bucket),\(close * 0.98),\(close * 1.02),\(close * 0.99),\(close),12.5]"
    }
    return (200, "[" + rows.joined(separator: ",") + "]")
  }
}

// MARK: - Kraken

/// A fake Kraken public API under the path prefix `/kraken`, answering in the
/// real shapes (fixtures/real/kraken, apis.md 4.2): every answer
/// `{"error":[…],"result":{…}}` over HTTP 200.
///
/// - Pairs: `XBTUSD` (answered as `XXBTZUSD`), `XBTEUR` (`XXBTZEUR`),
///   `ETHUSD` (`XETHZUSD`); anything else `EQuery:Unknown asset pair`.
/// - `/0/public/Ticker?pair=`: `c[0]` is ``FakeCoinbase/price(base:quote:at:)``
///   at now (the same curve, so tests can compare).
/// - `/0/public/OHLC?pair=&interval=1440|60&since=`: the 720 most recent
///   candles up to now (the last still open), oldest first, from `since`;
///   `last` the newest committed candle's time.
public enum FakeKraken {
  static let pairs: [String: (key: String, base: String, quote: String)] = [
    "XBTUSD": ("XXBTZUSD", "BTC", "USD"), "XBTEUR": ("XXBTZEUR", "BTC", "EUR"),
    "ETHUSD": ("XETHZUSD", "ETH", "USD"),
  ]

  /// A request handler at `now`.
  public static func handler(now: @escaping @Sendable () -> Date)
    -> @Sendable (RecordedRequest) -> LoopbackReply
  {
    { request in .json(answer(path: request.path, query: request.query, now: now()).body) }
  }

  /// The status and body for `path` and `query` at `now`.
  public static func answer(path: String, query: [String: String], now: Date)
    -> (status: Int, body: String)
  {
    guard let pair = query["pair"].flatMap({ pairs[$0.uppercased()] }) else {
      return (200, #"{"error":["EQuery:Unknown asset pair"]}"#)
    }
    if path.hasSuffix("/0/public/Ticker") {
      let price = FakeCoinbase.price(base: pair.base, quote: pair.quote, at: now)
      return (
        200,
        #"{"error":[],"result":{"\#(pair.key)":{"a":["\#(price + 0.1)","1","1.000"],"b":["\#(price)","5","5.000"],"c":["\#(price)","0.00001393"],"v":["615.68639239","2388.56785114"],"p":["\#(price)","\#(price)"],"t":[22946,103648],"l":["\#(price)","\#(price)"],"h":["\#(price)","\#(price)"],"o":"\#(price)"}}}"#
      )
    }
    guard path.hasSuffix("/0/public/OHLC"),
      let minutes = query["interval"].flatMap(Int.init), [60, 1_440].contains(minutes)
    else { return (200, #"{"error":["EGeneral:Invalid arguments"]}"#) }
    let step = Int64(minutes * 60)
    let open = Int64(now.timeIntervalSince1970) / step * step
    let since = query["since"].flatMap(Int64.init) ?? 0
    let first = max(open - 719 * step, since / step * step)
    let rows = stride(from: first, through: open, by: Int(step)).map { bucket in
      let close = FakeCoinbase.price(
        base: pair.base, quote: pair.quote,
        at: Date(timeIntervalSince1970: Double(min(bucket + step, Int64(now.timeIntervalSince1970)))))
      return #"[\#(bucket),"\#(close)","\#(close)","\#(close)","\#(close)","\#(close)","4.07649664",167]"#
    }
    return (
      200,
      #"{"error":[],"result":{"\#(pair.key)":[\#(rows.joined(separator: ","))],"last":\#(open - step)}}"#
    )
  }
}
