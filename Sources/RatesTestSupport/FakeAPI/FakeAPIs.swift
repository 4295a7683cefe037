import Foundation

// MARK: - All five on one server

/// CoinGecko under `/api/v3`, Frankfurter under `/frankfurter`, CoinDesk under `/v1/bpi`,
/// Coinbase Exchange under `/coinbase`, Kraken under `/kraken`: the layout of `LoopbackServer` in end-to-end tests and of the `fake-api` executable.
public enum FakeAPIs {
  /// A request handler serving all five fakes at `now`.
  ///
  /// - Parameters:
  ///   - now: the fakes' clock, read once per request.
  ///   - prices: CoinGecko's current prices by id, then lower-case currency.
  public static func handler(
    now: @escaping @Sendable () -> Date,
    prices: [String: [String: Double]] = FakeCoinGecko.pricesWithCryptoQuotes
  ) -> @Sendable (RecordedRequest) -> LoopbackReply {
    let gecko = FakeCoinGecko.handler(now: now, prices: prices)
    let desk = FakeCoinDesk.handler(now: now)
    let ecb = FakeFrankfurter.handler(now: now)
    let coinbase = FakeCoinbase.handler(now: now)
    let kraken = FakeKraken.handler(now: now)
    let ecbItself = FakeECB.handler(now: now)
    return { request in
      if request.path.hasPrefix("/api/v3/") { return gecko(request) }
      if request.path.hasPrefix("/frankfurter/") { return ecb(request) }
      if request.path.hasPrefix("/coinbase/") { return coinbase(request) }
      if request.path.hasPrefix("/kraken/") { return kraken(request) }
      if request.path.hasPrefix("/ecb/") { return ecbItself(request) }
      return desk(request)
    }
  }

  /// The `RATES_*_URL` variables that point `rates` at the fakes served at `base`
  /// (a `LoopbackServer`'s or `fake-api`'s URL, e.g. `http://127.0.0.1:8080`).
  public static func environment(base: URL) -> [String: String] {
    [
      "RATES_COINGECKO_URL": base.appendingPathComponent("api/v3").absoluteString,
      "RATES_COINDESK_URL": base.appendingPathComponent("v1/bpi").absoluteString,
      "RATES_FRANKFURTER_URL": base.appendingPathComponent("frankfurter").absoluteString,
      "RATES_COINBASE_URL": base.appendingPathComponent("coinbase").absoluteString,
      "RATES_KRAKEN_URL": base.appendingPathComponent("kraken").absoluteString,
      "RATES_ECB_URL": base.appendingPathComponent("ecb").absoluteString,
    ]
  }
}
