extension HistoryRequest {
  /// Which source each of `points` came from, as runs (``RateSeries/SourceSpan``): a stored
  /// day's own fetch (this run's answer's when refreshing), the latest price's source on its
  /// day, this run's answering source (`fetchedSource`) for a day it brought that is not
  /// stored (not settled yet), else the service's name (a day stored before sources were kept).
  /// A carried ECB day has the source of the rate it carries.
  func sourceSpans(
    of points: [RatePoint], latest: LatestPoint?, answered: DayStore.Days?, fetchedSource: RateSource?
  ) -> [RateSeries.SourceSpan] {
    let own = RateSource.provider(service.source.name)
    let refresh = service.mode == .refresh
    var previous: RateSource?
    return RateSeries.spans(of: points) { point in
      let day = point.date
      let source: RateSource
      if let latest, latest.point.date == day {
        source = latest.source ?? own
      } else if point.carried, let previous {
        source = previous  // an ECB rate standing over a closure: the working day's source
      } else if let fetch = refresh || !stored.knows(day)
        ? answered?.origin(day) ?? stored.origin(day) : stored.origin(day)
      {
        source = RateSource(name: fetch.provider) ?? own
      } else {
        source = stored.knows(day) ? own : fetchedSource ?? unsettledSource(on: day) ?? own
      }
      previous = source
      return source
    }
  }

  /// The provider that answered for `day`, a day not settled yet, in the cached answer.
  func unsettledSource(on day: Day) -> RateSource? {
    guard let unsettled, unsettled.covers(day), let name = unsettled.source else { return nil }
    return RateSource(name: name)
  }
}
