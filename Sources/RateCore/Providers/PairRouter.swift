/// Which provider answers a pair, and whether its answer must be inverted.
public struct PairRoute: Hashable, Sendable {
  /// The provider that answers.
  public var provider: Provider
  /// The pair as asked of the provider (`BTC`/`EUR` for a requested `EUR`/`BTC`).
  public var base: String
  /// The currency the provider is asked for.
  public var quote: CurrencyCode
  /// True when the provider is asked for the inverse pair and each rate is
  /// `1 / rate`.
  public var inverted: Bool
}

/// Routes pairs to providers: fiat/fiat pairs to the ECB (Frankfurter),
/// pairs with a coin to CoinGecko (the coin chain: ``RateDesk/source(_:)``) (a fiat/coin pair such as `EUR BTC` being
/// the inverse of `BTC EUR`); `--provider` or `RATES_PROVIDER` overrides.
public enum PairRouter {
  /// The route for `base`/`quote`.
  ///
  /// - Parameter forced: a provider named by the user, if any.
  /// - Throws: ``ProviderError/noProvider(base:quote:)`` when no provider covers the pair,
  ///   ``ProviderError/unsupported(provider:detail:)`` when the forced one cannot, or
  ///   ``RetiredCurrencies/Ended`` for an ECB pair with a currency that ended (it has no
  ///   current rate; its past ones come from the snapshot).
  public static func route(base: String, quote: String, forced: Provider?) throws -> PairRoute {
    let (b, q) = (CurrencyCode(base), CurrencyCode(quote))
    if forced == nil || forced == .frankfurter || forced == .ecb,
      RetiredCurrencies.isRetiredPair(b.text, q.text),
      let ended = RetiredCurrencies.firstEnded(b.text, q.text)
    {
      throw ended
    }
    let baseIsFiat = b.isCurrency
    let quoteIsFiat = q.isCurrency
    switch forced {
    case .frankfurter?, .ecb?:
      // A reference-rate source pinned: fiat pairs only.
      let pinned = forced ?? .frankfurter
      guard b.isECB, q.isECB else {
        throw ProviderError.notCovered(provider: .provider(pinned), what: "\(b)/\(q)")
      }
      return PairRoute(provider: pinned, base: b.text, quote: q, inverted: false)
    case .coinDesk?:
      if baseIsFiat, q == "BTC" {
        return PairRoute(provider: .coinDesk, base: q.text, quote: b, inverted: true)
      }
      return PairRoute(provider: .coinDesk, base: base, quote: q, inverted: false)
    default:
      if forced == nil, b.isECB, q.isECB {
        return PairRoute(provider: .frankfurter, base: b.text, quote: q, inverted: false)
      }
      if baseIsFiat && quoteIsFiat {
        throw ProviderError.noProvider(base: b.text, quote: q.text)
      }
      // Coins: the pinned coin source, else the coin chain (named by CoinGecko).
      let coins = forced ?? .coinGecko
      if baseIsFiat {
        return PairRoute(provider: coins, base: quote, quote: b, inverted: true)
      }
      return PairRoute(provider: coins, base: base, quote: q, inverted: false)
    }
  }
}

extension Series {
  /// The same series for the inverse pair: quote and base swapped, each rate its
  /// ``RateInversion/inverse(of:)`` as a computed figure at ``Figure/ratio(_:)``'s precision;
  /// a day or an hour whose rate has none (zero) is a gap.
  public func inverted() -> Series {
    var copy = self
    copy.base = quote.text
    copy.quote = CurrencyCode(base)
    var noInverse: [Key] = []
    copy.points = points.compactMap { point in
      guard let inverse = RateInversion.inverse(of: point.rate) else {
        noInverse.append(point.date)
        return nil
      }
      var inverted = point
      inverted.rate = Figure.ratio(inverse)
      return inverted
    }
    copy.gaps = (gaps + noInverse).sorted()
    return copy
  }
}

extension Quote {
  /// The same price for the inverse pair: its ``RateInversion/inverse(of:)``, and the
  /// 24-hour change `1 / (1 + c) - 1` in percent, both computed figures at
  /// ``Figure/ratio(_:)``'s precision; nil for a price that has no inverse (zero).
  public func inverted() -> Quote? {
    guard let inverse = RateInversion.inverse(of: rate) else { return nil }
    var copy = self
    copy.base = quote.text
    copy.quote = CurrencyCode(base)
    copy.rate = Figure.ratio(inverse)
    copy.change24hPercent = change24hPercent.flatMap(Change.inverted)
    return copy
  }
}
