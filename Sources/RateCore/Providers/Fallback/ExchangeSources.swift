/// Which pairs the keyless exchanges list, the one table: only these are
/// asked there, so a coin they do not list stays CoinGecko's alone.
/// (Coinbase's `/products` and Kraken's `AssetPairs` list more; these are
/// the coins and currencies `rates` asks them for.)
public enum ExchangeListings {
  /// Coins both exchanges trade against the currencies below.
  public static let coins: Set<String> = [
    "BTC", "ETH", "SOL", "LTC", "XRP", "ADA", "DOGE", "DOT", "LINK", "AVAX", "XLM", "BCH",
  ]
  /// The currencies those coins are quoted in.
  public static let quotes: Set<String> = ["USD", "EUR", "GBP"]

  /// Whether `base`/`quote` is asked at the exchanges.
  public static func lists(_ base: String, _ quote: String) -> Bool {
    coins.contains(CurrencyCode(base).text) && quotes.contains(CurrencyCode(quote).text)
  }
}

extension PriceSource {
  /// Coinbase Exchange: the ticker per pair, a day's close its UTC daily
  /// candle's close (300 candles a request). Resolves only listed symbols.
  public static func coinbase(client: CoinbaseClient, now: @escaping @Sendable () -> Date)
    -> PriceSource
  {
    exchange(
      name: Provider.coinbase, now: now,
      price: { pair in
        let answer = try await client.ticker(base: pair.asset.symbol, quote: pair.quote.text)
        return (answer.rate, answer.time)
      },
      closes: { asset, currency, days in
        try await client.dailyCloses(
          base: asset.symbol, quote: currency, days: days, today: Day(containing: now()))
      })
  }

  /// Kraken: the ticker per pair, a day's close its UTC daily candle's close
  /// (only the 720 most recent candles exist).
  public static func kraken(client: KrakenClient, now: @escaping @Sendable () -> Date)
    -> PriceSource
  {
    exchange(
      name: Provider.kraken, now: now,
      price: { pair in (try await client.ticker(base: pair.asset.symbol, quote: pair.quote.text), nil) },
      closes: { asset, currency, days in
        // A day early (AnswerGate's margin); a daily candle's close read at its end (DailyResampler).
        let since = days.lowerBound.adding(days: -AnswerGate.marginDays)
        // Only the 720 newest candles exist: an answer with none of the asked days is refused.
        let samples = try AnswerGate.series(
          try await client.ohlc(base: asset.symbol, quote: currency, interval: .day, since: since.start),
          inside: since.start...days.upperBound.start, asked: days, provider: Provider.kraken,
          endpoint: "/0/public/OHLC")
        return DailyCloses(
          closes: DailyResampler.closes(ofCandles: samples, width: 86_400, in: days),
          latest: nil)
      })
  }

  /// A provider the desk has no base URL for: every call is
  /// ``ProviderError/unsupported(provider:detail:)``, without a request.
  static func unconfigured(_ name: Provider) -> PriceSource {
    let refusal = ProviderError.unsupported(provider: .provider(name), detail: "no base URL is configured")
    return PriceSource(
      name: name, resolve: { _ in throw refusal }, validateQuote: { _ in throw refusal },
      prices: { _ in throw refusal }, dailyCloses: { _, _, _ in throw refusal })
  }

  /// An exchange as a source: unlisted pairs are
  /// ``ProviderError/notCovered(provider:what:)`` without a request; today's
  /// still-open candle is never a close.
  /// Whether `error` says the whole exchange failed (down, unreachable, rate-limited), so
  /// its other pairs are not asked; any other error is one pair's.
  static func failsTheExchange(_ error: ProviderError) -> Bool {
    switch error {
    case .rateLimited, .serverError, .network: return true
    default: return false
    }
  }

  static func exchange(
    name: Provider, now: @escaping @Sendable () -> Date,
    price: @escaping @Sendable (AssetQuote) async throws -> (Double, Date?),
    closes: @escaping @Sendable (Asset, String, ClosedRange<Day>) async throws -> DailyCloses
  ) -> PriceSource {
    var source = PriceSource(
      name: name,
      resolve: { input in
        let symbol = CurrencyCode(input).text
        guard ExchangeListings.coins.contains(symbol) else {
          throw ProviderError.notCovered(provider: .provider(name), what: input)
        }
        return Asset(symbol: symbol, id: symbol)
      },
      validateQuote: { currency in
        guard ExchangeListings.quotes.contains(currency.text) else {
          throw ProviderError.invalidCurrency(provider: .provider(name), currency: currency.text)
        }
      },
      prices: { pairs in
        var quotes: [Quote] = []
        var refused: (any Error)?
        for pair in pairs where ExchangeListings.lists(pair.asset.symbol, pair.quote.text) {
          do {
            let (rate, time) = try await price(pair)
            quotes.append(
              Quote(
                base: pair.asset.symbol, quote: pair.quote, rate: rate, change24hPercent: nil,
                source: .provider(name), fetchedAt: now(), updatedAt: time))
          } catch let error as ProviderError where !Self.failsTheExchange(error) {
            // A product this exchange lacks (or answers badly) leaves that pair out alone.
            refused = refused ?? error
          }
        }
        guard !quotes.isEmpty else {
          if let refused { throw refused }
          throw ProviderError.notCovered(
            provider: .provider(name), what: pairs.map { "\($0.asset.symbol)/\($0.quote)" }.joined(separator: ", "))
        }
        return quotes
      },
      dailyCloses: { asset, currency, days in
        guard ExchangeListings.lists(asset.symbol, currency.text) else {
          throw ProviderError.notCovered(provider: .provider(name), what: "\(asset.symbol)/\(currency)")
        }
        let today = Day(containing: now())
        var answer = try await closes(asset, currency.text, days)
        answer.closes.removeAll { $0.date >= today }
        return answer
      })
    source.whyLacking = { pair in
      ExchangeListings.lists(pair.asset.symbol, pair.quote.text)
        ? nil : .notCovered(provider: .provider(name), what: "\(pair.asset.symbol)/\(pair.quote)")
    }
    return source
  }
}
