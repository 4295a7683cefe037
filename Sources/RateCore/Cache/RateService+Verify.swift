extension RateService {
  /// A stored day the provider now answers differently.
  public struct StoredDifference: Sendable, Equatable {
    /// The day.
    public var day: Day
    /// The stored value; nil when stored as having none.
    public var stored: Double?
    /// The provider's value; nil when it says there is none.
    public var provider: Double?
    /// Where the stored value came from; nil when unknown (stored before format 2).
    public var storedFetch: DayStore.Fetch?
  }

  /// What `rates cache verify` found for one stored pair.
  public struct VerifyReport: Sendable, Equatable {
    /// The provider's name.
    public var provider: String
    /// The pair as the store names it (`eur-usd`).
    public var pair: String
    /// Range requests made: one per run of stored days.
    public var requests: Int
    /// Stored days the provider answered, compared.
    public var checked: Int
    /// The days that differ, oldest first.
    public var differences: [StoredDifference]
    /// Whether the differences were replaced by the provider's answers.
    public var fixed: Bool
  }

  /// The pairs the day store holds for this source (`eur-usd`), sorted.
  public func storedPairs() -> [String] {
    let folder = dayStore.fileURL(key: "\(source.name)/x").deletingLastPathComponent()
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".days") && !$0.hasPrefix(".") }
      .map { String($0.dropLast(5)) }.sorted()
  }

  /// Asks the provider again for every stored day of `pair` (`eur-usd`), one
  /// range request per run of stored days, and reports each answered day
  /// whose stored value (or none) differs; with `fix`, stores the provider's
  /// answer for exactly those days. A day the answer leaves out is not
  /// compared.
  public func verifyStoredDays(pair: String, fix: Bool) async throws -> VerifyReport {
    let key = "\(source.name)/\(pair)"
    let (stored, problem) = dayStore.load(key: key)
    if let problem { notify(.cacheUnusable(problem)) }
    var report = VerifyReport(
      provider: source.name, pair: pair, requests: 0, checked: 0, differences: [], fixed: false)
    guard let dash = pair.lastIndex(of: "-"), let settled = settledThrough(now()) else {
      return report
    }
    let id = String(pair[..<dash])
    let asset = Asset(symbol: id.uppercased(), id: id)
    let quote = pair[pair.index(after: dash)...].uppercased()
    var replacements = DayStore.Days()
    for run in stored.runs where run.lowerBound <= settled {
      let span = run.lowerBound...min(run.upperBound, settled)
      let fetched = try await source.dailyCloses(asset, quote, span)
      report.requests += 1
      let answer = answered(by: fetched, in: span, stored: stored, at: now())
      for offset in 0...span.lowerBound.distance(to: span.upperBound) {
        let day = span.lowerBound.adding(days: offset)
        guard stored.knows(day), answer.knows(day) else { continue }
        report.checked += 1
        guard answer.state(day) != stored.state(day) else { continue }
        report.differences.append(
          StoredDifference(
            day: day, stored: stored.value(day), provider: answer.value(day),
            storedFetch: stored.origin(day)))
        replacements.set(day, answer.value(day), from: answer.origin(day))
      }
    }
    if fix && !report.differences.isEmpty {
      try dayStore.save(replacements, key: key, replacing: true, firstDay: source.firstDay)
      report.fixed = true
    }
    return report
  }

  /// What `fetched` answers for the settled days of `span`, as fetched at
  /// `instant`: its values (only those inside `span`: an answer carrying
  /// other days is not trusted for them), none for an ECB closure, and every
  /// other day left out, counted on from `stored` (asked again after
  /// ``CacheFreshness/askAgain(leftOut:askedAt:)``, stored as none once
  /// ``CacheFreshness/leftOutSettles`` answers left it out). An answer with
  /// no value in `span` says nothing of a day not left out before (a
  /// recorded mirror, a coin not listed yet): it is asked again.
  func answered(
    by fetched: DailyCloses, in span: ClosedRange<Day>, stored: DayStore.Days, at instant: Date
  ) -> DayStore.Days {
    var days = DayStore.Days()
    guard let settled = settledThrough(instant), span.lowerBound <= settled else { return days }
    let last = min(span.upperBound, settled)
    let fetch = DayStore.Fetch(provider: source.name, fetchedAt: instant)
    for point in fetched.closes
    where !point.carried && span.lowerBound <= point.date && point.date <= last {
      days.set(point.date, point.rate, from: fetch)
    }
    let saysNothing = days.span == nil
    for offset in 0...span.lowerBound.distance(to: last) {
      let day = span.lowerBound.adding(days: offset)
      guard !days.knows(day) else { continue }
      var leftOut = 1
      if case .unanswered(let count) = stored.state(day) { leftOut += count }
      if saysNothing && leftOut == 1 { continue }
      if (source.carriesForward && MarketClosure.isECBClosed(day))
        || leftOut >= CacheFreshness.leftOutSettles
      {
        days.set(day, nil, from: fetch)
      } else {
        days.setLeftOut(day, count: leftOut, from: fetch)
      }
    }
    return days
  }
}
