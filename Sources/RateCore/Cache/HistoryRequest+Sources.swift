extension HistoryRequest {
  /// Which source each of `points` came from, as runs (``RateSeries/SourceSpan``): a stored
  /// day's own fetch (this run's answer's when refreshing), the latest price's source on its
  /// day, this run's answering source (`fetchedSource`) for a day it brought that is not
  /// stored (not settled yet), else the service's name (a day stored before sources were kept).
  func sourceSpans(
    of points: [RatePoint], latest: LatestPoint?, answered: DayStore.Days?, fetchedSource: String?
  ) -> [RateSeries.SourceSpan] {
    let own = service.source.name
    let refresh = service.mode == .refresh
    return RateSeries.spans(of: points) { point in
      let day = point.date
      if let latest, latest.point.date == day { return latest.source ?? own }
      let fetch =
        refresh || !stored.knows(day)
        ? answered?.origin(day) ?? stored.origin(day) : stored.origin(day)
      if let fetch { return fetch.provider }
      return stored.knows(day) ? own : fetchedSource ?? own
    }
  }
}
