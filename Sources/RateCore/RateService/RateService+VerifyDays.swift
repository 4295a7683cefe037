extension RateService {
  /// Asks again for every stored day of `pair` (`eur-usd`) as it was asked (see
  /// ``verifyRequests(_:settled:today:)``) and reports each answered day whose stored value
  /// (or none) differs by more than the figures' precision (``Figure/agree(_:_:)``), a day
  /// stored as left out that is now answered included; days the answer leaves out are counted
  /// as not compared, days after the last settled day as not over. With `fix`, stores the
  /// answers for exactly the days that differ and drops the days not over.
  ///
  /// - Parameter sources: the sources by name for days stored from another source than this
  ///   service's (a chain's fallback: Coinbase candles are checked against Coinbase candles).
  public func verifyStoredDays(pair: String, fix: Bool, sources: [Provider: PriceSource] = [:])
    async throws -> VerifyReport
  {
    let key = "\(source.name)/\(pair)"
    let (stored, problem) = dayStore.load(key: key)
    if let problem { notify(.cacheUnusable(problem)) }
    var report = VerifyReport(
      provider: source.name, pair: pair, requests: 0, checked: 0, differences: [], fixed: false)
    let instant = now()
    guard let dash = pair.lastIndex(of: "-"), let settled = settledThrough(instant) else {
      return report
    }
    report.notOver = Self.storedDays(of: stored, after: settled)
    let id = String(pair[..<dash])
    let quote = CurrencyCode(pair[pair.index(after: dash)...])
    let asset = (try? await source.resolve(id)) ?? Asset(symbol: CurrencyCode(id).text, id: id)
    var replacements = DayStore.Days()
    for request in verifyRequests(stored, settled: settled, today: Day(containing: instant)) {
      let asked = Provider(rawValue: request.provider).flatMap { sources[$0] } ?? source
      var fetched = try await asked.dailyCloses(asset, quote, request.span)
      fetched.source = fetched.source ?? .provider(asked.name)
      report.requests += 1
      if !report.askedSources.contains(asked.name) { report.askedSources.append(asked.name) }
      let answer = answered(by: fetched, in: request.span, stored: stored, at: instant)
      compare(stored, with: answer, on: request.days, into: &report, replacements: &replacements)
    }
    if fix && (!report.differences.isEmpty || !report.notOver.isEmpty) {
      try dayStore.save(
        replacements, key: key, replacing: true, firstDay: source.firstDay,
        lastDay: report.notOver.isEmpty ? nil : settled)
      report.fixed = true
    }
    return report
  }

  /// One request of `cache verify`: the stored days it checks, the span asked and the
  /// provider whose days they are.
  struct VerifyRequest {
    var days: ClosedRange<Day>
    var span: ClosedRange<Day>
    var provider: String
  }

  /// The requests that check the settled days of `stored`: one per run of stored days from
  /// one provider (as stored with each day; this service's when unknown), asked as a
  /// history asked them: a run up to the last settled day reaches on to today, as the
  /// history that fetched it did for today's price, so the answer has the same form (for
  /// CoinGecko `days=N`, not a range).
  func verifyRequests(_ stored: DayStore.Days, settled: Day, today: Day) -> [VerifyRequest] {
    var requests: [VerifyRequest] = []
    for run in stored.runs where run.lowerBound <= settled {
      let last = min(run.upperBound, settled)
      for day in run.lowerBound...last {
        let provider = stored.origin(day)?.provider ?? source.name.rawValue
        if let previous = requests.last, previous.provider == provider,
          previous.days.upperBound.adding(days: 1) == day
        {
          requests[requests.count - 1].days = previous.days.lowerBound...day
        } else {
          requests.append(VerifyRequest(days: day...day, span: day...day, provider: provider))
        }
      }
    }
    return requests.map { request in
      var request = request
      request.span = request.days.lowerBound...(request.days.upperBound == settled ? today : request.days.upperBound)
      return request
    }
  }

  /// Compares the stored `days` with `answer`, counting and listing into `report`, and
  /// puts each differing day's answer into `replacements`.
  func compare(
    _ stored: DayStore.Days, with answer: DayStore.Days, on days: ClosedRange<Day>,
    into report: inout VerifyReport, replacements: inout DayStore.Days
  ) {
    for day in days {
      let leftOut = stored.state(day) != .unanswered(leftOut: 0) && !stored.knows(day)
      guard stored.knows(day) || leftOut else { continue }
      guard answer.knows(day) else {
        if leftOut { report.leftOut += 1 } else { report.notCompared += 1 }
        continue
      }
      report.checked += 1
      if case .value(let mine) = stored.state(day), case .value(let theirs) = answer.state(day),
        Figure.agree(mine, theirs)
      {
        continue
      }
      guard answer.state(day) != stored.state(day) else { continue }
      report.differences.append(
        StoredDifference(
          day: day, stored: stored.value(day), storedLeftOut: leftOut, provider: answer.value(day),
          storedFetch: stored.origin(day)))
      replacements.set(day, answer.value(day), from: answer.origin(day))
    }
  }

  /// The stored days (answered or left out) of `days` after `day`, oldest first.
  static func storedDays(of days: DayStore.Days, after day: Day) -> [Day] {
    guard let span = days.span, span.upperBound > day else { return [] }
    let first = max(span.lowerBound, day.adding(days: 1))
    return (first...span.upperBound).filter { days.state($0) != .unanswered(leftOut: 0) }
  }
}
