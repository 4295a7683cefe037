/// A rate with its provenance: the provider it came from, the day it is of, when it was
/// fetched, and why it is stale when it came from an old cache.
public struct SourcedRate: Sendable, Equatable {
  /// How many units of the quote one unit of the base is worth.
  public var rate: Double
  /// Where it came from.
  public var source: RateSource
  /// The day the rate is of.
  public var day: Day
  /// When it was fetched.
  public var fetchedAt: Date
  /// Why it is stale, when it is.
  public var staleness: Staleness?

  /// A rate with its provenance.
  public init(rate: Double, source: RateSource, day: Day, fetchedAt: Date, staleness: Staleness?) {
    self.rate = rate
    self.source = source
    self.day = day
    self.fetchedAt = fetchedAt
    self.staleness = staleness
  }
}

/// The cross rate: coin to coin where no provider quotes the one in the other, through both
/// coins' USD prices. The one home of that rule, for today's rates and a past day's alike.
public enum CrossRate {
  /// The currency both legs are priced in.
  public static let via = "USD"

  /// Whether `base` in `quote` is a cross rate: two coins, the quote not one of CoinGecko's
  /// quote currencies.
  public static func isNeeded(base: String, quote: String) -> Bool {
    !CurrencyCode(base).isFiat && !CurrencyCode(quote).isFiat
      && !CurrencyCodes.coinGeckoQuotes.contains(quote)
  }

  /// The legs to fetch for `base` in `quote`: both coins in USD for a cross rate, else the
  /// pair itself.
  public static func legs(base: String, quote: String) -> [(base: String, quote: String)] {
    isNeeded(base: base, quote: quote) ? [(base, via), (quote, via)] : [(base, quote)]
  }

  /// `base`/`quote` from `base`/USD and `quote`/USD: their ratio, dated by the older leg, stale
  /// when either is, from the base's source; nil when the quote's USD price is 0.
  public static func combine(_ base: SourcedRate, _ quote: SourcedRate) -> SourcedRate? {
    guard quote.rate != 0 else { return nil }
    return SourcedRate(
      rate: base.rate / quote.rate, source: base.source, day: min(base.day, quote.day),
      fetchedAt: min(base.fetchedAt, quote.fetchedAt),
      staleness: base.staleness ?? quote.staleness)
  }

  /// `base` in `quote` from `fetch`, which gives one leg's rate: the pair itself, or its two
  /// USD legs combined (nil when the quote's USD price is 0 or a leg is missing).
  public static func rate(
    base: String, quote: String, _ fetch: (String, String) async throws -> SourcedRate?
  ) async rethrows -> SourcedRate? {
    guard isNeeded(base: base, quote: quote) else { return try await fetch(base, quote) }
    guard let baseLeg = try await fetch(base, via), let quoteLeg = try await fetch(quote, via)
    else { return nil }
    return combine(baseLeg, quoteLeg)
  }
}

extension Day {
  /// Why a day asked for as `name` (`--date`, `--from`) cannot be used: it is after `today`
  /// (UTC), and no rate exists yet. Nil for today or an earlier day. The one rule for every
  /// command that takes a day.
  public func futureProblem(name: String, today: Day) -> String? {
    self > today ? "\(name) \(self) is in the future: use \(today) or an earlier day" : nil
  }
}
