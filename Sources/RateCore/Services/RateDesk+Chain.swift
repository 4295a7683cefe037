extension RateDesk {
  /// The coin sources in the user's order (``Configuration/coinSources``), each
  /// an exchange only when the desk has its URL, as one
  /// ``SourceChain``: CoinGecko's identity (resolver, quote check, cache keys)
  /// when it is in the list. CoinGecko is skipped up front for a range its plan
  /// cannot reach (``planLimited(_:)``).
  public func coinChain() -> PriceSource {
    let providers = configuration.coinSources.filter { provider in
      switch provider {
      case .coinGecko: return true
      case .coinbase: return configuration.coinbaseURL != nil
      case .kraken: return configuration.krakenURL != nil
      default: return false
      }
    }
    let sources = providers.enumerated().map { index, provider in
      let source = single(provider, link: index < providers.count - 1)
      return provider == .coinGecko ? planLimited(source) : source
    }
    let identity =
      sources.first { $0.name == Provider.coinGecko } ?? sources.first ?? single(.coinGecko)
    return SourceChain.chain(
      sources, identity: identity, pauses: ProviderPauses(cacheFolder: configuration.cacheDirectory),
      now: now)
  }

  /// CoinGecko as a link of the chain: without a Pro key, a range starting more
  /// than ``CoinGeckoClient/freePlanDays`` days ago is
  /// ``ProviderError/historyTooOld(provider:)`` without a request (the free
  /// plans refuse it with code 10012), so the next source answers at once.
  func planLimited(_ gecko: PriceSource) -> PriceSource {
    if case .pro = configuration.coinGeckoKey { return gecko }
    var limited = gecko
    limited.dailyCloses = { [now] asset, currency, days in
      let reach = days.lowerBound.distance(to: Day(containing: now())) + 1
      guard reach <= CoinGeckoClient.freePlanDays else {
        throw ProviderError.historyTooOld(provider: .provider(.coinGecko))
      }
      return try await gecko.dailyCloses(asset, currency, days)
    }
    return limited
  }
}

extension RateDesk {
  /// Each source a chain may have answered with, alone, by name (Coinbase, Kraken, the ECB):
  /// `cache verify` asks the days stored from one of them of that source, as it was asked.
  public func verifySources() -> [Provider: PriceSource] {
    var sources: [Provider: PriceSource] = [:]
    for provider in [Provider.coinbase, .kraken, .ecb] {
      let source = single(provider)
      sources[source.name] = source
    }
    return sources
  }
}
