import RateCore
import RatesExpectations
import RatesTestSupport
import Testing

// What each real recorded Coinbase Exchange and Kraken body must give.

extension RealCorpus {
  static func exchangePrice(_ call: Call, _ rate: Double, time: Date?) -> Expectation {
    Expectation(
      status: 200, call: call,
      outcome: .decodes { answer in
        guard case .current(let value, let date) = answer else { throw CorpusFailure.wrongAnswer }
        expectEqual(value, rate)
        expectEqual(date, time)
      })
  }

  static func candles(_ call: Call, count: Int, first: (Double, Double), last: (Double, Double))
    -> Expectation
  {
    Expectation(
      status: 200, call: call,
      outcome: .decodes { answer in
        guard case .samples(let samples) = answer else { throw CorpusFailure.wrongAnswer }
        expectEqual(samples.count, count)
        expect(samples.first?.0 == seconds(first.0) && samples.first?.1 == first.1)
        expect(samples.last?.0 == seconds(last.0) && samples.last?.1 == last.1)
        expectEqual(samples.map(\.0), samples.map(\.0).sorted())
      })
  }

  static let exchangeExpectations: [String: Expectation] = [
    // Coinbase: figures as strings, time with microseconds.
    "coinbase/ticker_BTC-USDT_rfq_volume__ccxt.json": exchangePrice(
      .coinbaseTicker("BTC", "USDT"), 73367.8, time: ISO8601.parse("2024-03-13T11:10:41.270099Z")),
    "coinbase/candles_BTC-USDT_3600_one_row__ccxt.json": candles(
      .coinbaseCandles("BTC", "USDT", from: 1_710_327_600), count: 1,
      first: (1_710_327_600, 73370.65), last: (1_710_327_600, 73370.65)),
    "coinbase/error_404_NotFound__unidentified-repo-id69755194622.json": fails(
      404, .coinbaseTicker("BTC", "XYZ"),
      .notCovered(provider: .provider(.coinbase), what: "BTC-XYZ")),
    // Kraken: newer pairs keyed plainly (XBTUSDT), legacy ones X…Z… (XXBTZUSD);
    // `last` a string in one answer and a number in the other.
    "kraken/ticker_XBTUSDT_key_XBTUSDT__ccxt.json": exchangePrice(
      .krakenTicker("BTC", "USDT"), 73380.6, time: nil),
    "kraken/ticker_XBTUSD_key_XXBTZUSD__unidentified-repo-id59322070212.json": exchangePrice(
      .krakenTicker("BTC", "USD"), 77726.1, time: nil),
    "kraken/ohlc_XBTUSDT_60_last_string__ccxt.json": candles(
      .krakenOHLC("BTC", "USDT", since: 1_706_628_191), count: 6,
      first: (1_706_626_800, 43361.1), last: (1_706_799_600, 42548.5)),
    "kraken/ohlc_XBTUSD_1_last_integer__unidentified-repo-id59322070212.json": candles(
      .krakenOHLC("BTC", "USD", since: 1_788_415_200), count: 4,
      first: (1_788_415_200, 77736.8), last: (1_788_415_380, 77701.7)),
    // Kraken's errors come over HTTP 200.
    "kraken/error_unknown_asset_pair__unidentified-repo-id68858610028.json": fails(
      200, .krakenTicker("BTC", "XYZ"), .notCovered(provider: .provider(.kraken), what: "BTC/XYZ")),
  ]
}
