/// Where each day of a series came from: a series filled from several sources (Coinbase
/// candles before CoinGecko's free plan reaches, CoinGecko since) keeps, per run of days, the
/// source that answered them, so every point carries its provenance.
extension Series {
  /// A run of days with a value, all from one source (gaps between them do not end a run).
  public struct SourceSpan: Hashable, Sendable, Codable {
    /// Where the run's values came from.
    public var source: RateSource
    /// The first and last day of the run with a value from it.
    public var first: Key
    public var last: Key
  }

  /// The runs of ``sources`` for `points` (oldest first), each point's source given by
  /// `source`: one span per run of consecutive points from one source.
  public static func spans(of points: [SeriesPoint<Key>], source: (SeriesPoint<Key>) -> RateSource) -> [SourceSpan] {
    var spans: [SourceSpan] = []
    for point in points {
      let name = source(point)
      if spans.last?.source == name {
        spans[spans.count - 1].last = point.date
      } else {
        spans.append(SourceSpan(source: name, first: point.date, last: point.date))
      }
    }
    return spans
  }

  /// Whether the series' values came from more than one source.
  public var isMixed: Bool {
    guard let first = sources.first?.source else { return false }
    return sources.contains { $0.source != first }
  }

  /// The source of `day`'s value: the span holding it, else (a gap, or a series that
  /// records no spans) the series' ``source``.
  public func source(on day: Key) -> RateSource {
    var (low, high) = (0, sources.count)
    while low < high {
      let middle = (low + high) / 2
      if sources[middle].last < day { low = middle + 1 } else { high = middle }
    }
    guard low < sources.count, sources[low].first <= day else { return source }
    return sources[low].source
  }
}
