/// The one gate every number and instant a provider sends passes before
/// anything is shown or stored: the home of the rules (bounds, windows,
/// units, order and duplicates); each client applies them to its endpoints.
///
/// - A price or rate is finite, at least ``smallestPrice`` and at most
///   ``largestPrice`` (10^-20 to 10^15: one Bitcoin in Vietnamese dong or
///   Lebanese pounds is about 10^10, a tiny coin 10^-10, in Bitcoin 10^-15;
///   the inverse of any accepted rate is finite too).
/// - A market cap, volume or supply is finite, not negative and at most
///   ``largestAmount`` (10^24); a 24-hour change is finite, at least -100 %
///   and at most ``largestChangePercent``.
/// - A series' instants lie inside the window the request asked for plus the
///   slack its endpoint needs (stated where each endpoint is read), are in
///   the endpoint's unit (a CoinGecko chart stamped in seconds instead of
///   milliseconds is refused, not read as 1970), and come out sorted with one
///   value per instant: of two values for the same instant the later in the
///   answer wins.
///
/// An answer that fails is refused whole as a
/// ``ProviderError/malformedResponse(provider:endpoint:detail:)``: nothing
/// of it is stored, and cached data may stand in
/// (``ProviderError/allowsStaleFallback``). Lists of market rows are the
/// one exception, decided per field: a row's number that fails is removed
/// (shown as unknown), the row and the rest of the board kept.
public enum AnswerGate {
  /// The largest price or rate accepted.
  public static let largestPrice: Double = 1e15
  /// The smallest price or rate accepted.
  public static let smallestPrice: Double = 1e-20
  /// The largest market cap, volume or supply accepted.
  public static let largestAmount: Double = 1e24
  /// The largest 24-hour change accepted, in percent.
  public static let largestChangePercent: Double = 1e9
  /// The earliest instant a CoinGecko chart can hold, in Unix milliseconds:
  /// 2009-01-03, Bitcoin's first block. A smaller stamp that reads as a
  /// plausible instant in seconds is a chart stamped in seconds.
  static let earliestChartMilliseconds: Double = 1_230_940_800_000
  /// How far a provider's time may lie ahead of ours: one hour (a server
  /// clock ahead of ours, or a time zone written wrong); the allowance of
  /// every window that ends now.
  public static let clockSkew: TimeInterval = 3600
  /// The first day a coin source can hold: 2009-01-03 (the day of
  /// ``earliestChartMilliseconds``, Bitcoin's first block).
  public static let firstCoinDay = Day(
    containing: Date(timeIntervalSince1970: earliestChartMilliseconds / 1000))

  /// Whether `value` is a plausible price or rate.
  public static func isPrice(_ value: Double) -> Bool {
    value.isFinite && value >= smallestPrice && value <= largestPrice
  }

  /// Whether `value` is a plausible market cap, volume or supply.
  public static func isAmount(_ value: Double) -> Bool {
    value.isFinite && value >= 0 && value <= largestAmount
  }

  /// Whether `value` is a plausible change in percent.
  public static func isChangePercent(_ value: Double) -> Bool {
    value.isFinite && value >= -100 && value <= largestChangePercent
  }

  /// Whether `instant` is a plausible time for a current price fetched at
  /// `now`: not before 2009-01-03 (``earliestChartMilliseconds``) and at most
  /// ``clockSkew`` after `now`.
  public static func isUpdateTime(_ instant: Date, now: Date) -> Bool {
    instant.timeIntervalSince1970 * 1000 >= earliestChartMilliseconds
      && instant <= now.addingTimeInterval(clockSkew)
  }

  /// `instant` when it is a plausible update time at `now` (or absent);
  /// otherwise the answer is refused.
  static func updateTime(
    _ instant: Date?, now: Date, provider: String, endpoint: String, at path: String
  ) throws -> Date? {
    guard let instant, !isUpdateTime(instant, now: now) else { return instant }
    throw refusal(
      provider, endpoint,
      "at \(path): \(ISO8601.format(instant)) is not a possible update time "
        + "(before 2009-01-03 or ahead of our clock)")
  }

  /// `value` when it is a plausible price; otherwise the answer is refused.
  static func price(_ value: Double, provider: String, endpoint: String, at path: String) throws
    -> Double
  {
    guard isPrice(value) else {
      throw refusal(provider, endpoint, "at \(path): \(value) is not a plausible price")
    }
    return value
  }

  /// The instant of a CoinGecko chart stamp in Unix milliseconds; refused when
  /// it is in seconds, or impossible.
  static func chartInstant(milliseconds value: Double, endpoint: String, at path: String) throws
    -> Date
  {
    if value.isFinite, value < earliestChartMilliseconds,
      value >= earliestChartMilliseconds / 1000, value <= ProviderNumbers.latestSeconds
    {
      throw refusal(
        Providers.coinGecko, endpoint,
        "at \(path): timestamps in seconds where milliseconds were expected")
    }
    guard value >= earliestChartMilliseconds,
      let date = ProviderNumbers.date(unixMilliseconds: value)
    else {
      throw refusal(Providers.coinGecko, endpoint, "at \(path): \(value) is not a possible time")
    }
    return date
  }

  /// `samples` sorted by instant, one per instant (the later in the answer
  /// wins), after checking that each lies in `window` (the days `asked` and
  /// the endpoint's slack; a refusal quotes `asked`, what the user asked for).
  static func series(
    _ samples: [(Date, Double)], inside window: ClosedRange<Date>, asked: ClosedRange<Day>,
    provider: String, endpoint: String
  ) throws -> [(Date, Double)] {
    if let outside = samples.first(where: { !window.contains($0.0) }) {
      throw refusal(provider, endpoint, outsideDetail(ISO8601.format(outside.0), asked: asked))
    }
    return normalized(samples)
  }

  /// How a refusal names a value outside the window: with the days the user
  /// asked for, never the window widened by the endpoint's slack.
  static func outsideDetail(_ value: String, asked: ClosedRange<Day>) -> String {
    "a value for \(value), outside the asked \(asked.lowerBound)…\(asked.upperBound)"
  }

  /// `samples` sorted by instant, one per instant: of several values for one
  /// instant the later in the answer wins (the sort is stable).
  static func normalized(_ samples: [(Date, Double)]) -> [(Date, Double)] {
    var byInstant: [Date: (index: Int, value: Double)] = [:]
    for (index, sample) in samples.enumerated() { byInstant[sample.0] = (index, sample.1) }
    return byInstant.sorted { $0.key < $1.key }.map { ($0.key, $0.value.value) }
  }

  /// The window a `/coins/{id}/market_chart?days=N` answer may cover at
  /// `now`: from N days and one more (its daily stamps at 00:00 UTC) before
  /// now to an hour after it (a server clock ahead of ours).
  public static func chartWindow(days: Int, now: Date) -> ClosedRange<Date> {
    now.addingTimeInterval(-Double(max(days, 1) + 1) * 86_400)...now.addingTimeInterval(clockSkew)
  }

  /// Checks that every day of `days` lies in `window` (the days `asked` and
  /// the endpoint's slack; a refusal quotes `asked`).
  static func days(
    _ days: [Day], inside window: ClosedRange<Day>, asked: ClosedRange<Day>, provider: String,
    endpoint: String
  ) throws {
    guard let outside = days.first(where: { !window.contains($0) }) else { return }
    throw refusal(provider, endpoint, outsideDetail(outside.description, asked: asked))
  }

  /// The error that refuses an answer.
  static func refusal(_ provider: String, _ endpoint: String, _ detail: String) -> ProviderError {
    .malformedResponse(provider: provider, endpoint: endpoint, detail: detail)
  }
}
