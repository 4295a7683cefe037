/// The time key of a series' points: a UTC ``Day`` (daily closes) or an instant (`Date`,
/// hourly prices). Everything else about a series, its statistics and its views is shared.
public protocol SeriesKey: Hashable, Comparable, Sendable, Codable {
  /// The JSON key a point stores its key under (`date`, `time`); the statistics name their
  /// dated figures after it (`minDate`, `minTime`).
  static var pointKey: String { get }
  /// Whether a point can repeat an earlier value (an ECB rate carried over a closure): its
  /// JSON then always holds `carried`.
  static var carriesOver: Bool { get }
  /// The key in ISO 8601 (UTC), as CSV writes it: `2024-11-15`, `2024-11-15T13:00:07Z`.
  var isoText: String { get }
  /// The key as a ledger price directive dates it: `2024-11-15`, `2024-11-15 13:00:07` (UTC).
  var journalText: String { get }
}

extension Day: SeriesKey {
  /// `date`.
  public static var pointKey: String { "date" }
  /// True: an ECB day can be carried.
  public static var carriesOver: Bool { true }
  /// `2024-11-15`.
  public var isoText: String { description }
  /// `2024-11-15`.
  public var journalText: String { description }
}

extension Date: SeriesKey {
  /// `time`.
  public static var pointKey: String { "time" }
  /// False: an hourly price is always its own.
  public static var carriesOver: Bool { false }
  /// `2024-11-15T13:00:07Z` (``ISO8601/format(_:)``).
  public var isoText: String { ISO8601.format(self) }
  /// `2024-11-15 13:00:07` (``PriceExport/utcDateTime(_:)``).
  public var journalText: String { PriceExport.utcDateTime(self) }
}

/// One value of a rate at its key: a day's (``RatePoint``) or an instant's.
public struct SeriesPoint<Key: SeriesKey>: Hashable, Sendable, Codable {
  /// The UTC day or the instant the value belongs to.
  public var date: Key
  /// How many units of the quote currency one unit of the base buys.
  public var rate: Double
  /// True when the day had no value of its own and repeats an earlier day's:
  /// an ECB rate standing over a market closure (``MarketClosure``).
  public var carried: Bool

  /// Creates a point.
  public init(date: Key, rate: Double, carried: Bool = false) {
    self.date = date
    self.rate = rate
    self.carried = carried
  }

  /// Decodes a point as ``encode(to:)`` writes it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: MemberName.self)
    date = try container.decode(Key.self, forKey: MemberName(Key.pointKey))
    rate = try container.decode(Double.self, forKey: MemberName("rate"))
    carried = Key.carriesOver ? try container.decode(Bool.self, forKey: MemberName("carried")) : false
  }

  /// Encodes the key as `date` or `time` (``SeriesKey/pointKey``), the rate, and `carried`
  /// for a key that can carry.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: MemberName.self)
    try container.encode(date, forKey: MemberName(Key.pointKey))
    try container.encode(rate, forKey: MemberName("rate"))
    if Key.carriesOver { try container.encode(carried, forKey: MemberName("carried")) }
  }
}

/// One day's value of a rate.
public typealias RatePoint = SeriesPoint<Day>

/// A series of rates for one pair, ordered oldest first: daily (``RateSeries``) or hourly
/// (`Series<Date>`, CoinGecko's automatic granularity for 2 to 90 days).
public struct Series<Key: SeriesKey>: Hashable, Sendable, Codable {
  /// The asset being priced, upper case (`BTC`, `GBP`).
  public var base: String
  /// The currency the price is in (`EUR`).
  public var quote: CurrencyCode
  /// Where the data came from (CoinGecko, the ledger): for a series from several, the
  /// source of its newest days (each day's in ``sources``).
  public var source: RateSource
  /// When the newest data in the series was fetched from the provider.
  public var fetchedAt: Date
  /// The points with a value, oldest first, at most one per key (the last hourly point
  /// may be "now", off the hour).
  public var points: [SeriesPoint<Key>]
  /// The keys of the series that have no value (a hole in the provider's
  /// data, a gap longer than a market closure, closure days at the start of
  /// the window, today when its price did not arrive), oldest first. Shown
  /// as gaps, never filled in.
  public var gaps: [Key]
  /// The runs of keys by the source each came from, oldest first (``SourceSpan``); empty
  /// when the series records none (every point is then from ``source``).
  public var sources: [SourceSpan]

  /// Creates a series.
  public init(
    base: String, quote: CurrencyCode, source: RateSource, fetchedAt: Date, points: [SeriesPoint<Key>],
    gaps: [Key] = [], sources: [SourceSpan] = []
  ) {
    self.base = base
    self.quote = quote
    self.source = source
    self.fetchedAt = fetchedAt
    self.points = points
    self.gaps = gaps
    self.sources = sources
  }
}

/// A daily series of rates for one pair, ordered oldest first.
public typealias RateSeries = Series<Day>

extension RateSeries {
  /// The day the rate shown on `day` was published for: `day` itself, or for
  /// a carried ECB rate the publication before its closure
  /// (``MarketClosure/standing(on:today:lookup:)``), which may lie before
  /// the series' first day. `nil` when `day` has no point.
  public func publishedDay(of day: Day) -> Day? {
    guard let point = points.last(where: { $0.date == day }) else { return nil }
    guard point.carried else { return day }
    if let own = points.last(where: { $0.date < day && !$0.carried }),
      own.date.distance(to: day) <= MarketClosure.maximumCarriedDays + 1
    {
      return own.date
    }
    // Carried from before the series: the working day before the closure.
    return MarketClosure.reach(back: day.adding(days: -1))
  }
}

extension Series {
  /// The points with a value of their own: carried days (ECB weekends and
  /// holidays) left out, so they do not weigh on statistics and every figure
  /// keeps the date it was published for. Empty when every point is carried.
  public var ownPoints: [SeriesPoint<Key>] {
    points.filter { !$0.carried }
  }

  /// Every key of the series, oldest first: its point, or `nil` for a gap.
  public var days: [(day: Key, point: SeriesPoint<Key>?)] {
    // Points and gaps are each oldest first: merge them (a long series
    // must not pay for a dictionary on every rendering).
    let points = points.isSorted { $0.date < $1.date } ? points : points.sorted { $0.date < $1.date }
    let gaps = gaps.isSorted(by: <) ? gaps : gaps.sorted()
    var result: [(day: Key, point: SeriesPoint<Key>?)] = []
    result.reserveCapacity(points.count + gaps.count)
    var (p, g) = (0, 0)
    while p < points.count || g < gaps.count {
      let takePoint = g == gaps.count || (p < points.count && points[p].date <= gaps[g])
      let entry: (day: Key, point: SeriesPoint<Key>?) = takePoint ? (points[p].date, points[p]) : (gaps[g], nil)
      if takePoint { p += 1 } else { g += 1 }
      // One entry per key: its first point wins over later points and gaps.
      if result.last?.day != entry.day { result.append(entry) }
    }
    return result
  }
}

/// A current price of one asset in one currency.
public struct Quote: Hashable, Sendable, Codable {
  /// The asset being priced, upper case.
  public var base: String
  /// The currency of the price.
  public var quote: CurrencyCode
  /// The price.
  public var rate: Double
  /// The change over the last 24 hours in percent, when the provider knows it.
  public var change24hPercent: Double?
  /// Where the price came from.
  public var source: RateSource
  /// When `rates` fetched the price.
  public var fetchedAt: Date
  /// When the provider last updated the price, when it says.
  public var updatedAt: Date?

  public init(
    base: String, quote: CurrencyCode, rate: Double, change24hPercent: Double?, source: RateSource,
    fetchedAt: Date, updatedAt: Date?
  ) {
    self.base = base
    self.quote = quote
    self.rate = rate
    self.change24hPercent = change24hPercent
    self.source = source
    self.fetchedAt = fetchedAt
    self.updatedAt = updatedAt
  }
}

extension Sequence {
  /// Whether no element comes before the one preceding it by `areInIncreasingOrder`
  /// (equal neighbours are sorted), checked in one pass.
  func isSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
    var previous: Element?
    for element in self {
      if let previous, areInIncreasingOrder(element, previous) { return false }
      previous = element
    }
    return true
  }
}
