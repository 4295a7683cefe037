import Foundation

// MARK: - Both on one server

/// CoinGecko under `/api/v3`, Frankfurter under `/frankfurter`, CoinDesk under `/v1/bpi`, as
/// `scripts/fake_api_server.py`.
public enum FakeAPIs {
  public static func handler(
    now: @escaping @Sendable () -> Date,
    prices: [String: [String: Double]] = FakeCoinGecko.pricesWithCryptoQuotes
  ) -> @Sendable (RecordedRequest) -> LoopbackReply {
    let gecko = FakeCoinGecko.handler(now: now, prices: prices)
    let desk = FakeCoinDesk.handler(now: now)
    let ecb = FakeFrankfurter.handler(now: now)
    return { request in
      if request.path.hasPrefix("/api/v3/") { return gecko(request) }
      if request.path.hasPrefix("/frankfurter/") { return ecb(request) }
      return desk(request)
    }
  }
}

