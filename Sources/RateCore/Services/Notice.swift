/// Something a front end should tell the user about an answer that still
/// succeeded. `RateCore` reports the fact; the front end chooses the words.
public enum Notice: Equatable, Sendable {
  /// A cache entry could not be used (corrupt, foreign, from another
  /// version, oversized, not a file); it is ignored and replaced by the next fetch.
  case cacheUnusable(CacheProblem)
  /// A fresh answer could not be written to the cache.
  case cacheNotUpdated(reason: String)
  /// Several coins share `symbol`; `chosen` (the highest market cap) was
  /// used. `alternatives` are the other coins' ids, best first.
  case ambiguousSymbol(symbol: String, chosen: String, alternatives: [String])
  /// The provider has nothing after `newest` (a frozen or recorded mirror):
  /// the series shows the `days` days up to it instead.
  case dataEndsEarly(provider: RateSource, pair: String, newest: Day, days: Int)
  /// The provider answered, but without some of the prices asked for (a
  /// `/simple/price` answer that silently omits coins it lists): the others
  /// are shown. `pairs` name each missing one as typed, `BASE/QUOTE`.
  case missingFromAnswer(provider: RateSource, pairs: [String])
  /// A long answer came in parts and a later part failed (`reason`, in the
  /// source's own words): the days before `from` that arrived are kept and
  /// stored, the days of `pair` from `from` on are asked again by the next run.
  case answerCutShort(pair: String, from: Day, reason: ProviderError)
}
