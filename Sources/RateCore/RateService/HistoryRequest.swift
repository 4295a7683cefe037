/// One `RateService.history` call: what the cache holds for the pair, what
/// is due, and the steps that answer from the cache or fetch what is missing.
struct HistoryRequest: Sendable {
  typealias LatestPoint = RateService.LatestPoint

  let service: RateService
  let asset: Asset
  let quote: CurrencyCode
  /// How many days the window spans.
  let days: Int
  /// Whether the window is "the last N days" rather than a range the user
  /// named: only then may data that ends early be shown as its own last N days.
  let followsData: Bool
  let currentTime: Date
  let today: Day
  /// The days shown: any span of days up to today.
  let window: ClosedRange<Day>
  /// The settled days to know (all but today): the window's, and for ECB
  /// rates the closure days before it back to the publication that stands
  /// on its first days (``MarketClosure/reach(back:)``), if any.
  let past: ClosedRange<Day>?
  /// Whether the window ends today, so today's latest price belongs to it.
  let includesToday: Bool
  let key: String
  let priceKey: String
  let cached: RateService.HistoryCacheValue?
  let cachedFetchedAt: Date?
  /// The store's key for the pair's settled days.
  let dayKey: String
  /// The settled days known: the permanent store, with an older cache
  /// entry's closes and coverage read in.
  let stored: DayStore.Days
  /// The last answer's closes of days not settled yet, of any age.
  let unsettled: RateService.UnsettledCloses?
  /// Whether ``unsettled`` is fresh: its days are then cached.
  let unsettledFresh: Bool
  /// The cached closes of the window (and the week before it) by day, for
  /// a fetch to add to; an answer from the cache reads ``cachedClose(on:)``.
  var closes: [Day: RatePoint] {
    var closes = Self.closes(of: stored, around: window)
    for close in unsettled?.closes ?? [] where closes[close.date] == nil { closes[close.date] = close }
    return closes
  }
  /// Whether the cache answers for every settled day of the window.
  let pastCovered: Bool
  /// The newest cached latest price.
  let latest: LatestPoint?

  /// A request for `window` (ending today when nil, `days` long); a window
  /// reaching past today is cut at today, and one starting before the source's
  /// ``PriceSource/firstDay`` starts there.
  init(
    service: RateService, asset: Asset, quote: CurrencyCode, window requested: ClosedRange<Day>,
    followsData: Bool = false
  ) {
    self.followsData = followsData
    self.service = service
    self.asset = asset
    self.quote = quote
    currentTime = service.now()
    today = Day(containing: currentTime)
    let last = min(requested.upperBound, today)
    let first = max(requested.lowerBound, service.source.firstDay ?? requested.lowerBound)
    window = min(first, last)...last
    days = window.lowerBound.distance(to: window.upperBound) + 1
    includesToday = window.upperBound == today
    let lastPast = min(window.upperBound, today.adding(days: -1))
    let sourceStart = service.source.firstDay ?? window.lowerBound
    let reach =
      service.source.carriesForward
      ? max(MarketClosure.reach(back: window.lowerBound), sourceStart) : window.lowerBound
    past = window.lowerBound <= lastPast ? min(reach, window.lowerBound)...lastPast : nil
    key = "\(service.source.name)/history/\(asset.id)-\(quote)"
    priceKey = service.priceKey(asset, quote)
    // Read even when refreshing: the cache is not the answer then, but it
    // is still the fallback when the fetch fails.
    let lookup = service.cache.load(RateService.HistoryCacheValue.self, key: key)
    if case .unusable(let reason) = lookup { service.notify(.cacheUnusable(reason)) }
    cached = lookup.entry?.value
    cachedFetchedAt = lookup.entry?.fetchedAt
    dayKey = RateService.dayKey(historyKey: key)
    let (days, problem) = service.dayStore.load(key: dayKey)
    if let problem { service.notify(.cacheUnusable(problem)) }
    var known = days
    if let cached { known.merge(Self.legacyDays(cached, carriesForward: service.source.carriesForward)) }
    service.forgetImplausibleNones(in: &known, key: dayKey)
    stored = known
    let now = currentTime
    let unsettled = cached?.unsettled?.after(service.settledThrough(now))
    let fresh = unsettled.map { CacheFreshness.isFresh($0.fetchedAt, at: now, for: service.source.freshness) }
    self.unsettled = unsettled
    unsettledFresh = fresh ?? false
    let freshUnsettled = fresh == true ? unsettled : nil
    pastCovered =
      past.map { past in
        past.allSatisfy { Self.isCached($0, in: known, freshUnsettled, at: now) }
      } ?? true
    latest = service.cachedLatest(cached, priceKey: priceKey, today: today)
  }

  /// The stored values the window can show: its own days and the week
  /// before it (an ECB rate still standing today). Only these are read into
  /// a dictionary, however long the store.
  static func closes(of days: DayStore.Days, around window: ClosedRange<Day>) -> [Day: RatePoint] {
    var closes: [Day: RatePoint] = [:]
    let first = window.lowerBound.adding(days: -7)
    closes.reserveCapacity(first.distance(to: window.upperBound) + 1)
    for day in first...window.upperBound {
      if let value = days.value(day) { closes[day] = RatePoint(date: day, rate: value) }
    }
    return closes
  }

  /// The settled days of a cache entry written before the day store: its
  /// closes, and for rates that stand over closed days (ECB), the days of its
  /// coverage without a rate.
  static func legacyDays(_ cached: RateService.HistoryCacheValue, carriesForward: Bool)
    -> DayStore.Days
  {
    var days = DayStore.Days()
    for point in cached.closes where !point.carried { days.set(point.date, point.rate) }
    if carriesForward, let coverage = cached.coverage, coverage.from <= coverage.through {
      for day in coverage.from...coverage.through {
        if days.value(day) == nil { days.set(day, nil) }
      }
    }
    return days
  }

  var hasCache: Bool { cached != nil || latest != nil || stored.span != nil }

  var latestFresh: Bool {
    latest.map {
      CacheFreshness.isFresh($0.fetchedAt, at: currentTime, for: service.source.freshness)
    } ?? false
  }

  var isFresh: Bool { pastCovered && (latestFresh || !includesToday) }

  // MARK: - Answers

  /// The answer from the cache: stale after a failed fetch (`reason`), and
  /// offline when older than the source's freshness.
  func fromCache(_ reason: ProviderError?) throws -> RateService.HistoryResult {
    guard hasCache else {
      throw RateService.ServiceError.nothingCached("\(asset.symbol)/\(quote)")
    }
    let fetchedAt = latest?.fetchedAt ?? cachedFetchedAt ?? currentTime
    let fresh = reason == nil && isFresh
    return answer(
      closes: nil, latest: latest, fetchedAt: fetchedAt,
      staleness: fresh ? nil : Staleness(fetchedAt: fetchedAt, reason: reason))
  }

  /// The series for `closes` and `latest` over the window: a value per day
  /// where there is one, gaps elsewhere.
  ///
  /// Only today's point follows the latest price: a past day's settled close
  /// is never replaced by it (a frozen feed's price stands in only for a day
  /// with no close).
  func answer(
    closes fetched: [Day: RatePoint]?, latest: LatestPoint?, fetchedAt: Date,
    staleness: Staleness?, latestMissing: ProviderError? = nil, answered: DayStore.Days? = nil,
    answeredBy: RateSource? = nil
  ) -> RateService.HistoryResult {
    // Closes from a fetch, else straight from the cache (no dictionary).
    let close: (Day) -> RatePoint? = fetched.map { closes in { closes[$0] } } ?? cachedClose(on:)
    // The latest price stands on its day (today's, or a day with no close),
    // read through a lookup: a long series' closes are not copied for it.
    let added = latest.flatMap { latest in
      latest.point.date == today || close(latest.point.date) == nil ? latest.point : nil
    }
    var shown = window
    var points = values(in: shown) { day in day == added?.date ? added : close(day) }
    // A mirror serving recorded data may have nothing this recent: show
    // its newest `days` days, honestly dated, rather than nothing.
    if points.isEmpty, includesToday, followsData {
      // Only here is the whole store read in: a recorded mirror's last days.
      var byDay = fetched ?? closes
      if let added { byDay[added.date] = added }
      for (day, value) in stored.values where byDay[day] == nil {
        byDay[day] = RatePoint(date: day, rate: value)
      }
      if let newest = byDay.keys.filter({ $0 <= today }).max() {
        shown = newest.adding(days: -(days - 1))...newest
        points = values(in: shown) { byDay[$0] }
        service.notify(
          .dataEndsEarly(
            provider: .provider(service.source.name), pair: "\(asset.symbol)/\(quote)", newest: newest,
            days: days))
      }
    }
    let sources = sourceSpans(
      of: points, latest: added.flatMap { _ in latest }, answered: answered, fetchedSource: answeredBy)
    var result = RateService.HistoryResult(
      series: RateSeries(
        base: asset.symbol, quote: quote,
        source: sources.last?.source ?? sourceLabel(answered: answered, in: shown, answeredBy: answeredBy),
        fetchedAt: fetchedAt, points: points, gaps: RateService.gaps(in: shown, points: points),
        sources: sources),
      staleness: staleness, latestMissing: latestMissing)
    result.leftOut = leftOut(answered: answered)
    return result
  }

  /// The source a series is labelled with: the provider the newest stored day
  /// of `shown` came from (a fallback's name when one answered, this run or
  /// before), else the source whose answer this run took (`answeredBy`: an
  /// empty answer is that source's, never the chain's first), else the
  /// service's own.
  func sourceLabel(answered: DayStore.Days?, in shown: ClosedRange<Day>, answeredBy: RateSource? = nil)
    -> RateSource
  {
    let span = min(shown.lowerBound.distance(to: shown.upperBound), 13)
    for offset in 0...span {
      let day = shown.upperBound.adding(days: -offset)
      if let origin = answered?.origin(day) ?? stored.origin(day) {
        return RateSource(name: origin.provider) ?? .provider(service.source.name)
      }
    }
    return answeredBy ?? .provider(service.source.name)
  }

  /// The settled days to know that an answer left out (by `answered`, this
  /// run's answer, else as stored), each with when it is asked again.
  func leftOut(answered: DayStore.Days?) -> [Day: Date] {
    guard let past else { return [:] }
    var leftOut: [Day: Date] = [:]
    for day in past {
      let days = answered.map { $0.state(day) != .unanswered(leftOut: 0) ? $0 : stored } ?? stored
      guard case .unanswered(let count) = days.state(day), count > 0 else { continue }
      let asked = days.origin(day)?.fetchedAt ?? currentTime
      leftOut[day] = CacheFreshness.askAgain(leftOut: count, askedAt: asked)
    }
    return leftOut
  }

  /// The points of `days`: ECB rates by ``MarketClosure/rates(in:today:lookup:)``
  /// (reading days before `days` too); a coin's day without its own value stays a gap.
  func values(in days: ClosedRange<Day>, lookup: (Day) -> RatePoint?) -> [RatePoint] {
    service.source.carriesForward
      ? MarketClosure.rates(in: days, today: today, lookup: lookup)
      : days.compactMap(lookup)
  }

  // MARK: - Fetching

  /// Fetches the missing closes (all of them when refreshing) and the latest
  /// price, writes the cache once, and answers. A close already stored is
  /// kept, unless refreshing: then the answer's days replace it. When the closes are there but the price fails, they are
  /// cached and shown, today's value marked missing (or, when cached, stale):
  /// a second run answers the same way.
  func fetch() async throws -> RateService.HistoryResult {
    var closes = self.closes
    var known = DayStore.Days()
    var newLatest = service.mode == .normal && latestFresh ? latest : nil
    var answeredBy: RateSource?
    var newUnsettled = unsettled
    if let span = fetchSpan(latestNeeded: includesToday && newLatest == nil) {
      service.asked.note(dayKey, span)
      let fetched = try await service.source.dailyCloses(asset, quote, span)
      answeredBy = fetched.source
      let settled = service.settledThrough(currentTime)
      if let answer = RateService.UnsettledCloses(
        fetched, in: span, settled: settled, today: today, at: currentTime)
      {
        newUnsettled = answer
        // This answer's, shown as they are saved: an older answer's close it left out goes.
        for day in answer.days.from...answer.days.through {
          if stored.value(day) == nil { closes[day] = answer.close(on: day) }
        }
      }
      if let cut = fetched.cutShort {
        service.notify(.answerCutShort(pair: "\(asset.symbol)/\(quote)", from: cut.from, reason: cut.failure))
      }
      known = answered(by: fetched, in: span)
      show(known, in: &closes)
      // Closes of the span not settled yet (just after midnight) are shown, never stored; a
      // new answer's replace an older one's.
      for point in fetched.closes
      where span.contains(point.date) && !known.knows(point.date) && stored.value(point.date) == nil {
        closes[point.date] = point
      }
      // A recorded mirror's answer holds no day of the span: shown (never
      // stored) as its own last days.
      if followsData && known.span == nil {
        for point in fetched.closes where point.date < today { closes[point.date] = point }
      }
      // A fresh answer that ends earlier never displaces a later cached price.
      if includesToday, span.upperBound == today, let now = fetched.latest {
        newLatest = Self.newer(point(of: now), newLatest)
      }
    }
    // A chart that ends before today (a frozen feed) still asks for the price.
    if includesToday && !(newLatest.map(isCurrent) ?? false) {
      do {
        if let price = try await service.source.prices([AssetQuote(asset: asset, quote: quote)]).first {
          newLatest = Self.newer(point(of: price), newLatest)
          service.save(price, key: priceKey)
        }
      } catch let error as ProviderError where error.allowsStaleFallback {
        return partial(
          closes: closes, known: known, fetchedLatest: newLatest, failure: error, answeredBy: answeredBy,
          unsettled: newUnsettled)
      }
    }
    save(known: known, latest: newLatest ?? cachedLatestPoint, unsettled: newUnsettled)
    return answer(
      closes: closes, latest: newLatest, fetchedAt: newLatest?.fetchedAt ?? currentTime,
      staleness: nil, answered: known, answeredBy: answeredBy)
  }

  /// The answer when the closes are there but the latest price failed: the
  /// closes are cached and shown; today's value is the cached latest price,
  /// marked stale, or missing. `fetchedLatest` is a chart's own newest price
  /// of an earlier day (a frozen feed), shown on that day.
  func partial(
    closes: [Day: RatePoint], known: DayStore.Days, fetchedLatest: LatestPoint?,
    failure: ProviderError, answeredBy: RateSource? = nil, unsettled: RateService.UnsettledCloses? = nil
  ) -> RateService.HistoryResult {
    save(known: known, latest: fetchedLatest ?? cachedLatestPoint, unsettled: unsettled)
    if let latest, isCurrent(latest) {
      return answer(
        closes: closes, latest: latest, fetchedAt: latest.fetchedAt,
        staleness: Staleness(fetchedAt: latest.fetchedAt, reason: failure), answered: known,
        answeredBy: answeredBy)
    }
    return answer(
      closes: closes, latest: fetchedLatest, fetchedAt: currentTime, staleness: nil,
      latestMissing: failure, answered: known, answeredBy: answeredBy)
  }

  /// The days to fetch: only the settled days the cache lacks (all of the
  /// window when refreshing), reaching on to today when today's price is
  /// needed and the missing part ends yesterday, so one answer brings both.
  /// Nil when nothing but (perhaps) the latest price is due.
  func fetchSpan(latestNeeded: Bool) -> ClosedRange<Day>? {
    if service.mode == .refresh {
      return (past?.lowerBound ?? window.lowerBound)...window.upperBound
    }
    guard let past, !pastCovered else { return nil }
    let missing = past.filter { !isCached($0) }
    guard let first = missing.first, let last = missing.last else { return nil }
    let reachesToday = latestNeeded && last == past.upperBound && includesToday
    return first...(reachesToday ? today : last)
  }

  /// Whether the cache answers for `day` (see ``isCached(_:in:_:at:)``).
  func isCached(_ day: Day) -> Bool {
    Self.isCached(day, in: stored, unsettledFresh ? unsettled : nil, at: currentTime)
  }

  /// Whether the cache answers for `day` at `now`: settled in `days` (a value, or known to
  /// have none, or left out of an answer and not due to be asked again yet), or not settled
  /// and asked for by `freshUnsettled`, a fresh answer.
  static func isCached(
    _ day: Day, in days: DayStore.Days, _ freshUnsettled: RateService.UnsettledCloses?, at now: Date
  ) -> Bool {
    isSettled(day, in: days, at: now) || freshUnsettled?.covers(day) == true
  }

  /// The cached close of `day`: the store's, else the last answer's for a day not settled.
  func cachedClose(on day: Day) -> RatePoint? {
    stored.value(day).map { RatePoint(date: day, rate: $0) } ?? unsettled?.close(on: day)
  }

  /// Whether `day` need not be asked at `now` (see ``isCached(_:)``).
  static func isSettled(_ day: Day, in days: DayStore.Days, at now: Date) -> Bool {
    guard case .unanswered(let count) = days.state(day) else { return true }
    guard count > 0, let asked = days.origin(day)?.fetchedAt else { return false }
    return now < CacheFreshness.askAgain(leftOut: count, askedAt: asked)
  }

  /// What `fetched` answers for the settled days of `span` (see
  /// ``RateService/answered(by:in:stored:at:)``).
  func answered(by fetched: DailyCloses, in span: ClosedRange<Day>) -> DayStore.Days {
    service.answered(by: fetched, in: span, stored: stored, at: currentTime)
  }

  /// `answered`'s values shown in `closes`: those of days without a stored
  /// value, and when refreshing every day it answered (a none removes one).
  func show(_ answered: DayStore.Days, in closes: inout [Day: RatePoint]) {
    let refresh = service.mode == .refresh
    for (day, value) in answered.values where refresh || stored.value(day) == nil {
      closes[day] = RatePoint(date: day, rate: value)
    }
    guard refresh, let span = answered.span else { return }
    for day in span where answered.isEmpty(day) { closes[day] = nil }
  }

  /// Whether `latest` is today's value: dated today, or an ECB rate that
  /// still stands today (``MarketClosure``).
  func isCurrent(_ latest: LatestPoint) -> Bool {
    let day = latest.point.date
    return day == today
      || (service.source.carriesForward
        && MarketClosure.rateStands(from: day, on: today, today: today))
  }

  /// The later of two latest prices by the provider's stamp (then by fetch):
  /// a price stamped earlier never displaces a later one.
  static func newer(_ one: LatestPoint, _ other: LatestPoint?) -> LatestPoint {
    guard let other else { return one }
    return (other.stamp, other.fetchedAt) > (one.stamp, one.fetchedAt) ? other : one
  }

  /// A quote as the latest point, dated by the provider's update.
  func point(of quote: Quote) -> LatestPoint {
    LatestPoint(
      point: RatePoint(date: RateService.day(of: quote, today: today), rate: quote.rate),
      fetchedAt: quote.fetchedAt, updatedAt: quote.updatedAt, source: quote.source)
  }

  /// The history entry's own latest price, as cached.
  var cachedLatestPoint: LatestPoint? {
    guard let point = cached?.latest, let at = cached?.latestFetchedAt else { return nil }
    return LatestPoint(
      point: point, fetchedAt: at, updatedAt: cached?.latestUpdatedAt,
      source: cached?.latestSource.flatMap(RateSource.init(name:)))
  }

  /// Stores what this fetch answered (replacing stored days when
  /// refreshing), an older cache entry's days with it.
  func save(known: DayStore.Days, latest: LatestPoint?, unsettled: RateService.UnsettledCloses?) {
    var all =
      cached.map { Self.legacyDays($0, carriesForward: service.source.carriesForward) }
      ?? DayStore.Days()
    all.merge(known, replacing: true)
    service.saveHistory(
      all, replacing: service.mode == .refresh, latest: latest, unsettled: unsettled, key: key,
      at: currentTime,
      rewriteEntry: cached.map { !$0.closes.isEmpty || $0.coverage != nil } ?? false)
  }
}
