/// Prices for a portfolio in one ECB currency: ECB currencies from the ECB reference rates
/// (``RateDesk/rate(base:quote:on:)``: the day store, offline the built-in snapshot),
/// coins from the coin source's daily history, and a currency only the ledger prices (LBP) at
/// the ledger's street rate (``StreetRate``) against the ECB currency it is most exchanged with.
public struct PortfolioPricer: Sendable {
  /// How a code is priced, most direct first (the order of ``rank(_:)``).
  public enum Kind: Int, Sendable {
    case portfolioCurrency, ecb, street, coin
  }

  let desk: RateDesk
  /// The portfolio's currency, an ECB currency.
  public let currency: CurrencyCode
  let entries: [LedgerEntry]

  /// Creates a pricer for `entries` valued in `currency`.
  public init(desk: RateDesk, currency: CurrencyCode, entries: [LedgerEntry]) {
    self.desk = desk
    self.currency = currency
    self.entries = entries
  }

  /// How `code` is priced: a fiat code the ECB does not publish is a street currency, any
  /// other code a coin.
  public func kind(_ code: CurrencyCode) -> Kind {
    if code == currency { return .portfolioCurrency }
    if code.isECB { return .ecb }
    return CurrencyCodes.fiat.contains(code.text) ? .street : .coin
  }

  /// ``kind(_:)`` as a number for ``PortfolioReport/build(entries:asOf:currency:method:rank:price:)``.
  public func rank(_ code: CurrencyCode) -> Int { kind(code).rawValue }

  /// Prices found, and why a day has none (a street rate before any exchange, a coin's gap):
  /// only a price that is used fails the portfolio, so a missing day before is no error.
  public struct Prices: Sendable {
    var found: [CurrencyCode: [Day: Result<PortfolioPrice, PortfolioError>]] = [:]

    /// The price of `code` on `day`.
    /// - Throws: ``PortfolioError/noPrice(code:day:reason:)``.
    public func price(_ code: CurrencyCode, _ day: Day) throws -> PortfolioPrice {
      guard let result = found[code]?[day] else {
        throw PortfolioError.noPrice(code: code, day: day, reason: "it was not asked for")
      }
      return try result.get()
    }

    /// Every price found, without the days that have none.
    public var available: [CurrencyCode: [Day: PortfolioPrice]] {
      found.mapValues { byDay in byDay.compactMapValues { try? $0.get() } }
    }
  }

  /// The prices of every code on its days, fetching each code's whole span once so that
  /// the day store answers every day after it.
  public func prices(for needed: [CurrencyCode: Set<Day>]) async throws -> Prices {
    var found: [CurrencyCode: [Day: Result<PortfolioPrice, PortfolioError>]] = [:]
    var street: [CurrencyCode: Set<Day>] = [:]
    for (code, days) in needed.sorted(by: { $0.key < $1.key }) where kind(code) == .street {
      let partner = try self.partner(of: code)
      street[code] = days
      found[partner, default: [:]].merge(
        try await fetch(partner, days: days.union(needed[partner] ?? [])), uniquingKeysWith: { $1 })
    }
    for (code, days) in needed.sorted(by: { $0.key < $1.key }) where kind(code) != .street {
      found[code, default: [:]].merge(try await fetch(code, days: days), uniquingKeysWith: { $1 })
    }
    for (code, days) in street {
      let partner = try self.partner(of: code)
      let exchangeDays = StreetRate.exchangeDays(
        base: partner, quote: code, entries: entries)
      var rates: [Day: LedgerRate] = [:]
      for day in days.sorted() {
        found[code, default: [:]][day] = Result { () throws(PortfolioError) in
          try streetPrice(
            code, partner: partner, day: day, exchangeDays: exchangeDays, rates: &rates,
            partnerPrice: found[partner]?[day])
        }
      }
    }
    return Prices(found: found)
  }

  private func fetch(_ code: CurrencyCode, days: Set<Day>) async throws
    -> [Day: Result<PortfolioPrice, PortfolioError>]
  {
    guard let first = days.min(), let last = days.max() else { return [:] }
    switch kind(code) {
    case .portfolioCurrency:
      return Dictionary(
        uniqueKeysWithValues: days.map { ($0, .success(PortfolioPrice(rate: 1, source: nil, date: $0))) })
    case .ecb:
      let result = try await desk.history(
        base: code.text, quote: currency.text, window: first.adding(days: -7)...last)
      var prices = Self.ecbPrices(result, days: days)
      for day in days where prices[day] == nil {
        let dated = try await desk.rate(base: code.text, quote: currency.text, on: day)
        prices[day] = .success(
          PortfolioPrice(
            rate: dated.point.rate, source: dated.source, date: dated.published,
            stale: dated.staleness != nil))
      }
      return prices
    case .coin:
      let result = try await desk.history(base: code.text, quote: currency.text, window: first...last)
      var byDay: [Day: Double] = [:]
      for point in result.series.points where !point.carried { byDay[point.date] = point.rate }
      var prices: [Day: Result<PortfolioPrice, PortfolioError>] = [:]
      let source = result.series.source
      for day in days {
        prices[day] =
          byDay[day].map {
            .success(
              PortfolioPrice(
                rate: $0, source: result.series.source(on: day), date: day, stale: result.staleness != nil))
          }
          ?? .failure(
            .noPrice(
              code: code, day: day,
              reason: "\(source.displayName) has no \(code)/\(currency) price that day"))
      }
      return prices
    case .street:
      return [:]
    }
  }

  /// The days of `days` the ECB series answers: the series' point of the day (a closure
  /// repeats the working day's rate, ``MarketClosure``), dated by the working day it belongs to
  /// (as `history --date` dates it). Days the series lacks are left out.
  static func ecbPrices(_ result: RateService.HistoryResult, days: Set<Day>)
    -> [Day: Result<PortfolioPrice, PortfolioError>]
  {
    var prices: [Day: Result<PortfolioPrice, PortfolioError>] = [:]
    var own: Day?
    for point in result.series.points {
      if !point.carried { own = point.date }
      guard days.contains(point.date), let own else { continue }
      prices[point.date] = .success(
        PortfolioPrice(
          rate: point.rate, source: result.series.source(on: own), date: own,
          stale: result.staleness != nil))
    }
    return prices
  }

  /// The ECB currency `code` is most exchanged with in the ledger (USD on a tie).
  func partner(of code: CurrencyCode) throws -> CurrencyCode {
    var counts: [CurrencyCode: Int] = [:]
    for entry in entries where entry.transfer == nil {
      let other = entry.currency == code ? entry.counterCurrency : entry.counterCurrency == code ? entry.currency : nil
      if let other, kind(other) == .ecb || kind(other) == .portfolioCurrency { counts[other, default: 0] += 1 }
    }
    guard let best = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key else {
      throw PortfolioError.unpriced(
        code: code,
        reason: "no source prices it and the ledger has no exchange of it against an ECB currency")
    }
    return best
  }

  /// The street rate of `code` on `day` (``StreetRate``: the ledger's rate over the days
  /// ending on the last day, on or before `day`, with an exchange of `code` against `partner`,
  /// of the sorted `exchangeDays`), dated that day; `rates` keeps each last day's rate.
  private func streetPrice(
    _ code: CurrencyCode, partner: CurrencyCode, day: Day, exchangeDays: [Day], rates: inout [Day: LedgerRate],
    partnerPrice: Result<PortfolioPrice, PortfolioError>?
  ) throws(PortfolioError) -> PortfolioPrice {
    guard let last = StreetRate.lastExchangeDay(in: exchangeDays, onOrBefore: day) else {
      throw PortfolioError.noPrice(
        code: code, day: day, reason: "the ledger has no \(partner)-\(code) exchange on or before it")
    }
    if rates[last] == nil {
      rates[last] = try? StreetRate.rate(
        base: partner, quote: code, endingOn: last, entries: entries)
    }
    guard let street = rates[last] else {
      throw PortfolioError.noPrice(code: code, day: day, reason: "no street rate on \(last)")
    }
    guard let partnerPrice = try partnerPrice?.get() else {
      throw PortfolioError.noPrice(code: code, day: day, reason: "no \(partner) price that day")
    }
    return PortfolioPrice(
      rate: partnerPrice.rate / street.midpoint, source: .ledger, date: last,
      detail: "street rate \(partner)-\(code) over the \(StreetRate.days) days to \(last)",
      stale: partnerPrice.stale)
  }
}

extension Array {
  /// The index of the first element for which `belongsToSecondPart` holds, in an array
  /// partitioned by it (binary search).
  func partitioningIndex(where belongsToSecondPart: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if belongsToSecondPart(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
