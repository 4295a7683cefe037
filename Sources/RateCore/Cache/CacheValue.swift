/// A value ``JSONFileCache`` stores: encoded with ``JSONCoders/encoder(pretty:)``, decoded with
/// ``JSONCoders/decoder()`` and then checked,
/// so that a file holding what no answer the program stored could hold (a rate of 0, a
/// negative one, `1e308`: arithmetic showed `= inf EUR`) is corrupt, never shown.
public protocol CacheValue: Codable, Sendable {
  /// Whether the decoded value is one the program could have stored: its prices and changes
  /// are ones the providers' gate accepts (``AnswerGate``). True unless a type says otherwise.
  var isPlausible: Bool { get }
}

extension CacheValue {
  public var isPlausible: Bool { true }
}

extension String: CacheValue {}

extension Array: CacheValue where Element: CacheValue {
  /// Whether every element is plausible.
  public var isPlausible: Bool { allSatisfy(\.isPlausible) }
}

extension Dictionary: CacheValue where Key == CurrencyPairKey, Value == [RatePoint] {
  /// Whether every point of every pair is plausible.
  public var isPlausible: Bool { values.allSatisfy(\.isPlausible) }
}

extension Quote: CacheValue {
  /// Whether the price and the 24-hour change are ones the gate accepts.
  public var isPlausible: Bool {
    AnswerGate.isPrice(rate) && (change24hPercent.map(AnswerGate.isChangePercent) ?? true)
  }
}

extension SeriesPoint: CacheValue {
  /// Whether the rate is a price the gate accepts.
  public var isPlausible: Bool { AnswerGate.isPrice(rate) }
}

extension RateService.HistoryCacheValue: CacheValue {
  /// Whether every close, the latest price and the unsettled closes are plausible.
  var isPlausible: Bool {
    closes.isPlausible && (latest?.isPlausible ?? true) && (unsettled?.isPlausible ?? true)
  }
}

// Stored as the provider answered them (the answer's decoder checked them).
extension CoinGeckoClient.SearchResult: CacheValue {}
extension CoinMarket: CacheValue {}
