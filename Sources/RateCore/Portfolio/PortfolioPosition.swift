/// A part of one acquisition: how much of it, what that part cost in the portfolio's currency,
/// and the day it was acquired.
public struct PortfolioLot: Sendable, Equatable {
  /// How much of the currency or coin.
  public var quantity: Double
  /// What it cost, in the portfolio's currency.
  public var cost: Double
  /// The day it was acquired (for a lot carried through a transfer, the first acquisition's).
  public var acquired: Day

  /// Creates a lot.
  public init(quantity: Double, cost: Double, acquired: Day) {
    self.quantity = quantity
    self.cost = cost
    self.acquired = acquired
  }
}

/// What the walk over the ledger found for one currency or coin: its lots, oldest first, and
/// the totals.
struct PortfolioPosition {
  /// What was acquired and not yet disposed of, oldest first; the lots before `head` are gone.
  var lots: [PortfolioLot] = []
  var head = 0
  var quantity = 0.0
  var cost = 0.0
  var realized = 0.0
  /// How much was paid from outside the ledger: payments beyond the holding.
  var putIn = 0.0

  mutating func add(_ quantity: Double, cost: Double, on day: Day) {
    add([PortfolioLot(quantity: quantity, cost: cost, acquired: day)])
  }

  /// Adds `new` lots, each in the order of the days acquired (a lot a transfer brings back
  /// goes before the lots acquired after it), after the lots of its own day.
  mutating func add(_ new: [PortfolioLot]) {
    for lot in new {
      var index = lots.endIndex
      while index > head, lots[index - 1].acquired > lot.acquired { index -= 1 }
      lots.insert(lot, at: index)
      quantity += lot.quantity
      cost += lot.cost
    }
  }

  /// Takes `quantity` (at most what is held) and returns the parts of the lots it took, whose
  /// costs add up to the cost `method` removes: FIFO and HIFO the lots' own costs, average
  /// cost the position's cost per unit (its lots, for their days, taken oldest first).
  mutating func take(_ quantity: Double, method: PortfolioMethod) -> [PortfolioLot] {
    guard self.quantity > 0, quantity > 0 else { return [] }
    let share = Swift.min(1, quantity / self.quantity)
    var parts = method == .hifo ? takeCostliestFirst(quantity) : takeOldestFirst(quantity)
    var removed = parts.reduce(0) { $0 + $1.cost }
    if method == .average {
      removed = cost * share
      let taken = parts.reduce(0) { $0 + $1.quantity }
      parts = parts.map {
        PortfolioLot(quantity: $0.quantity, cost: taken > 0 ? removed * $0.quantity / taken : 0, acquired: $0.acquired)
      }
    }
    self.quantity = share == 1 ? 0 : self.quantity - quantity
    cost = share == 1 ? 0 : Swift.max(0, cost - removed)
    if share == 1 { head = lots.count }
    return parts
  }

  private mutating func takeOldestFirst(_ quantity: Double) -> [PortfolioLot] {
    var parts: [PortfolioLot] = []
    var left = quantity
    while left > 0, head < lots.count {
      parts.append(takePart(of: head, upTo: &left))
      if lots[head].quantity == 0 { head += 1 }
    }
    return parts
  }

  /// HIFO: the lots with the highest cost per unit first, the older on a tie.
  private mutating func takeCostliestFirst(_ quantity: Double) -> [PortfolioLot] {
    let unitCosts = lots[head...].map { $0.quantity > 0 ? $0.cost / $0.quantity : -1 }
    let order = unitCosts.indices.filter { unitCosts[$0] >= 0 }
      .sorted { (unitCosts[$0], $1) > (unitCosts[$1], $0) }.map { $0 + head }
    var parts: [PortfolioLot] = []
    var left = quantity
    for index in order where left > 0 { parts.append(takePart(of: index, upTo: &left)) }
    while head < self.lots.count, self.lots[head].quantity == 0 { head += 1 }
    return parts
  }

  /// Takes up to `left` of lot `index` (all of it within a relative 1e-12), lowering `left`.
  private mutating func takePart(of index: Int, upTo left: inout Double) -> PortfolioLot {
    let lot = lots[index]
    if lot.quantity <= left * (1 + 1e-12) {
      left -= lot.quantity
      lots[index] = PortfolioLot(quantity: 0, cost: 0, acquired: lot.acquired)
      return lot
    }
    let part = left / lot.quantity
    lots[index] = PortfolioLot(quantity: lot.quantity - left, cost: lot.cost * (1 - part), acquired: lot.acquired)
    defer { left = 0 }
    return PortfolioLot(quantity: left, cost: lot.cost * part, acquired: lot.acquired)
  }
}
