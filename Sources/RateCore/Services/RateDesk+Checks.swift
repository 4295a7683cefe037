/// Days asked for that can only be empty: they end before the provider's
/// data begins. Refused before any request.
public struct RangeBeforeData: Error, Equatable, Sendable {
  /// Who would have answered (Frankfurter).
  public var provider: Provider
  /// The provider's first day with data.
  public var firstDay: Day
  /// The days asked for, as asked.
  public var asked: ClosedRange<Day>
}

/// A pair no source serves: the source that answered does not price one of
/// its currencies (a Frankfurter mirror without KRW), so it cannot be added.
public struct UnservedPair: Error, Equatable, Sendable {
  /// The pair: two currency codes (only an ECB pair is checked).
  public var base: CurrencyCode
  public var quote: CurrencyCode
  /// The source that answered, and what it said.
  public var provider: RateSource
  public var reason: ProviderError
}

extension RateDesk {
  /// Checks, with one request for its latest rate, that an ECB pair is served
  /// by the sources (Frankfurter, else the ECB). A definitive answer without
  /// the pair (an unknown currency, no rate this week) refuses it; sources that
  /// cannot be reached, `--offline`, and pairs of a currency that ended (the
  /// snapshot serves them) leave the built-in list of ECB currencies to decide.
  /// Other pairs are not checked here.
  ///
  /// - Throws: ``UnservedPair``, or the routing errors of ``route(_:_:)``.
  public func checkServed(base: String, quote: String) async throws {
    let route = try route(base, quote)
    guard route.provider == .frankfurter || route.provider == .ecb, configuration.mode != .offline,
      !isServedFromSnapshot(route.base, route.quote.text)
    else { return }
    let source = source(route.provider)
    let pair = AssetQuote(asset: Asset(symbol: route.base, id: route.base), quote: route.quote)
    do {
      if try await !source.prices([pair]).isEmpty { return }
      throw ProviderError.noData(provider: .provider(source.name), detail: "no rate for \(route.base)/\(route.quote)")
    } catch let error as ProviderError {
      switch error.decisive {
      case .invalidCurrency(let provider, _), .noData(let provider, _):
        throw UnservedPair(base: CurrencyCode(route.base), quote: route.quote, provider: provider, reason: error)
      default:
        guard error.allowsStaleFallback else { throw error }
      }
    }
  }

  /// The days of `window` that `base`/`quote` can have, checked before any
  /// request: cut at the last day of a currency that ended. The one check for
  /// days before a source's data (the ECB's 1999-01-04, a coin's 2009-01-03).
  ///
  /// - Throws: ``RangeBeforeData`` when `window` ends before the provider's
  ///   first day, ``RetiredCurrencies/Ended`` when it starts after a retired
  ///   currency's last day, or the routing errors of ``route(_:_:)``.
  public func checkedWindow(base: String, quote: String, _ window: ClosedRange<Day>) throws
    -> ClosedRange<Day>
  {
    let firstDay: Day?
    var provider = Provider.frankfurter
    var last = window.upperBound
    if isServedFromSnapshot(base, quote) {
      firstDay = ECBSnapshot.embedded?.firstDay
      if let ended = RetiredCurrencies.firstEnded(base, quote) {
        guard window.lowerBound <= ended.lastDay else { throw ended }
        last = min(last, ended.lastDay)
      }
    } else {
      let source = source(try route(base, quote).provider)
      (firstDay, provider) = (source.firstDay, source.name)
    }
    if let firstDay, window.upperBound < firstDay {
      throw RangeBeforeData(provider: provider, firstDay: firstDay, asked: window)
    }
    return window.lowerBound...last
  }

  /// The currency of `base`/`quote` that ended first, when the pair is one
  /// answered from the snapshot alone (``checkedWindow(base:quote:_:)`` cuts
  /// its windows at that day); `nil` for every other pair.
  public func endedCurrency(base: String, quote: String) -> RetiredCurrencies.Ended? {
    isServedFromSnapshot(base, quote) ? RetiredCurrencies.firstEnded(base, quote) : nil
  }

  /// Whether `base`/`quote` is answered from the snapshot built into `rates`
  /// alone: an ECB pair with a currency that ended (its rates are final),
  /// unless another provider is forced.
  func isServedFromSnapshot(_ base: String, _ quote: String) -> Bool {
    let forced = configuration.forcedProvider
    return (forced == nil || forced == .frankfurter || forced == .ecb)
      && RetiredCurrencies.isRetiredPair(base, quote)
  }

  /// The days of `window` of a pair with a currency that ended, from the
  /// snapshot by the ECB rule, never asked of a provider; final data, so
  /// not marked stale.
  func retiredHistory(base: String, quote: String, window: ClosedRange<Day>) throws
    -> RateService.HistoryResult
  {
    let code = CurrencyCode(base).text
    let asset = Asset(symbol: code, id: code)
    let request = HistoryRequest(
      service: service(.frankfurter), asset: asset, quote: CurrencyCode(quote), window: window)
    guard var result = request.fromSnapshot(nil) else {
      throw ProviderError.noData(
        provider: .ecbSnapshot(through: nil),
        detail: "no \(asset.symbol)/\(request.quote) rate from \(window.lowerBound) to "
          + "\(window.upperBound)")
    }
    result.staleness = nil
    result.asset = asset
    return result
  }
}
