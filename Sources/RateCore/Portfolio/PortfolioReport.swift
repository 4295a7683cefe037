/// What the ledger holds on a day, valued in one currency: per currency or coin its
/// quantity, price, value, cost and gains, and the totals. Built by ``build(entries:asOf:currency:method:rank:price:)``.
public struct PortfolioReport: Sendable {
  /// One currency or coin held on the day, or disposed of with a realized gain.
  public struct Holding: Sendable, Equatable {
    /// Its code: `BTC`, `USD`, `LBP`.
    public var code: CurrencyCode
    /// How much is held (0 for a position closed with a realized gain).
    public var quantity: Double
    /// Its price on the day; nil when nothing is held.
    public var price: PortfolioPrice?
    /// Its price on the day before, for the 24 h change; nil when nothing is held.
    public var previousPrice: PortfolioPrice?
    /// `quantity × price`.
    public var value: Double
    /// What is held cost, each acquisition at its own day's price.
    public var cost: Double
    /// The gains of disposals up to the day, by the report's method.
    public var realized: Double
    /// How much of it was paid from outside the ledger (payments beyond the holding).
    public var putIn: Double

    /// `value − cost`.
    public var unrealized: Double { value - cost }
    /// The change of value since the day before, at the same quantity.
    public var change24h: Double? { previousPrice.map { value - quantity * $0.rate } }
  }

  /// The portfolio's currency.
  public var currency: CurrencyCode
  /// The day valued.
  public var asOf: Day
  /// How disposals took their cost.
  public var method: PortfolioMethod
  /// Every currency or coin held, largest value first, then closed positions with gains.
  public var holdings: [Holding]
  /// The value of everything put in: deposits and payments beyond the holding.
  public var moneyIn: Double
  /// The value of withdrawals on their days.
  public var moneyOut: Double

  /// The total value.
  public var value: Double { holdings.reduce(0) { $0 + $1.value } }
  /// The total realized gain.
  public var realized: Double { holdings.reduce(0) { $0 + $1.realized } }

  /// The share of the total value `holding` is, 0…1.
  public func share(of holding: Holding) -> Double {
    value > 0 ? holding.value / value : 0
  }

  /// The portfolio of `entries` on `asOf` (entries after it are left out).
  ///
  /// - Parameters:
  ///   - rank: how direct a code's price is (lower first); see ``PortfolioWalk``.
  ///   - price: the price of a code on a day, in `currency`.
  /// - Throws: ``PortfolioError``, or whatever `price` throws.
  public static func build(
    entries: [LedgerEntry], asOf: Day, currency: CurrencyCode, method: PortfolioMethod,
    rank: (CurrencyCode) -> Int, price: (CurrencyCode, Day) throws -> PortfolioPrice
  ) throws -> PortfolioReport {
    let ordered = entries.oldestFirst(through: asOf)
    let walk = try self.walk(ordered, currency: currency, method: method, rank: rank, price: price)
    var holdings: [Holding] = []
    for (code, position) in walk.positions {
      let held = position.quantity > 1e-12
      guard held || abs(position.realized) > 1e-9 || position.putIn > 0 else { continue }
      let today = held ? try price(code, asOf) : nil
      let before = held ? try? price(code, asOf.adding(days: -1)) : nil
      holdings.append(
        Holding(
          code: code, quantity: held ? position.quantity : 0, price: today, previousPrice: before,
          value: (today?.rate ?? 0) * (held ? position.quantity : 0), cost: held ? position.cost : 0,
          realized: position.realized, putIn: position.putIn))
    }
    holdings.sort { ($0.value, $1.code) > ($1.value, $0.code) }
    return PortfolioReport(
      currency: currency, asOf: asOf, method: method, holdings: holdings, moneyIn: walk.moneyIn,
      moneyOut: walk.moneyOut)
  }

  /// The walk over `ordered` (oldest first), in `currency`.
  static func walk(
    _ ordered: [LedgerEntry], currency: CurrencyCode, method: PortfolioMethod, rank: (CurrencyCode) -> Int,
    price: (CurrencyCode, Day) throws -> PortfolioPrice
  ) throws -> PortfolioWalk.Outcome {
    try withoutActuallyEscaping(rank) { rank in
      try withoutActuallyEscaping(price) { price in
        var walk = PortfolioWalk(method: method, currency: currency, entries: ordered, rank: rank, price: price)
        for entry in ordered { try walk.apply(entry) }
        return walk.outcome
      }
    }
  }

  /// Per exchange id, the amount of its paid currency that came from outside the ledger
  /// (paid beyond the holding), as ``build(entries:asOf:currency:method:rank:price:)`` counts it.
  public static func putIns(_ entries: [LedgerEntry]) throws -> [Int: Double] {
    try walk(
      entries.oldestFirst(), currency: "", method: .fifo, rank: { _ in 0 },
      price: { _, day in PortfolioPrice(rate: 1, source: nil, date: day) }
    ).putIns
  }

  /// Every code and day ``build(entries:asOf:currency:method:rank:price:)`` asks a price
  /// for, found by walking the ledger once with placeholder prices.
  public static func pricesNeeded(
    entries: [LedgerEntry], asOf: Day, currency: CurrencyCode, method: PortfolioMethod,
    rank: (CurrencyCode) -> Int
  ) throws -> [CurrencyCode: Set<Day>] {
    var needed: [CurrencyCode: Set<Day>] = [:]
    _ = try build(
      entries: entries, asOf: asOf, currency: currency, method: method, rank: rank
    ) { code, day in
      needed[code, default: []].insert(day)
      return PortfolioPrice(rate: 1, source: nil, date: day)
    }
    return needed
  }
}

extension PortfolioReport {
  /// Checks that no withdrawal of `entries` takes more than is held on its day.
  /// - Throws: ``PortfolioError/overdrawn(id:code:amount:held:day:)`` for the first that does.
  public static func checkBalances(_ entries: [LedgerEntry]) throws {
    guard let last = entries.map(\.date).max() else { return }
    _ = try pricesNeeded(entries: entries, asOf: last, currency: "", method: .fifo) { _ in 0 }
  }
}
