extension CommodityName {
  /// The journal name of `code`, one side of a pair `source` priced, whose coin the
  /// command resolved to `asset` (see ``CommodityName``): a coin CoinGecko priced is named
  /// by that resolved id, so one coin gets one name however it was typed, and a name never
  /// takes a second lookup (which could pick another coin sharing the symbol, or fail
  /// offline). A currency, a coin another provider priced, or a side the asset is not, is
  /// named by its code.
  ///
  /// - Parameters:
  ///   - code: The side as the series or quote shows it (`KAS`, `EUR`, `ethereum-wormhole`).
  ///   - source: The provider that priced the pair (``RateSeries/source``).
  ///   - asset: The coin or currency the command resolved for the pair, if any.
  public static func of(_ code: CurrencyCode, source: RateSource, resolved asset: Asset?)
    -> CommodityName
  {
    guard source == .provider(.coinGecko), let asset, CurrencyCode(asset.symbol) == code,
      !code.isFiat, !CurrencyCodes.coinGeckoQuotes.contains(code.text)
    else { return .code(code) }
    return .coin(id: asset.id)
  }
}
