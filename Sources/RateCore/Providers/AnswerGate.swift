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
/// - A candle is whole: its low, high, open and close are plausible prices,
///   high ≥ low, and open and close lie within low…high (a close outside its
///   own range is refused, never stored).
/// - A series' instants are in the endpoint's unit (a CoinGecko chart stamped
///   in seconds instead of milliseconds is refused, not read as 1970) and come
///   out sorted with one value per instant: of two values for the same instant
///   the later in the answer wins.
///
/// **What an answer is worth** (the one rule, every provider and command):
/// real providers answer more than asked (CoinGecko's `days=N` from now − N
/// days, CoinDesk's own 31-day window, Frankfurter from the working day
/// before a closure, candles from before `start`) and are not reliably
/// inclusive at a range's end. So a request asks past both ends of the days
/// it wants by ``marginDays`` (``requested(_:through:)``); of the answer, the
/// values inside the asked days (plus the slack each endpoint states) are
/// kept, the values outside dropped, never stored (``kept(_:at:inside:asked:describe:provider:endpoint:)``).
/// An answer is refused only when a value is implausible, or when it holds
/// values and none of them is inside what was asked. A day's close is then
/// chosen by one rule, whatever the answer's granularity
/// (``DailyResampler``).
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
    _ instant: Date?, now: Date, provider: Provider, endpoint: String, at path: String
  ) throws -> Date? {
    guard let instant, !isUpdateTime(instant, now: now) else { return instant }
    throw refusal(
      provider, endpoint,
      "at \(path): \(ISO8601.format(instant)) is not a possible update time "
        + "(before 2009-01-03 or ahead of our clock)")
  }

  /// `value` when it is a plausible price; otherwise the answer is refused.
  static func price(_ value: Double, provider: Provider, endpoint: String, at path: String) throws
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
        Provider.coinGecko, endpoint,
        "at \(path): timestamps in seconds where milliseconds were expected")
    }
    guard value >= earliestChartMilliseconds,
      let date = ProviderNumbers.date(unixMilliseconds: value)
    else {
      throw refusal(Provider.coinGecko, endpoint, "at \(path): \(value) is not a possible time")
    }
    return date
  }

  /// How many days a request asks past each end of the days it wants: one,
  /// so neither an exclusive end nor an answer stamped at the next midnight
  /// (a daily close) leaves the last day without its close, nor a first day
  /// without the value before it.
  public static let marginDays = 1

  /// The days to ask a provider for when `days` are wanted: ``marginDays``
  /// more at both ends, the end cut at `last` (today, or the last day the
  /// provider has) but never before `days`' own end.
  public static func requested(_ days: ClosedRange<Day>, through last: Day) -> ClosedRange<Day> {
    let end = max(min(days.upperBound.adding(days: marginDays), last), days.upperBound)
    return days.lowerBound.adding(days: -marginDays)...end
  }

  /// The instants whose samples can matter to `days` at `now`: from the
  /// first day's start to ``DailyResampler/closeReach`` after the last day's
  /// end (its close), and when the days reach today, to ``clockSkew`` after
  /// `now` (today's price).
  public static func instants(of days: ClosedRange<Day>, now: Date) -> ClosedRange<Date> {
    let closes = days.upperBound.end.addingTimeInterval(DailyResampler.closeReach)
    let end = days.upperBound >= Day(containing: now) ? max(closes, now.addingTimeInterval(clockSkew)) : closes
    return days.lowerBound.start...end
  }

  /// `samples` inside `window` (the days `asked` and the endpoint's slack),
  /// sorted by instant, one per instant (the later in the answer wins); the
  /// samples outside are dropped (``kept(_:at:inside:asked:describe:provider:endpoint:)``).
  static func series(
    _ samples: [(Date, Double)], inside window: ClosedRange<Date>, asked: ClosedRange<Day>,
    provider: Provider, endpoint: String
  ) throws -> [(Date, Double)] {
    normalized(
      try kept(
        samples, at: \.0, inside: window, asked: asked, describe: ISO8601.format,
        provider: provider, endpoint: endpoint))
  }

  /// The values of `values` whose position (`at`) lies inside `window`, in
  /// their order: the one rule for what an answer is worth. Values outside
  /// are dropped (never stored); an answer that holds values but none inside
  /// is refused, quoting `asked` (what the user asked for, never the window
  /// widened by the endpoint's slack) and where its values lie. An empty
  /// answer is not refused here: what "nothing" means is the caller's.
  static func kept<Value, Position: Comparable>(
    _ values: [Value], at position: (Value) -> Position, inside window: ClosedRange<Position>,
    asked: ClosedRange<Day>, describe: (Position) -> String, provider: Provider, endpoint: String
  ) throws -> [Value] {
    let inside = values.filter { window.contains(position($0)) }
    guard inside.isEmpty, let first = values.map(position).min(),
      let last = values.map(position).max()
    else { return inside }
    let span = first == last ? describe(first) : "\(describe(first)) to \(describe(last))"
    throw refusal(
      provider, endpoint,
      "nothing asked in it: \(values.count == 1 ? "a value" : "its values") for \(span), "
        + "outside the asked \(asked.lowerBound)…\(asked.upperBound)")
  }

  /// `samples` sorted by instant, one per instant: of several values for one
  /// instant the later in the answer wins (the sort is stable).
  static func normalized(_ samples: [(Date, Double)]) -> [(Date, Double)] {
    var byInstant: [Date: (index: Int, value: Double)] = [:]
    for (index, sample) in samples.enumerated() { byInstant[sample.0] = (index, sample.1) }
    return byInstant.sorted { $0.key < $1.key }.map { ($0.key, $0.value.value) }
  }

  /// The points of `points` whose day lies in `window` (the days `asked` and
  /// the endpoint's slack), in their order; the rest dropped, and an answer
  /// with points but none inside refused (``kept(_:at:inside:asked:describe:provider:endpoint:)``).
  static func days(
    _ points: [RatePoint], inside window: ClosedRange<Day>, asked: ClosedRange<Day>,
    provider: Provider, endpoint: String
  ) throws -> [RatePoint] {
    try kept(
      points, at: \.date, inside: window, asked: asked, describe: \.description,
      provider: provider, endpoint: endpoint)
  }

  /// Where an exchange's candle rows (`[time, …]`, time in Unix seconds) hold each price.
  struct CandleColumns: Sendable {
    var low: Int
    var high: Int
    var open: Int
    var close: Int
    /// The row as the exchange documents it, for the refusal: `[time, low, high, open, close]`.
    var shape: String
  }

  /// Each row's start and close (``candleClose(low:high:open:close:provider:endpoint:at:)``),
  /// in order; a row that is not a time and four prices refuses the answer.
  static func candleCloses(
    _ rows: [[LenientDouble]], _ columns: CandleColumns, provider: Provider, endpoint: String
  ) throws -> [(Date, Double)] {
    try rows.enumerated().map { index, row in
      guard row.count >= 5, let time = ProviderNumbers.date(unixSeconds: row[0].value) else {
        throw refusal(provider, endpoint, "at [\(index)]: not a \(columns.shape) row")
      }
      let close = try candleClose(
        low: row[columns.low].value, high: row[columns.high].value, open: row[columns.open].value,
        close: row[columns.close].value, provider: provider, endpoint: endpoint, at: "[\(index)]")
      return (time, close)
    }
  }

  /// The close of a candle whose low, high, open and close are given, when
  /// the candle is whole: each a plausible price, high ≥ low, open and close
  /// within low…high. Otherwise the answer is refused (a close outside its
  /// own range is never stored).
  static func candleClose(
    low: Double, high: Double, open: Double, close: Double, provider: Provider, endpoint: String,
    at path: String
  ) throws -> Double {
    for (name, value) in [("low", low), ("high", high), ("open", open), ("close", close)] {
      _ = try price(value, provider: provider, endpoint: endpoint, at: "\(path) \(name)")
    }
    guard low <= high else {
      throw refusal(provider, endpoint, "at \(path): a candle whose high \(high) is below its low \(low)")
    }
    for (name, value) in [("open", open), ("close", close)] where value < low || value > high {
      throw refusal(
        provider, endpoint,
        "at \(path): a candle whose \(name) \(value) lies outside its own range \(low)…\(high)")
    }
    return close
  }

  /// The error that refuses an answer.
  static func refusal(_ provider: Provider, _ endpoint: String, _ detail: String) -> ProviderError {
    .malformedResponse(provider: .provider(provider), endpoint: endpoint, detail: detail)
  }
}
