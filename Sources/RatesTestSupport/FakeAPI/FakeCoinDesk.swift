import Foundation
import RateCore

// MARK: - CoinDesk

/// A fake CoinDesk BPI v1 API. Paths work with or without the `/v1/bpi` prefix.
///
/// Values, rounded to 4 decimals:
/// - `dailyValue(currency:day:)`, the close of `day`:
///   `baseValues[CODE] × wave(key: "coindesk/<CODE>", x: day.daysSinceEpoch)`.
/// - `nowValue(currency:)`, the current price: `baseValues[CODE]`.
public enum FakeCoinDesk {
  /// Known currencies and their current BTC price.
  public static let baseValues: [String: Double] = [
    "USD": 66_020.1234, "EUR": 61_240.5678, "GBP": 52_010.4321,
    "CHF": 59_000.25, "JPY": 10_350_000.5, "CNY": 478_000.75,
  ]

  public static let descriptions: [String: String] = [
    "USD": "United States Dollar", "EUR": "Euro", "GBP": "British Pound Sterling",
    "CHF": "Swiss Franc", "JPY": "Japanese Yen", "CNY": "Chinese Yuan Renminbi",
  ]

  public static let disclaimer =
    "This data was produced from the CoinDesk Bitcoin Price Index (USD). Non-USD currency data "
    + "converted using hourly conversion rate from openexchangerates.org"

  /// The current price of 1 BTC in `currency` (upper case).
  public static func nowValue(currency: String) -> Double {
    baseValues[currency.uppercased()] ?? 0
  }

  /// The close of `day` in `currency`.
  public static func dailyValue(currency: String, day: Day) -> Double {
    let code = currency.uppercased()
    return FakeSupport.round(
      nowValue(currency: code)
        * FakeSupport.wave(key: "coindesk/\(code)", x: Double(day.daysSinceEpoch)),
      places: 4)
  }

  /// Serves `/currentprice.json`, `/currentprice/{CODE}.json`,
  /// `/historical/close.json` and `/supported-currencies.json`.
  public static func handler(now: @escaping @Sendable () -> Date)
    -> @Sendable (RecordedRequest) -> LoopbackReply
  {
    { request in
      var path = request.path
      if path.hasPrefix("/v1/bpi/") { path = String(path.dropFirst("/v1/bpi".count)) }
      let date = now()
      if path == "/currentprice.json" {
        return .json(currentPrice(codes: ["USD", "GBP", "EUR"], now: date, full: true))
      }
      if path.hasPrefix("/currentprice/"), path.hasSuffix(".json") {
        let code = String(path.dropFirst("/currentprice/".count).dropLast(".json".count))
          .uppercased()
        guard baseValues[code] != nil else { return notFound }
        let codes = code == "USD" ? ["USD"] : ["USD", code]
        return .json(currentPrice(codes: codes, now: date, full: false))
      }
      if path == "/historical/close.json" { return historical(request, now: date) }
      if path == "/supported-currencies.json" {
        let entries = baseValues.keys.sorted().map {
          "{\"currency\":\"\($0)\",\"country\":\(FakeSupport.quote(descriptions[$0] ?? $0))}"
        }
        return .json("[\(entries.joined(separator: ","))]")
      }
      return .text("FakeCoinDesk: no such path \(request.path)", status: 404)
    }
  }

  // MARK: Endpoints

  private static let notFound = LoopbackReply.text(
    "Sorry, that currency was not found", status: 404)

  /// The `/currentprice` body for `codes` at `now` (`full`: with every field).
  public static func currentPrice(codes: [String], now: Date, full: Bool) -> String {
    let minute = Date(
      timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
    let symbols = ["USD": "&#36;", "GBP": "&pound;", "EUR": "&euro;"]
    let entries = codes.map { code -> String in
      let value = nowValue(currency: code)
      var fields = ["\"code\":\"\(code)\""]
      if full { fields.append("\"symbol\":\(FakeSupport.quote(symbols[code] ?? code))") }
      fields.append("\"rate\":\(FakeSupport.quote(FakeSupport.grouped(value)))")
      fields.append("\"description\":\(FakeSupport.quote(descriptions[code] ?? code))")
      fields.append("\"rate_float\":\(value)")
      return "\"\(code)\":{\(fields.joined(separator: ","))}"
    }
    return "{\(FakeSupport.bpiTime(minute, uk: true)),"
      + "\"disclaimer\":\(FakeSupport.quote(disclaimer)),"
      + (full ? "\"chartName\":\"Bitcoin\"," : "")
      + "\"bpi\":{\(entries.joined(separator: ","))}}"
  }

  private static func historical(_ request: RecordedRequest, now: Date) -> LoopbackReply {
    let code = (request.query["currency"] ?? "USD").uppercased()
    guard baseValues[code] != nil else { return notFound }
    let today = Day(containing: now)
    let yesterday = today.adding(days: -1)
    var start = today.adding(days: -31)
    var end = yesterday
    if request.query["for"] == "yesterday" {
      start = yesterday
    } else {
      switch (request.query["start"], request.query["end"]) {
      case (nil, nil):
        break
      case (let startText?, let endText?):
        guard let first = Day(startText), let last = Day(endText) else {
          return .text("FakeCoinDesk: start and end must be YYYY-MM-DD", status: 400)
        }
        start = first
        end = last
      default:
        return .text("FakeCoinDesk: give both start and end, or neither", status: 400)
      }
    }
    if let earliest = Day("2010-07-17"), start < earliest {
      return .text("Sorry, the CoinDesk BPI only covers data from 2010-07-17 onwards.", status: 404)
    }
    if end < start || start > today {
      return .text("Sorry, but your specified end date is before your start date.", status: 404)
    }
    end = min(end, yesterday)
    // Like the real BPI, a short range up to yesterday comes back as its own window:
    // the previous 31 days.
    if end == yesterday { start = min(start, today.adding(days: -31)) }
    guard start <= end else { return .json("{}") }
    // Newest first: JSON object order is not guaranteed, so clients must sort.
    let entries = (start...end).reversed().map { "\"\($0)\":\(dailyValue(currency: code, day: $0))" }
    let updated = today.start.addingTimeInterval(180)
    return .json(
      "{\"bpi\":{\(entries.joined(separator: ","))},"
        + "\"disclaimer\":\"This data was produced from the CoinDesk Bitcoin Price Index. "
        + "BPI value data returned as \(code).\",\(FakeSupport.bpiTime(updated, uk: false))}")
  }
}
