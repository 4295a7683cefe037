extension RateService {
  /// A stored day the provider now answers differently.
  public struct StoredDifference: Sendable, Equatable {
    /// The day.
    public var day: Day
    /// The stored value; nil when stored as having none or left out.
    public var stored: Double?
    /// Whether the day was stored as left out of an answer (not answered yet).
    public var storedLeftOut: Bool = false
    /// The provider's value; nil when it says there is none.
    public var provider: Double?
    /// Where the stored value came from; nil when unknown (stored before format 2).
    public var storedFetch: DayStore.Fetch?
  }

  /// What `rates cache verify` found for one stored pair.
  public struct VerifyReport: Sendable, Equatable {
    /// The provider whose store was checked.
    public var provider: Provider
    /// The pair as the store names it (`eur-usd`).
    public var pair: String
    /// Range requests made: one per run of stored days.
    public var requests: Int
    /// The sources those requests asked, each once, in the order asked: the source each
    /// run of days was stored from (Coinbase Exchange for candle days in `coingecko`'s store).
    public var askedSources: [Provider] = []
    /// Stored days the provider answered, compared (left-out days included).
    public var checked: Int
    /// Stored days left out of an earlier answer that this answer leaves out too.
    public var leftOut: Int = 0
    /// The days that differ, oldest first.
    public var differences: [StoredDifference]
    /// Whether the differences were replaced by the provider's answers (and the days not
    /// over yet dropped).
    public var fixed: Bool
    /// Stored days the answer left out: not compared.
    public var notCompared: Int = 0
    /// Stored days after the last settled day (not over yet: `rates` never stores one; a
    /// clock set back, an edited file), oldest first; `--fix` drops them.
    public var notOver: [Day] = []
  }

  /// The pairs the day store holds for this source (`eur-usd`), sorted.
  public func storedPairs() -> [String] {
    let folder = dayStore.fileURL(key: "\(source.name)/x").deletingLastPathComponent()
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".days") && !$0.hasPrefix(".") }
      .map { String($0.dropLast(5)) }.sorted()
  }

  /// What `fetched` answers for the settled days of `span`, as fetched at
  /// `instant`: its values (only those inside `span`: an answer carrying
  /// other days is not trusted for them), none for an ECB closure, and every
  /// other day left out (see ``leftOut(_:in:at:fetch:)``). Only a coin's head
  /// days (before the answer's first value) left out by
  /// ``CacheFreshness/leftOutSettles`` spaced answers settle as none; an ECB
  /// working day never does. An answer with no value in `span` says nothing
  /// of a day not left out before (a recorded mirror, a coin not listed
  /// yet): it is asked again.
  func answered(
    by fetched: DailyCloses, in span: ClosedRange<Day>, stored: DayStore.Days, at instant: Date
  ) -> DayStore.Days {
    var days = DayStore.Days()
    // Days a failed later part would have brought are not answered: asked again next run.
    let brought = fetched.cutShort.map { $0.from.adding(days: -1) } ?? span.upperBound
    guard let settled = settledThrough(instant), span.lowerBound <= min(settled, brought) else {
      return days
    }
    let last = min(span.upperBound, settled, brought)
    let fetch = DayStore.Fetch(provider: (fetched.source ?? .provider(source.name)).name, fetchedAt: instant)
    for point in fetched.closes
    where !point.carried && span.lowerBound <= point.date && point.date <= last {
      days.set(point.date, point.rate, from: fetch)
    }
    let answeredFirst = days.span?.lowerBound
    let firstValue = [answeredFirst, stored.firstValue].compactMap { $0 }.min()
    for day in span.lowerBound...last {
      guard !days.knows(day) else { continue }
      let (count, asked) = Self.leftOut(day, in: stored, at: instant, fetch: fetch)
      if answeredFirst == nil && count == 1 { continue }
      let settles =
        Self.isPlausibleNone(day, carriesForward: source.carriesForward, firstValue: firstValue)
        && (source.carriesForward || count >= CacheFreshness.leftOutSettles)
      if settles {
        days.set(day, nil, from: fetch)
      } else {
        days.setLeftOut(day, count: count, from: asked)
      }
    }
    return days
  }

  /// Whether `day` can have no value: an ECB closure for rates that stand over closures,
  /// else (a coin) a day before its first known value (`firstValue`, stored or answered):
  /// a coin stored as trading the day before, or an ECB working day, always has one. The
  /// one rule for a none, whether an answer settles it or the store holds it.
  static func isPlausibleNone(_ day: Day, carriesForward: Bool, firstValue: Day?) -> Bool {
    carriesForward ? MarketClosure.isECBClosed(day) : firstValue.map { day < $0 } ?? true
  }

  /// Forgets each none in `days` that cannot be (``isPlausibleNone(_:carriesForward:firstValue:)``:
  /// left there by an earlier version, or an answer that left the day out), unless this run
  /// has asked for it already: it is then asked again, once a run, rather than a gap for good.
  func forgetImplausibleNones(in days: inout DayStore.Days, key: String) {
    let firstValue = days.firstValue
    let carriesForward = source.carriesForward
    days.forgetNones { day in
      !Self.isPlausibleNone(day, carriesForward: carriesForward, firstValue: firstValue)
        && !asked.contains(key, day)
    }
  }

  /// How many answers have left `day` out, counting the one fetched by
  /// `fetch` at `instant`, and the fetch that counted last. An answer before
  /// the backoff since the last count has passed
  /// (``CacheFreshness/askAgain(leftOut:askedAt:)``: `--refresh` run again and
  /// again) does not count, so quick runs never settle a day.
  static func leftOut(_ day: Day, in stored: DayStore.Days, at instant: Date, fetch: DayStore.Fetch)
    -> (count: Int, fetch: DayStore.Fetch)
  {
    guard case .unanswered(let count) = stored.state(day), count > 0 else { return (1, fetch) }
    if let last = stored.origin(day),
      instant < CacheFreshness.askAgain(leftOut: count, askedAt: last.fetchedAt)
    {
      return (count, last)
    }
    return (count + 1, fetch)
  }
}
