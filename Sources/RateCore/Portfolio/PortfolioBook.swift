/// How a disposal takes its cost from what was acquired before it.
public enum PortfolioMethod: String, Sendable, CaseIterable {
  /// First in, first out: the oldest lots go first.
  case fifo
  /// Average cost: every unit costs the position's cost over its quantity.
  case average
}

/// The price of one unit of a currency or coin in the portfolio's currency, and where it came
/// from.
public struct PortfolioPrice: Sendable, Equatable {
  /// Units of the portfolio's currency per unit.
  public var rate: Double
  /// Who gave it: `frankfurter`, `coingecko`, the ECB snapshot, or `ledger` (a street rate).
  public var source: String
  /// The day the rate belongs to (an ECB rate: the working day on or before the day asked).
  public var date: Day
  /// How it was obtained, when it needs saying (`street rate USD-LBP, 3 days to 2026-11-20`).
  public var detail: String?
  /// Set when the price came from the cache or the built-in snapshot after a failed fetch
  /// (or offline).
  public var stale: Bool

  /// Creates a price.
  public init(rate: Double, source: String, date: Day, detail: String? = nil, stale: Bool = false) {
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
  case overdrawn(id: Int, code: String, amount: Double, held: Double, day: Day)
  /// No source prices `code` (not an ECB currency, not a coin, no street rate in the ledger).
  case unpriced(code: String, reason: String)
  /// `code` has no price on `day` (a date before any rate, a gap in the data).
  case noPrice(code: String, day: Day, reason: String)
}

/// What the walk over the ledger found for one currency or coin.
struct PortfolioPosition {
  /// What was acquired and not yet disposed of, oldest first (FIFO), from `head`.
  var lots: [(quantity: Double, cost: Double)] = []
  var head = 0
  var quantity = 0.0
  var cost = 0.0
  var realized = 0.0
  /// How much was paid from outside the ledger: payments beyond the holding.
  var putIn = 0.0

  mutating func add(_ quantity: Double, cost: Double) {
    lots.append((quantity, cost))
    self.quantity += quantity
    self.cost += cost
  }

  /// Takes `quantity` (at most what is held) and returns its cost by `method`.
  mutating func take(_ quantity: Double, method: PortfolioMethod) -> Double {
    guard self.quantity > 0, quantity > 0 else { return 0 }
    let share = Swift.min(1, quantity / self.quantity)
    var removed = 0.0
    switch method {
    case .average:
      // Only the totals count here; the lots are FIFO's.
      removed = cost * share
    case .fifo:
      var left = quantity
      while left > 0, head < lots.count {
        let lot = lots[head]
        if lot.quantity <= left * (1 + 1e-12) {
          removed += lot.cost
          left -= lot.quantity
          head += 1
        } else {
          let part = left / lot.quantity
          removed += lot.cost * part
          lots[head] = (lot.quantity - left, lot.cost * (1 - part))
          left = 0
        }
      }
    }
    self.quantity = share == 1 ? 0 : self.quantity - quantity
    cost = share == 1 ? 0 : Swift.max(0, cost - removed)
    if share == 1 { head = lots.count }
    return removed
  }
}

/// The walk over the ledger, oldest first: every exchange disposes of what was paid and
/// acquires what was received, at one value in the portfolio's currency on its own day.
///
/// - **Value of an exchange**: the paid or received amount whose price is the most direct
///   (the portfolio's currency itself, then an ECB currency, then a street rate, then a coin;
///   the paid side on a tie), at that day's price. It is the received side's cost and the paid
///   side's proceeds, so a fee recorded inside the amounts lands in the cost and proceeds.
/// - **Paying more than is held** is money put in: the part beyond the holding comes from
///   outside at that day's value (no gain), and is counted in ``PortfolioReport/moneyIn``.
/// - **A deposit** costs its given cost at that day's price of the cost's currency, else its
///   market value that day; it is money put in. **A withdrawal** takes its lots out at their
///   cost (nothing was sold, so no gain) and is money taken out at its market value that day.
/// - **Same-day entries** are taken in the order recorded (by id).
struct PortfolioWalk {
  let method: PortfolioMethod
  let rank: (String) -> Int
  let price: (String, Day) throws -> PortfolioPrice
  var positions: [String: PortfolioPosition] = [:]
  var moneyIn = 0.0
  var moneyOut = 0.0
  /// Per exchange id, how much of the paid currency came from outside the ledger.
  var putIns: [Int: Double] = [:]

  mutating func apply(_ entry: LedgerEntry) throws {
    switch entry.transfer {
    case .deposit?:
      let value: Double
      if let cost = entry.cost {
        value = cost.amount * (try price(cost.currency, entry.date).rate)
      } else {
        value = entry.amount * (try price(entry.currency, entry.date).rate)
      }
      positions[entry.currency, default: .init()].add(entry.amount, cost: value)
      moneyIn += value
    case .withdrawal?:
      let held = positions[entry.currency]?.quantity ?? 0
      guard entry.amount <= held * (1 + 1e-9) + 1e-12 else {
        throw PortfolioError.overdrawn(
          id: entry.id, code: entry.currency, amount: entry.amount, held: held, day: entry.date)
      }
      moneyOut += entry.amount * (try price(entry.currency, entry.date).rate)
      _ = positions[entry.currency, default: .init()].take(entry.amount, method: method)
    case nil:
      try exchange(entry)
    }
  }

  private mutating func exchange(_ entry: LedgerEntry) throws {
    let selling = entry.side == .sell
    let paid = selling ? (entry.currency, entry.amount) : (entry.counterCurrency, entry.counterAmount)
    let got = selling ? (entry.counterCurrency, entry.counterAmount) : (entry.currency, entry.amount)
    let byPaid = rank(paid.0) <= rank(got.0)
    let priced = byPaid ? paid : got
    let value = priced.1 * (try price(priced.0, entry.date).rate)
    var position = positions[paid.0, default: .init()]
    let held = Swift.min(position.quantity, paid.1)
    let shortfall = paid.1 - held
    if shortfall > paid.1 * 1e-9 {
      putIns[entry.id] = shortfall
      position.putIn += shortfall
      moneyIn += value * shortfall / paid.1
    }
    let cost = position.take(held, method: method)
    position.realized += value * held / paid.1 - cost
    positions[paid.0] = position
    positions[got.0, default: .init()].add(got.1, cost: value)
  }
}
