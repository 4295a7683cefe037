/// The walk over the ledger, oldest first: every exchange disposes of what was paid and
/// acquires what was received, at one value in the portfolio's currency on its own day. The
/// one set of rules behind `portfolio`, `portfolio history`, `portfolio gains` and the journals.
///
/// - **Value of an exchange**: the paid or received amount whose price is the most direct
///   (the portfolio's currency itself, then an ECB currency, then a street rate, then a coin;
///   the paid side on a tie), at that day's price. It is the received side's cost and the paid
///   side's proceeds, so a fee recorded inside the amounts lands in the cost and proceeds.
/// - **A fee leg** (an imported withdrawal marked fee, `<id>#fee`) belongs to the exchange
///   with import id `<id>`: its value that day is added to the cost of what was received when
///   the exchange paid the portfolio's currency (a purchase), and taken from the proceeds of
///   what was paid otherwise (a sale, a conversion). Paying the fee disposes of the fee's
///   currency at that value (no gain when it is the portfolio's currency). A fee without its
///   exchange in the ledger is such a disposal alone.
/// - **Paying more than is held** is money put in: the part beyond the holding comes from
///   outside at that day's value (no gain), and is counted in ``PortfolioReport/moneyIn``; so
///   is an imported withdrawal of more than is held (a typed-in one is refused).
/// - **A deposit** costs its given cost at that day's price of the cost's currency; without
///   one it first takes back what withdrawals of the same code took out (a transfer between
///   your own accounts: the lots keep their cost and days), and the rest costs its market
///   value that day; it is money put in. **Income** (a reward, staking) is acquired at its
///   market value on receipt and listed apart. **A withdrawal** takes its lots out at their
///   cost (nothing was sold, so no gain) and is money taken out at its market value that day.
/// - **Same-day entries** are taken in the order recorded (by id).
struct PortfolioWalk {
  let method: PortfolioMethod
  /// The portfolio's currency ("" when prices are placeholders).
  let currency: CurrencyCode
  let rank: (CurrencyCode) -> Int
  let price: (CurrencyCode, Day) throws -> PortfolioPrice
  /// The fee legs of each imported entry, by its import id.
  let fees: [String: [LedgerEntry]]
  /// The ids of the fee legs paid.
  var paidFees: Set<Int> = []
  var positions: [CurrencyCode: PortfolioPosition] = [:]
  /// What withdrawals took out, per code, for a later deposit of it to take back.
  var inTransit: [CurrencyCode: PortfolioPosition] = [:]
  var moneyIn = 0.0
  var moneyOut = 0.0
  /// Per entry id, how much of the paid currency came from outside the ledger.
  var putIns: [Int: Double] = [:]
  /// Every disposal, in the order of the walk.
  var disposals: [PortfolioDisposal] = []
  /// Every income received, in the order of the walk.
  var income: [PortfolioIncome] = []

  /// What a walk found, without the price closures it borrowed.
  struct Outcome {
    var positions: [CurrencyCode: PortfolioPosition]
    var moneyIn: Double
    var moneyOut: Double
    var putIns: [Int: Double]
    var disposals: [PortfolioDisposal]
    var income: [PortfolioIncome]
  }

  var outcome: Outcome {
    Outcome(
      positions: positions, moneyIn: moneyIn, moneyOut: moneyOut, putIns: putIns, disposals: disposals,
      income: income)
  }

  init(
    method: PortfolioMethod, currency: CurrencyCode, entries: [LedgerEntry], rank: @escaping (CurrencyCode) -> Int,
    price: @escaping (CurrencyCode, Day) throws -> PortfolioPrice
  ) {
    self.method = method
    self.currency = currency
    self.rank = rank
    self.price = price
    fees = Self.fees(of: entries)
  }

  /// The fee legs (`<id>#fee`, `<id>#fee2`) of `entries`, by the import id `<id>` of what
  /// they are the fee of.
  static func fees(of entries: [LedgerEntry]) -> [String: [LedgerEntry]] {
    var fees: [String: [LedgerEntry]] = [:]
    for entry in entries where entry.role == .fee {
      if let owner = entry.feeOwner { fees[owner, default: []].append(entry) }
    }
    return fees
  }

  mutating func apply(_ entry: LedgerEntry) throws {
    switch entry.transfer {
    case .deposit?:
      try deposit(entry)
    case .withdrawal? where entry.role == .fee:
      // Paid with its exchange already (the ledger numbers a fee leg after it), or alone.
      if !paidFees.contains(entry.id) { try payFee(entry) }
    case .withdrawal?:
      try withdraw(entry)
    case nil:
      try exchange(entry)
    }
  }

  /// A withdrawal: its lots leave at cost, to be taken back by a later deposit. One typed in
  /// may not take more than is held; an imported one (its deposit in a file not imported) takes
  /// the rest from outside, as a payment beyond the holding does.
  private mutating func withdraw(_ entry: LedgerEntry) throws {
    var position = positions.removeValue(forKey: entry.currency) ?? .init()
    defer { positions[entry.currency] = position }
    let held = position.quantity
    let value = entry.amount * (try price(entry.currency, entry.date).rate)
    if entry.amount > held * (1 + 1e-9) + 1e-12 {
      guard entry.importID != nil else {
        throw PortfolioError.overdrawn(
          id: entry.id, code: entry.currency, amount: entry.amount, held: held, day: entry.date)
      }
      let shortfall = entry.amount - held
      putIns[entry.id] = shortfall
      position.putIn += shortfall
      moneyIn += value * shortfall / entry.amount
    }
    moneyOut += value
    inTransit[entry.currency, default: .init()].add(position.take(Swift.min(entry.amount, held), method: method))
  }

  private mutating func deposit(_ entry: LedgerEntry) throws {
    let code = entry.currency
    let value: Double
    if let cost = entry.cost {
      value = cost.amount * (try price(cost.currency, entry.date).rate)
    } else {
      value = entry.amount * (try price(code, entry.date).rate)
    }
    moneyIn += value
    var position = positions.removeValue(forKey: code) ?? .init()
    var left = entry.amount
    if entry.cost == nil, entry.role != .income, let waiting = inTransit[code]?.quantity, waiting > 0 {
      let back = Swift.min(waiting, left)
      position.add(inTransit[code, default: .init()].take(back, method: .fifo))
      left -= back
    }
    if left > entry.amount * 1e-12 {
      position.add(left, cost: left == entry.amount ? value : value * left / entry.amount, on: entry.date)
    }
    positions[code] = position
    if entry.role == .income {
      income.append(
        PortfolioIncome(entryID: entry.id, date: entry.date, code: code, quantity: entry.amount, value: value))
    }
  }

  private mutating func exchange(_ entry: LedgerEntry) throws {
    let selling = entry.side == .sell
    let paid = selling ? (entry.currency, entry.amount) : (entry.counterCurrency, entry.counterAmount)
    let got = selling ? (entry.counterCurrency, entry.counterAmount) : (entry.currency, entry.amount)
    let priced = rank(paid.0) <= rank(got.0) ? paid : got
    let value = priced.1 * (try price(priced.0, entry.date).rate)
    // Its fee legs not paid yet (one recorded before its exchange was paid alone).
    let fees = (entry.importID.flatMap { self.fees[$0] } ?? []).filter { !paidFees.contains($0.id) }
    let feeValue = try fees.reduce(0) { $0 + $1.amount * (try price($1.currency, $1.date).rate) }
    let feeOnCost = paid.0 == currency
    try dispose(paid.0, quantity: paid.1, value: value, fee: feeOnCost ? 0 : feeValue, entry: entry, kind: .trade)
    positions[got.0, default: .init()].add(got.1, cost: value + (feeOnCost ? feeValue : 0), on: entry.date)
    for fee in fees { try payFee(fee) }
  }

  /// Pays a fee: disposes of its currency at its value that day.
  private mutating func payFee(_ fee: LedgerEntry) throws {
    paidFees.insert(fee.id)
    let value = fee.amount * (try price(fee.currency, fee.date).rate)
    try dispose(fee.currency, quantity: fee.amount, value: value, fee: 0, entry: fee, kind: .fee)
  }

  /// Disposes of `quantity` `code` for `value` less `fee` (the proceeds): what is held of it
  /// leaves by the method with its gain, and is recorded; the rest was put in from outside.
  private mutating func dispose(
    _ code: CurrencyCode, quantity: Double, value: Double, fee: Double, entry: LedgerEntry,
    kind: PortfolioDisposal.Kind
  ) throws {
    // Taken out of the dictionary while it changes, so that its lots are not copied.
    var position = positions.removeValue(forKey: code) ?? .init()
    let held = Swift.min(position.quantity, quantity)
    let shortfall = quantity - held
    if shortfall > quantity * 1e-9 {
      putIns[entry.id] = shortfall
      position.putIn += shortfall
      moneyIn += value * shortfall / quantity
    }
    let lots = position.take(held, method: method)
    let cost = lots.reduce(0) { $0 + $1.cost }
    let proceeds = (value - fee) * held / quantity
    position.realized += proceeds - cost
    positions[code] = position
    guard held > 0 else { return }
    disposals.append(
      PortfolioDisposal(
        entryID: entry.id, date: entry.date, code: code, quantity: held, proceeds: proceeds,
        fee: fee * held / quantity, cost: cost, lots: lots, kind: kind))
  }
}
