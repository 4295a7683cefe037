/// How a disposal takes its cost from what was acquired before it.
public enum PortfolioMethod: String, Sendable, CaseIterable {
  /// First in, first out: the oldest lots go first.
  case fifo
  /// Average cost: every unit costs the position's cost over its quantity (the lots it
  /// takes, for their days, are still the oldest).
  case average
  /// Highest in, first out: the lots that cost most per unit go first (the older on a tie).
  case hifo
}

/// The price of one unit of a currency or coin in the portfolio's currency, and where it came
/// from.
public struct PortfolioPrice: Sendable, Equatable {
  /// Units of the portfolio's currency per unit.
  public var rate: Double
  /// Who gave it: Frankfurter, CoinGecko, the ECB snapshot, or the ledger (a street rate);
  /// nil for the portfolio's own currency, worth 1 without a source (written as `""`).
  public var source: RateSource?
  /// The day the rate belongs to (an ECB rate: the working day on or before the day asked).
  public var date: Day
  /// How it was obtained, when it needs saying (`street rate USD-LBP, 3 days to 2026-11-20`).
  public var detail: String?
  /// Set when the price came from the cache or the built-in snapshot after a failed fetch
  /// (or offline).
  public var stale: Bool

  /// Creates a price.
  public init(rate: Double, source: RateSource?, date: Day, detail: String? = nil, stale: Bool = false) {
    self.rate = rate
    self.source = source
    self.date = date
    self.detail = detail
    self.stale = stale
  }
}

/// Why a portfolio cannot be computed.
public enum PortfolioError: Error, Equatable, Sendable {
  /// A withdrawal takes more than was held (a hand-edited ledger; `ledger add` refuses it).
  case overdrawn(id: Int, code: CurrencyCode, amount: Double, held: Double, day: Day)
  /// No source prices `code` (not an ECB currency, not a coin, no street rate in the ledger).
  case unpriced(code: CurrencyCode, reason: String)
  /// `code` has no price on `day` (a date before any rate, a gap in the data).
  case noPrice(code: CurrencyCode, day: Day, reason: String)
}
