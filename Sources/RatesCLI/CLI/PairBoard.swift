import Foundation
import RateCore

/// Current rate, change and a 7-day sparkline for each configured pair, in
/// as few requests as possible: one Frankfurter time series for every fiat
/// pair, one CoinGecko `/coins/markets` (with sparklines) per quote
/// currency for the coin pairs, fetched concurrently.
enum PairBoard {
  typealias Row = PairsCommand.Row

  static func rows(for pairs: [ConfiguredPair], invocation: Invocation) async throws
    -> [(Row, Staleness?)]
  {
    let forced = invocation.settings.forcedProvider
    let routes = try pairs.map { try PairRouter.route(base: $0.base, quote: $0.quote, forced: forced) }
    let fiat = zip(pairs, routes).filter { $0.1.provider == Providers.frankfurter }
    let coins = zip(pairs, routes).filter { $0.1.provider == Providers.coinGecko }
    let others = zip(pairs, routes).filter {
      $0.1.provider != Providers.frankfurter && $0.1.provider != Providers.coinGecko
    }
    async let fiatRows = fiatRows(Array(fiat), invocation: invocation)
    async let coinRows = coinRows(Array(coins), invocation: invocation)
    var byName: [String: (Row, Staleness?)] = [:]
    for row in try await fiatRows + coinRows { byName["\(row.0.base)-\(row.0.quote)"] = row }
    for (pair, _) in others {
      // CoinDesk (forced): its own history gives a week of closes.
      let result = try await invocation.makeService(provider: Providers.coinDesk)
        .history(of: pair.base, in: pair.quote, days: 7)
      let values = result.series.points.map(\.rate)
      let change = values.count >= 2 && values[values.count - 2] != 0
        ? (values[values.count - 1] / values[values.count - 2] - 1) * 100 : nil
      byName[pair.name] = (row(pair, points: values, period: "1d",
        source: result.series.source, fetchedAt: result.series.fetchedAt, staleness: result.staleness,
        change: change), result.staleness)
    }
    return pairs.compactMap { byName[$0.name] }
  }

  /// A row; `change` is the provider's own change over `period` (nil when unknown).
  static func row(
    _ pair: ConfiguredPair, points: [Double], period: String, source: String, fetchedAt: Date,
    staleness: Staleness?, change: Double?
  ) -> Row {
    Row(
      base: pair.base, quote: pair.quote, rate: points.last, changePercent: change, changePeriod: period,
      sparkline: points, source: source, fetchedAt: fetchedAt, stale: staleness != nil,
      addedAt: pair.addedAt)
  }

  /// All fiat pairs from one time series of the last 10 days (enough to
  /// cover 7 calendar days and the working day before them).
  static func fiatRows(_ pairs: [(ConfiguredPair, PairRoute)], invocation: Invocation) async throws
    -> [(Row, Staleness?)]
  {
    guard !pairs.isEmpty else { return [] }
    let client = invocation.makeFrankfurterClient()
    let today = Day(containing: invocation.context.now())
    let keys = pairs.map { CurrencyPairKey(base: $0.1.base, quote: $0.1.quote) }
    let fetcher = CachedFetch(
      cache: invocation.cache, mode: invocation.options.cacheMode, now: invocation.context.now,
      warn: { [context = invocation.context] in context.writeErr($0 + "\n") })
    let name = keys.map(\.description).sorted().joined(separator: ",")
    let answer = try await fetcher.value(
      key: "frankfurter/week/\(MarketService.keyPart(name))", source: Providers.frankfurter,
      freshness: CacheFreshness.referenceRate, what: "your fiat pairs"
    ) { try await client.timeSeries(pairs: keys, start: today.adding(days: -10), end: today) }
    return zip(pairs, keys).map { pair, key in
      let series = answer.value[key] ?? []
      let byDay = Dictionary(series.map { ($0.date, $0) }, uniquingKeysWith: { $1 })
      let week = RateService.fill(byDay, in: today.adding(days: -6)...today, carryThrough: today)
      // The change is from the previous working day's rate, not a carried copy.
      let working = series.map(\.rate)
      let change = working.count >= 2
        ? (working[working.count - 1] - working[working.count - 2]) / working[working.count - 2] * 100 : nil
      return (
        row(pair.0, points: week.map(\.rate), period: "1d", source: Providers.frankfurter,
          fetchedAt: answer.fetchedAt, staleness: answer.staleness, change: change),
        answer.staleness
      )
    }
  }

  /// Coin pairs: one `/coins/markets?ids=…&sparkline=true` per quote currency.
  static func coinRows(_ pairs: [(ConfiguredPair, PairRoute)], invocation: Invocation) async throws
    -> [(Row, Staleness?)]
  {
    guard !pairs.isEmpty else { return [] }
    let resolver = invocation.makeResolver()
    var assets: [String: Asset] = [:]
    for (_, route) in pairs where assets[route.base] == nil {
      assets[route.base] = try await resolver.resolve(route.base)
    }
    let byCurrency = Dictionary(grouping: pairs, by: { $0.1.quote })
    let service = invocation.makeMarketService()
    let resolved = assets
    let answers = try await withThrowingTaskGroup(of: (String, MarketService.Answer<[CoinMarket]>).self) { group in
      for (currency, members) in byCurrency {
        let ids = members.compactMap { resolved[$0.1.base]?.id }
        group.addTask { (currency, try await service.markets(currency: currency, ids: ids, sparkline: true)) }
      }
      var results: [String: MarketService.Answer<[CoinMarket]>] = [:]
      for try await (currency, answer) in group { results[currency] = answer }
      return results
    }
    return pairs.compactMap { pair, route in
      guard let answer = answers[route.quote], let asset = assets[route.base] else { return nil }
      let market = answer.value.first { $0.id == asset.id }
      // A week of hourly prices, one point per 6 hours: 28 columns.
      let hourly = market?.sparkline7d ?? []
      var points = stride(from: 0, to: hourly.count, by: 6).map { hourly[$0] }
      if let price = market?.currentPrice { points.append(price) }
      var change = market?.priceChangePercentage24h
      if route.inverted {
        points = points.compactMap { $0 == 0 ? nil : 1 / $0 }
        change = change.flatMap { c in 1 + c / 100 == 0 ? nil : (1 / (1 + c / 100) - 1) * 100 }
      }
      return (
        row(pair, points: points, period: "24h", source: Providers.coinGecko, fetchedAt: answer.fetchedAt,
          staleness: answer.staleness, change: change),
        answer.staleness
      )
    }
  }
}
