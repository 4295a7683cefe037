/// One day's value of a rate.
public struct RatePoint: Hashable, Sendable, Codable {
  /// The UTC day the value belongs to.
  public var date: Day
  /// How many units of the quote currency one unit of the base buys.
  public var rate: Double
  /// True when the day had no value of its own and repeats an earlier day's:
  /// an ECB rate standing over a market closure (``MarketClosure``).
  public var carried: Bool

  public init(date: Day, rate: Double, carried: Bool = false) {
    self.date = date
    self.rate = rate
    self.carried = carried
  }
}

/// A daily series of rates for one pair, ordered oldest first.
public struct RateSeries: Hashable, Sendable, Codable {
  /// The asset being priced, upper case (`BTC`, `GBP`).
  public var base: String
  /// The currency the price is in (`EUR`).
  public var quote: CurrencyCode
  /// Where the data came from (CoinGecko, the ledger): for a series from several, the
  /// source of its newest days (each day's in ``sources``).
  public var source: RateSource
  /// When the newest data in the series was fetched from the provider.
  public var fetchedAt: Date
  /// The points with a value, oldest first, at most one per day.
  public var points: [RatePoint]
  /// The days of the series that have no value (a hole in the provider's
  /// data, a gap longer than a market closure, closure days at the start of
  /// the window, today when its price did not arrive), oldest first. Shown
  /// as gaps, never filled in.
  public var gaps: [Day]
  /// The runs of days by the source each came from, oldest first (``SourceSpan``); empty
  /// when the series records none (every point is then from ``source``).
  public var sources: [SourceSpan]

  public init(
    base: String, quote: CurrencyCode, source: RateSource, fetchedAt: Date, points: [RatePoint],
    gaps: [Day] = [], sources: [SourceSpan] = []
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

  /// The points with a value of their own: carried days (ECB weekends and
  /// holidays) left out, so they do not weigh on statistics and every figure
  /// keeps the date it was published for. Empty when every point is carried.
  public var ownPoints: [RatePoint] {
    points.filter { !$0.carried }
  }

  /// Every day of the series, oldest first: its point, or `nil` for a gap.
  public var days: [(day: Day, point: RatePoint?)] {
    // Points and gaps are each oldest first: merge them (a long series
    // must not pay for a dictionary on every rendering).
    let points = points.isSorted { $0.date < $1.date } ? points : points.sorted { $0.date < $1.date }
    let gaps = gaps.isSorted(by: <) ? gaps : gaps.sorted()
    var result: [(day: Day, point: RatePoint?)] = []
    result.reserveCapacity(points.count + gaps.count)
    var (p, g) = (0, 0)
    while p < points.count || g < gaps.count {
      let takePoint = g == gaps.count || (p < points.count && points[p].date <= gaps[g])
      let entry: (day: Day, point: RatePoint?) = takePoint ? (points[p].date, points[p]) : (gaps[g], nil)
      if takePoint { p += 1 } else { g += 1 }
      // One entry per day: its first point wins over later points and gaps.
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
