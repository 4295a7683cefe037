import Foundation

extension RateDesk {
  /// The journal name of what a user typed or a series names (`BTC`,
  /// `wbtc`, `wrapped-bitcoin`, `EUR`): a currency by its code, a coin by
  /// its resolved CoinGecko id (see ``CommodityName``), so one coin gets
  /// one name however it was typed.
  ///
  /// Resolving costs nothing for the coins a command has just priced (the
  /// resolution is cached); a coin that cannot be resolved, or one priced
  /// by another provider, is named by its code.
  public func commodity(for text: String) async -> CommodityName {
    let upper = text.uppercased()
    guard coinProvider == .coinGecko, !PairRouter.isFiat(upper),
      !CurrencyCodes.coinGeckoQuotes.contains(upper)
    else { return .code(text) }
    guard let asset = try? await resolver().resolve(text) else { return .code(text) }
    return .coin(id: asset.id)
  }
}
