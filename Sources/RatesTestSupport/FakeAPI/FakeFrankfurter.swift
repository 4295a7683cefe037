import Foundation
import RateCore

// MARK: - Frankfurter

/// A fake Frankfurter v1 API under the path prefix `/frankfurter`, answering like
/// apis.md section 3 with synthetic, deterministic ECB figures.
///
/// Values:
/// - Working days follow the ECB calendar of ``MarketClosure`` (RateCore): no
///   rate on weekends, 1 January, Good Friday, Easter Monday, 1 May, 25 and
///   26 December (the last four from 2000), 1999-12-31 and 2001-12-31. Data
///   starts on ``earliest`` (1999-01-04).
/// - A working day's rate is published at ``UpdateRhythm/ecbDueAfter`` (16:00
///   UTC, as `rates` expects it): before that, "today" is the previous working
///   day (``UpdateRhythm/newestECBDay(at:)``).
/// - `eurRate(code, day)`, the EUR-based figure of the last working day on or before
///   `day`: `eurBase[code] × (1 + (wave(key: "frankfurter/<CODE>", x: w) − 1) / 4)`,
///   `w` the working day's `daysSinceEpoch`,
///   rounded like the ECB publishes (≥ 100: 2 decimals, ≥ 10: 3, else 4); EUR is 1.
/// - Another base or an `amount` other than 1: `amount × eurRate(quote) / eurRate(base)`
///   rounded by size as apis.md 3.3 (> 5000: 0 decimals, > 80: 2, > 20: 3, > 1: 4,
///   > 0.0001: 5, else 6).
/// - `/latest` (and `/current`) is the newest published working day;
///   `/YYYY-MM-DD` rolls back to a working day, and a future date or today
///   before publication gives the latest.
/// - `/START..END` and `/START..` list working days only, from the working day on or
///   before START (reported as `start_date`) to END capped at the newest published
///   day; no weekly averages.
/// - Errors use the real bodies: 404 `{"message":"not found"}` (unknown currency, a
///   range with no data, an unknown path), 422 `bad currency pair` (`to` is just
///   `from`), `invalid date`, `invalid amount`.
public enum FakeFrankfurter {
  /// The first day of ECB data.
  public static let earliest = Day(daysSinceEpoch: 10_595)  // 1999-01-04

  /// Typical EUR-based figures of 2024, the base of the curves; EUR is 1.
  public static let eurBase: [String: Double] = [
    "AUD": 1.6289, "BGN": 1.9558, "BRL": 5.7812, "CAD": 1.4798, "CHF": 0.9717,
    "CNY": 7.8456, "CZK": 24.712, "DKK": 7.4589, "EUR": 1, "GBP": 0.8495,
    "HKD": 8.5032, "HUF": 392.48, "IDR": 17_636.2, "ILS": 4.0321, "INR": 90.875,
    "ISK": 150.3, "JPY": 170.1, "KRW": 1_490.1, "MXN": 19.861, "MYR": 5.1105,
    "NOK": 11.6825, "NZD": 1.7664, "PHP": 63.802, "PLN": 4.3265, "RON": 4.9765,
    "SEK": 11.3, "SGD": 1.4695, "THB": 39.872, "TRY": 35.158, "USD": 1.0889,
    "ZAR": 20.321,
  ]

  /// Whether the ECB publishes on `day` (``MarketClosure/isECBClosed(_:)``).
  public static func isWorkingDay(_ day: Day) -> Bool {
    !MarketClosure.isECBClosed(day)
  }

  /// The last working day on or before `day`.
  public static func workingDay(onOrBefore day: Day) -> Day {
    var result = day
    while !isWorkingDay(result) { result = result.adding(days: -1) }
    return result
  }

  /// The EUR-based figure in force on `day`: that of the last working day on or
  /// before it. EUR is 1; an unknown code is NaN.
  public static func eurRate(_ code: String, day: Day) -> Double {
    let code = code.uppercased()
    guard let base = eurBase[code] else { return .nan }
    guard code != "EUR" else { return 1 }
    let published = workingDay(onOrBefore: day)
    let wave = FakeSupport.wave(key: "frankfurter/\(code)", x: Double(published.daysSinceEpoch))
    // A quarter of the coin curves' swing: daily moves stay under half a percent.
    let value = base * (1 + (wave - 1) / 4)
    return FakeSupport.round(value, places: value >= 100 ? 2 : value >= 10 ? 3 : 4)
  }

  /// `amount` units of `base` in `quote` on `day`, as the API sends it: raw for
  /// base EUR and amount 1, otherwise rounded by size (apis.md 3.3).
  public static func rate(base: String, quote: String, day: Day, amount: Double = 1) -> Double {
    if base == "EUR" && amount == 1 { return eurRate(quote, day: day) }
    return roundedBySize(amount * eurRate(quote, day: day) / eurRate(base, day: day))
  }

  /// apis.md 3.3: > 5000 → 0 decimals, > 80 → 2, > 20 → 3, > 1 → 4, > 0.0001 → 5, else 6.
  public static func roundedBySize(_ value: Double) -> Double {
    let size = abs(value)
    let places =
      size > 5_000 ? 0 : size > 80 ? 2 : size > 20 ? 3 : size > 1 ? 4 : size > 0.0001 ? 5 : 6
    return FakeSupport.round(value, places: places)
  }

  /// Serves `/frankfurter/latest`, `/current`, `/YYYY-MM-DD`, `/START..END`,
  /// `/START..` and `/currencies`, honouring `from` (alias `base`), `to` (alias
  /// `symbols`) and `amount`.
  ///
  /// - Parameter now: the fake's clock, read once per request; "today" is the
  ///   newest working day published by then.
  public static func handler(now: @escaping @Sendable () -> Date)
    -> @Sendable (RecordedRequest) -> LoopbackReply
  {
    { request in
      let prefix = "/frankfurter/"
      guard request.path.hasPrefix(prefix) else { return notFound }
      let path = String(request.path.dropFirst(prefix.count))
      let today = UpdateRhythm.newestECBDay(at: now())
      if path == "currencies" {
        let entries = FiatCurrencies.ecb.sorted { $0.key < $1.key }
          .map { "\(FakeSupport.quote($0.key)):\(FakeSupport.quote($0.value))" }
        return .json("{\(entries.joined(separator: ","))}")
      }
      if path == "latest" || path == "current" {
        return single(day: today, today: today, request)
      }
      if let range = path.range(of: "..") {
        let startText = path[..<range.lowerBound]
        let endText = path[range.upperBound...]
        guard let start = Day(startText) else { return invalidDate }
        var end = today
        if !endText.isEmpty {
          guard let day = Day(endText) else { return invalidDate }
          end = day
        }
        return series(start: start, end: end, today: today, request)
      }
      if path.first?.isNumber == true {
        guard let day = Day(path) else { return invalidDate }
        return single(day: day, today: today, request)
      }
      return notFound
    }
  }

  // MARK: Endpoints

  public static let notFound = LoopbackReply.json(#"{"message":"not found"}"#, status: 404)
  public static let badPair = LoopbackReply.json(#"{"message":"bad currency pair"}"#, status: 422)
  public static let invalidDate = LoopbackReply.json(#"{"message":"invalid date"}"#, status: 422)
  public static let invalidAmount = LoopbackReply.json(
    #"{"message":"invalid amount"}"#, status: 422)

  /// The parsed `from`, `to` and `amount`.
  private struct Parameters {
    var base: String
    var quotes: [String]
    var amount: Double
  }

  /// What `answer` replies for the request's parameters, or the error reply they get.
  private static func withParameters(
    _ request: RecordedRequest, _ answer: (Parameters) -> LoopbackReply
  ) -> LoopbackReply {
    let base = (request.query["from"] ?? request.query["base"] ?? "EUR").uppercased()
    guard eurBase[base] != nil else { return notFound }
    var amount = 1.0
    if let text = request.query["amount"] {
      guard let value = Double(text), value.isFinite, value > 0 else { return invalidAmount }
      amount = value
    }
    let listed = (request.query["to"] ?? request.query["symbols"]).map {
      $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
        .filter { !$0.isEmpty }
    }
    if let listed {
      guard listed.allSatisfy({ eurBase[$0] != nil }) else { return notFound }
      if !listed.isEmpty && listed.allSatisfy({ $0 == base }) { return badPair }
    }
    // The base never appears in `rates`; keys are sorted whatever the order of `to`.
    let quotes = Set(listed ?? Array(eurBase.keys)).subtracting([base]).sorted()
    return answer(Parameters(base: base, quotes: quotes, amount: amount))
  }

  private static func ratesObject(_ parameters: Parameters, day: Day) -> String {
    let fields = parameters.quotes.map { quote in
      let value = rate(base: parameters.base, quote: quote, day: day, amount: parameters.amount)
      return "\(FakeSupport.quote(quote)):\(value)"
    }
    return "{\(fields.joined(separator: ","))}"
  }

  private static func header(_ parameters: Parameters) -> String {
    "\"amount\":\(parameters.amount),\"base\":\(FakeSupport.quote(parameters.base))"
  }

  private static func single(day requested: Day, today: Day, _ request: RecordedRequest)
    -> LoopbackReply
  {
    withParameters(request) { parameters in
      let day = workingDay(onOrBefore: min(requested, today))
      guard day >= earliest else { return notFound }
      return .json(
        "{\(header(parameters)),\"date\":\"\(day)\",\"rates\":\(ratesObject(parameters, day: day))}")
    }
  }

  private static func series(start: Day, end: Day, today: Day, _ request: RecordedRequest)
    -> LoopbackReply
  {
    let first = workingDay(onOrBefore: max(start, earliest))
    let last = min(end, today)
    let days = first <= last ? (first...last).filter(isWorkingDay) : []
    return withParameters(request) { parameters in
      guard first >= earliest, let lastDay = days.last else { return notFound }
      let entries = days.map { "\"\($0)\":\(ratesObject(parameters, day: $0))" }
      return .json(
        "{\(header(parameters)),\"start_date\":\"\(first)\",\"end_date\":\"\(lastDay)\","
          + "\"rates\":{\(entries.joined(separator: ","))}}")
    }
  }
}
