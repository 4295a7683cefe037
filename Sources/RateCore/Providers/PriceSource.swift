/// A provider as the rest of `rates` sees it: a value holding closures, so a
/// test can build one inline and the service never names a concrete API.
public struct PriceSource: Sendable {
  /// The provider, reported as `source`.
  public var name: Provider
  /// The sources whose answers this one gives (a ``SourceChain``'s links); empty for a
  /// source that answers alone, as ``name``. A cached answer of another source is not
  /// this one's: a pinned provider never shows a fallback's cached figure.
  public var members: [Provider] = []
  /// How long a fetched latest price stays fresh: a minute for coins, an
  /// hour for ECB rates (published once a working day).
  public var freshness: TimeInterval
  /// Whether a rate stands until the next one is published (ECB rates over
  /// weekends and holidays), so the newest rate carries forward to today.
  public var carriesForward: Bool
  /// Rates built into `rates` that answer when the provider is unreachable
  /// and nothing is cached (the ECB snapshot for Frankfurter), if any. Made on
  /// first use: a command answered otherwise never decodes them.
  public var offlineRates: ECBSnapshot? {
    get { offlineRatesOnFirstUse.value }
    set { offlineRatesOnFirstUse = OnFirstUse { newValue } }
  }
  private var offlineRatesOnFirstUse: OnFirstUse<ECBSnapshot?>
  /// The first day the provider has data for, when it has one for every pair (the ECB's
  /// 1999-01-04; a coin source's ``AnswerGate/firstCoinDay``, 2009-01-03): a range is cut
  /// there, so nothing before it is asked for or stored, and one that ends before it is
  /// refused before asking (``RateDesk/checkedWindow(base:quote:_:)``).
  public var firstDay: Day?
  /// Turns a user's coin name into the provider's asset.
  public var resolve: @Sendable (_ input: String) async throws -> Asset
  /// Checks that the provider prices in `currency` without a request; throws
  /// ``ProviderError/invalidCurrency(provider:currency:)`` otherwise.
  public var validateQuote: @Sendable (_ currency: CurrencyCode) throws -> Void
  /// Current prices of `pairs`, in their order, in as few requests as the
  /// API allows. A pair the answer lacks may be left out (a partial answer);
  /// a source throws when it has none of them.
  public var prices: @Sendable (_ pairs: [AssetQuote]) async throws -> [Quote]
  /// Why the last answer of ``prices`` lacked `pair`, when the source knows (a chain: every
  /// source's failure for it); nil when the answer simply left it out.
  public var whyLacking: @Sendable (_ pair: AssetQuote) -> ProviderError? = { _ in nil }
  /// Daily closes for the days in `days` and, when the API gives it along,
  /// the latest price.
  public var dailyCloses:
    @Sendable (_ asset: Asset, _ currency: CurrencyCode, _ days: ClosedRange<Day>) async throws
      -> DailyCloses

  /// Creates a source from its closures.
  public init(
    name: Provider,
    freshness: TimeInterval = CacheFreshness.currentPrice,
    carriesForward: Bool = false,
    offlineRates: @autoclosure @escaping @Sendable () -> ECBSnapshot? = nil,
    firstDay: Day? = nil,
    resolve: @escaping @Sendable (_ input: String) async throws -> Asset,
    validateQuote: @escaping @Sendable (_ currency: CurrencyCode) throws -> Void,
    prices: @escaping @Sendable (_ pairs: [AssetQuote]) async throws -> [Quote],
    dailyCloses:
      @escaping @Sendable (_ asset: Asset, _ currency: CurrencyCode, _ days: ClosedRange<Day>)
      async throws -> DailyCloses
  ) {
    self.name = name
    self.freshness = freshness
    self.carriesForward = carriesForward
    offlineRatesOnFirstUse = OnFirstUse(offlineRates)
    self.firstDay = firstDay
    self.resolve = resolve
    self.validateQuote = validateQuote
    self.prices = prices
    self.dailyCloses = dailyCloses
  }
}

/// What a history request returns: each day's closing value and, when the
/// provider sends one, the latest price.
public struct DailyCloses: Sendable, Equatable {
  /// One value per day, oldest first; days the provider skipped are absent.
  public var closes: [RatePoint]
  /// The latest price, if the same response carried it.
  public var latest: Quote?
  /// The source that answered, when it is not the one asked (a fallback in a
  /// ``SourceChain``): what labels the series and each stored day; nil for the
  /// source asked.
  public var source: RateSource?
  /// Set when the answer came in parts and a later part failed (a long
  /// candle range timing out halfway): the parts that arrived are kept, the
  /// days from ``CutShort/from`` on are not answered (never stored as left
  /// out: the next run asks them again).
  public var cutShort: CutShort?

  /// The first day a failed part would have brought, and its failure.
  public struct CutShort: Sendable, Equatable {
    /// The first day not brought.
    public var from: Day
    /// Why its part failed, in the source's own words.
    public var failure: ProviderError
  }
}

extension PriceSource {
  /// CoinGecko: symbols through ``CoinResolver``, prices from one batched
  /// `/simple/price`, history from one `/coins/{id}/market_chart`.
  public static func coinGecko(
    client: CoinGeckoClient, resolver: CoinResolver, now: @escaping @Sendable () -> Date
  ) -> PriceSource {
    let name = Provider.coinGecko
    return PriceSource(
      name: name, firstDay: AnswerGate.firstCoinDay,
      resolve: { try await resolver.resolve($0) },
      validateQuote: { currency in
        guard CurrencyCodes.coinGeckoQuotes.contains(currency.text) else {
          throw ProviderError.invalidCurrency(provider: .provider(name), currency: currency.text)
        }
      },
      prices: { pairs in
        let ids = Array(Set(pairs.map(\.asset.id))).sorted()
        var currencies: [String] = []
        for pair in pairs where !currencies.contains(pair.quote.text) { currencies.append(pair.quote.text) }
        let prices = try await client.simplePrices(ids: ids, currencies: currencies)
        return try CoinGeckoPrices.quotes(pairs, from: prices, fetchedAt: now())
      },
      dailyCloses: { asset, currency, days in
        let currentTime = now()
        let today = Day(containing: currentTime)
        let samples = try await CoinGeckoCharts.samples(
          client: client, asset: asset, currency: currency, days: days, now: currentTime)
        if samples.isEmpty, days.upperBound < today {
          throw ProviderError.noData(
            provider: .provider(name),
            detail: "no \(asset.symbol) prices from \(days.lowerBound) to \(days.upperBound): "
              + "the coin may not have been trading yet")
        }
        // Only the asked days' closes (AnswerGate's rule): a wider answer's other days are dropped.
        var closes = DailyResampler.closes(
          of: samples, in: days.lowerBound...max(days.lowerBound, min(days.upperBound, today)))
        var latest: Quote?
        // The newest sample is "now" (sometimes stamped before the point
        // ahead of it, which sorting puts right). Unless it falls on a
        // midnight, its day is not over: it is that day's latest price, not
        // its close.
        if days.upperBound >= today, let last = samples.last,
          last.0 != Day(containing: last.0).start
        {
          let day = min(Day(containing: last.0), today)
          closes.removeAll { $0.date == day }
          latest = Quote(
            base: asset.symbol, quote: currency, rate: last.1, change24hPercent: nil,
            source: .provider(name), fetchedAt: currentTime, updatedAt: last.0)
        }
        return DailyCloses(closes: closes, latest: latest)
      })
  }

  /// The CoinDesk BPI format: Bitcoin only; `/currentprice/{CODE}.json` per
  /// currency (USD comes along with any), `/historical/close.json` for days.
  public static func coinDesk(client: CoinDeskClient, now: @escaping @Sendable () -> Date)
    -> PriceSource
  {
    let name = Provider.coinDesk
    return PriceSource(
      name: name, firstDay: AnswerGate.firstCoinDay,
      resolve: { input in
        let upper = CurrencyCode(input).text
        guard upper == "BTC" || upper == "XBT" || input.lowercased() == "bitcoin" else {
          throw ProviderError.notCovered(provider: .provider(name), what: input)
        }
        return Asset(symbol: "BTC", id: "BTC")
      },
      validateQuote: { currency in
        guard currency.text.count == 3, currency.text.allSatisfy({ $0.isASCII && $0.isLetter }) else {
          throw ProviderError.invalidCurrency(provider: .provider(name), currency: currency.text)
        }
      },
      prices: { pairs in
        // One request per currency; each answer also carries USD.
        var byCurrency: [CurrencyCode: (rate: Double, updatedAt: Date?)] = [:]
        for pair in pairs where byCurrency[pair.quote] == nil {
          let price = try await client.currentPrice(currency: pair.quote.text)
          let updated = try AnswerGate.updateTime(
            price.updatedAt, now: now(), provider: name, endpoint: "/currentprice/{CODE}.json",
            at: "time.updatedISO")
          byCurrency[pair.quote] = (price.rate, updated)
        }
        return pairs.compactMap { pair in
          byCurrency[pair.quote].map {
            Quote(
              base: pair.asset.symbol, quote: pair.quote, rate: $0.rate, change24hPercent: nil,
              source: .provider(name), fetchedAt: now(), updatedAt: $0.updatedAt)
          }
        }
      },
      dailyCloses: { asset, currency, days in
        let today = Day(containing: now())
        var closes: [RatePoint] = []
        let yesterday = today.adding(days: -1)
        let lastPast = min(days.upperBound, yesterday)
        if days.lowerBound <= lastPast {
          // Past both ends by AnswerGate's margin (not before the BPI's first day); the asked days kept.
          let asked = days.lowerBound...lastPast
          let request = AnswerGate.requested(asked, through: yesterday)
          closes = try await client.historicalCloses(
            currency: currency.text,
            start: max(request.lowerBound, min(CoinDeskClient.firstDay, asked.lowerBound)),
            end: request.upperBound
          ).filter { asked.contains($0.date) }
          if closes.isEmpty {
            throw ProviderError.noData(
              provider: .provider(name), detail: "no closes between \(days.lowerBound) and \(lastPast)")
          }
        }
        return DailyCloses(closes: closes.filter { $0.date < today }, latest: nil)
      })
  }
}

/// Which CoinGecko chart answers a span of days.
enum CoinGeckoCharts {
  /// The samples for `days` at `now`, through ``AnswerGate``'s rule: the
  /// request asks past the days' end by ``AnswerGate/marginDays`` (`days=N`
  /// one more than the span; a range's `to` the end of the day after), and
  /// only the samples that can be the asked days' closes or today's price
  /// are kept (``AnswerGate/instants(of:now:)``). Older or past-ending spans
  /// use the range endpoint; its `from` is the first day's start, never
  /// earlier (a day more could pass the free plans' 365 days, and the first
  /// day's close is at its end).
  static func samples(
    client: CoinGeckoClient, asset: Asset, currency: CurrencyCode, days: ClosedRange<Day>, now: Date
  ) async throws -> [(Date, Double)] {
    let today = Day(containing: now)
    let span = max(1, days.lowerBound.distance(to: today) + 1)
    do {
      guard days.upperBound >= today && span <= 365 else {
        let end = AnswerGate.requested(days, through: today).upperBound
        return try AnswerGate.series(
          try await client.marketChartRange(
            id: asset.id, currency: currency.text, from: days.lowerBound.start,
            to: min(end.end, now), reachingBack: span, asked: days),
          inside: AnswerGate.instants(of: days, now: now), asked: days,
          provider: Provider.coinGecko, endpoint: "/coins/{id}/market_chart/range")
      }
      return try AnswerGate.series(
        try await client.marketChart(
          id: asset.id, currency: currency.text, days: min(span + AnswerGate.marginDays, 365)),
        inside: AnswerGate.instants(of: days, now: now), asked: days,
        provider: Provider.coinGecko, endpoint: "/coins/{id}/market_chart")
    } catch let error as ProviderError {
      throw error.about(asset, typed: asset.symbol)
    }
  }
}

/// How a `/simple/price` answer becomes quotes.
enum CoinGeckoPrices {
  /// The quotes for `pairs` that the answer has, in their order.
  ///
  /// `/simple/price` drops ids it does not know, and sometimes ones it
  /// does: a coin known to exist (``CoinResolver/isVerified(_:)``) that is
  /// missing is left out, so the others are still shown, while an unchecked
  /// id that is missing is an unknown coin. An answer with none of the
  /// prices is no data (cached data may stand in).
  static func quotes(
    _ pairs: [AssetQuote], from prices: [String: [String: CoinGeckoClient.Price]], fetchedAt: Date
  ) throws -> [Quote] {
    let name = Provider.coinGecko
    var quotes: [Quote] = []
    for pair in pairs {
      guard let price = prices[pair.asset.id]?[pair.quote.text] else {
        if prices[pair.asset.id] == nil, !CoinResolver.isVerified(pair.asset) {
          throw ProviderError.coinNotFound(provider: .provider(name), coin: pair.asset.symbol)
        }
        // A currency CoinGecko prices in but sent no price for: no data now,
        // not the user's mistake.
        guard CurrencyCodes.coinGeckoQuotes.contains(pair.quote.text) else {
          throw ProviderError.invalidCurrency(provider: .provider(name), currency: pair.quote.text)
        }
        continue
      }
      let updated = try AnswerGate.updateTime(
        price.updatedAt, now: fetchedAt, provider: name, endpoint: "/simple/price",
        at: "\(pair.asset.id).last_updated_at")
      quotes.append(
        Quote(
          base: pair.asset.symbol, quote: pair.quote, rate: price.rate,
          change24hPercent: price.change24hPercent, source: .provider(name), fetchedAt: fetchedAt,
          updatedAt: updated))
    }
    if quotes.isEmpty, let first = pairs.first {
      var symbols: [String] = []
      for pair in pairs where !symbols.contains(pair.asset.symbol) { symbols.append(pair.asset.symbol) }
      let coins = NameList.capped(symbols)
      let detail =
        prices[first.asset.id] == nil
        ? "no current \(coins) \(symbols.count == 1 ? "price" : "prices") in the answer"
        : "no current \(first.asset.symbol) price in \(first.quote)"
      throw ProviderError.noData(provider: .provider(name), detail: detail)
    }
    return quotes
  }
}

/// Turns timestamped samples into one value per UTC day: the one rule for
/// a day's close, whatever the granularity of the answer it came in (daily
/// points at 00:00 UTC, jittered hourly ones, candles stamped at their end).
public enum DailyResampler {
  /// How long after a day's end a sample still reads as the price at that
  /// end: half an hour (CoinGecko's hourly stamps run minutes late, 00:02:19
  /// for the midnight reading); a later sample belongs to the next day.
  public static let closeReach: TimeInterval = 1800

  /// The close of each day in `days`: the price at its end (the next
  /// midnight), the sample nearest that instant among those after the day's
  /// first ``closeReach`` and no later than ``closeReach`` after its end (of
  /// two as near, the one before midnight). A daily series stamped at 00:00
  /// UTC thus gives day D the sample stamped D+1 00:00, the same moment as
  /// CoinDesk's close of D and a daily candle's close; hourly data gives the
  /// same midnight reading, or the hour nearest it. Days with no sample are
  /// absent.
  public static func closes(of samples: [(Date, Double)], in days: ClosedRange<Day>) -> [RatePoint] {
    closes(of: samples, matching: days.contains)
  }

  /// The close of each day in `days` from candles `(bucket start, close)`
  /// `width` seconds wide: a candle's close is the price at its end, so it
  /// is read there by the same rule (a daily candle closes the day it starts).
  public static func closes(
    ofCandles candles: [(Date, Double)], width: TimeInterval, in days: ClosedRange<Day>
  ) -> [RatePoint] {
    closes(of: candles.map { ($0.0.addingTimeInterval(width), $0.1) }, in: days)
  }

  /// The day whose close `instant` may be: the day ending within
  /// ``closeReach`` before it, else the day holding it whose end follows.
  public static func closingDay(of instant: Date) -> Day {
    let shifted = instant.addingTimeInterval(-closeReach)
    let day = Day(containing: shifted)
    return shifted == day.start ? day.adding(days: -1) : day
  }

  static func closes(of samples: [(Date, Double)], matching includes: (Day) -> Bool)
    -> [RatePoint]
  {
    var byDay: [Day: (distance: TimeInterval, value: Double)] = [:]
    for (instant, value) in samples {
      let day = closingDay(of: instant)
      guard includes(day) else { continue }
      // Before midnight ranks ahead of as far after it.
      let offset = instant.timeIntervalSince(day.end)
      let distance = offset > 0 ? offset + 0.000_001 : -offset
      if let existing = byDay[day], existing.distance <= distance { continue }
      byDay[day] = (distance, value)
    }
    return byDay.keys.sorted().compactMap { day in
      byDay[day].map { RatePoint(date: day, rate: $0.value) }
    }
  }
}

extension PriceSource {
  /// The names a figure this source gives may carry as its `source`: its chain's links, or
  /// its own name.
  public var answeringSources: [Provider] { members.isEmpty ? [name] : members }
}
