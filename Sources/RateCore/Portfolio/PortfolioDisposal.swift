/// One disposal the walk over the ledger found: a currency or coin paid in an exchange, or
/// paying a fee, valued in the portfolio's currency on its day.
public struct PortfolioDisposal: Sendable, Equatable {
  /// What disposed of it.
  public enum Kind: String, Sendable {
    /// The paid side of an exchange (a sale, a purchase paid in it, a conversion).
    case trade
    /// A fee paid in it.
    case fee
  }

  /// The ledger entry that disposed of it (the exchange, or the fee leg).
  public var entryID: Int
  /// The day of the disposal.
  public var date: Day
  /// Its code.
  public var code: CurrencyCode
  /// How much was disposed of (only what was held: any more was put in from outside).
  public var quantity: Double
  /// What it was disposed of for, less `fee`.
  public var proceeds: Double
  /// The exchange's fees taken from the proceeds.
  public var fee: Double
  /// What the quantity cost: the sum of `lots`' costs.
  public var cost: Double
  /// The acquisitions it was matched to, as the method took them.
  public var lots: [PortfolioLot]
  /// What disposed of it.
  public var kind: Kind
}

/// Income received (a reward, staking, interest), acquired at its value on receipt.
public struct PortfolioIncome: Sendable, Equatable {
  /// The ledger entry (an imported deposit marked income).
  public var entryID: Int
  /// The day it was received.
  public var date: Day
  /// Its code.
  public var code: CurrencyCode
  /// How much.
  public var quantity: Double
  /// Its value on receipt, in the portfolio's currency.
  public var value: Double
}

/// How long a disposed-of lot was held.
public enum HoldingPeriod: String, Sendable, CaseIterable {
  /// At most one year.
  case short
  /// More than one year: disposed of after the acquisition day's anniversary.
  case long

  /// The period of a lot acquired on `acquired` and disposed of on `disposed`: long when
  /// `disposed` is after the day one year after `acquired` (29 February's anniversary is
  /// 28 February, or 29 February in a leap year).
  public init(acquired: Day, disposed: Day) {
    let (year, month, day) = Day.civil(fromDays: acquired.daysSinceEpoch)
    let anniversary = Day.daysFromCivil(
      year: year + 1, month: month, day: Swift.min(day, Day.length(ofMonth: month, year: year + 1)))
    self = disposed.daysSinceEpoch > anniversary ? .long : .short
  }
}
