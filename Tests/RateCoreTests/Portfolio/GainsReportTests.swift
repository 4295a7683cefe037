import RatesExpectations
import Testing

@testable import RateCore

/// `portfolio gains` against a FIFO computation written here, independently of the walk: a
/// ledger of buys, sells, fees in a third currency (BNB) and in the received coin, same-day
/// trades, a coin-to-coin conversion and income, as `ledger import` writes them (fee legs
/// `<id>#fee`).
@Suite struct GainsReportTests {
  static let recorded = Date(timeIntervalSince1970: 1_700_000_000)
  static func day(_ text: String) -> Day { Day(text)! }

  /// What happened, in plain terms; both the ledger and the independent computation are
  /// derived from it.
  enum Event {
    case deposit(day: String, euros: Double)
    /// Bought `quantity` `asset` for `euros`, paying `fee` (its asset and quantity).
    case buy(day: String, asset: String, quantity: Double, euros: Double, fee: (String, Double)?)
    case sell(day: String, asset: String, quantity: Double, euros: Double, fee: (String, Double)?)
    /// Converted `quantity` `from` into `received` `to`, paying `fee`.
    case convert(day: String, from: String, quantity: Double, to: String, received: Double, fee: (String, Double)?)
    case income(day: String, asset: String, quantity: Double)
  }

  static let events: [Event] = [
    .deposit(day: "2024-01-10", euros: 20_000),
    .buy(day: "2024-01-10", asset: "BTC", quantity: 0.2, euros: 8_000, fee: ("EUR", 10)),
    .buy(day: "2024-02-01", asset: "BNB", quantity: 10, euros: 2_000, fee: nil),
    .buy(day: "2024-03-01", asset: "BTC", quantity: 0.1, euros: 5_000, fee: ("BNB", 0.01)),
    // The same day: bought, then sold more than the day's purchase (FIFO takes the oldest).
    .buy(day: "2025-01-15", asset: "BTC", quantity: 0.05, euros: 4_500, fee: nil),
    .sell(day: "2025-01-15", asset: "BTC", quantity: 0.25, euros: 22_500, fee: ("EUR", 22.5)),
    .convert(day: "2025-06-01", from: "BTC", quantity: 0.05, to: "ETH", received: 1.9, fee: ("ETH", 0.001)),
    .income(day: "2025-08-01", asset: "ETH", quantity: 0.01),
    .sell(day: "2025-09-01", asset: "ETH", quantity: 0.5, euros: 1_600, fee: ("BNB", 0.02)),
    .sell(day: "2025-12-31", asset: "BNB", quantity: 2, euros: 1_300.37, fee: ("EUR", 1.3)),
  ]

  /// Prices in EUR.
  static let prices: [String: Double] = [
    "BNB 2024-03-01": 400, "BTC 2025-06-01": 95_123.45, "ETH 2025-06-01": 2_500.5,
    "ETH 2025-08-01": 3_000.25, "BNB 2025-09-01": 512.34, "BTC 2025-01-15": 90_000,
    "BTC 2024-01-10": 40_000, "BNB 2024-02-01": 200, "BTC 2024-03-01": 50_000,
    "ETH 2025-09-01": 3_200, "BNB 2025-12-31": 650.185,
  ]

  static func price(_ code: CurrencyCode, _ day: Day) throws -> PortfolioPrice {
    if code == "EUR" { return PortfolioPrice(rate: 1, source: .provider(.coinGecko), date: day) }
    guard let rate = prices["\(code) \(day)"] else {
      throw PortfolioError.noPrice(code: code, day: day, reason: "not in the test's table")
    }
    return PortfolioPrice(rate: rate, source: .provider(.coinGecko), date: day)
  }

  static func rank(_ code: CurrencyCode) -> Int { code == "EUR" ? 0 : 3 }

  /// The ledger `ledger import` would write: one exchange per trade, a fee leg per fee.
  static func ledger(_ events: [Event]) -> [LedgerEntry] {
    var entries: [LedgerEntry] = []
    func add(_ entry: LedgerEntry, fee: (String, Double)?, id: String) {
      var entry = entry
      entry.id = entries.count + 1
      entry.importID = id
      entries.append(entry)
      guard let (code, quantity) = fee else { return }
      var leg = LedgerEntry.transferEntry(
        .withdrawal, id: entries.count + 1, date: entry.date, amount: quantity, currency: CurrencyCode(code),
        recordedAt: recorded)
      leg.importID = id + "#fee"
      leg.role = .fee
      entries.append(leg)
    }
    func exchange(
      _ day: String, _ side: LedgerEntry.Side, _ amount: Double, _ code: String, _ counter: Double,
      _ counterCode: String
    ) -> LedgerEntry {
      LedgerEntry(
        id: 0, date: Self.day(day), side: side, amount: amount, currency: CurrencyCode(code), counterAmount: counter,
        counterCurrency: CurrencyCode(counterCode), recordedAt: recorded)
    }
    for (index, event) in events.enumerated() {
      let id = "test:\(index)"
      switch event {
      case .deposit(let day, let euros):
        add(
          .transferEntry(.deposit, date: Self.day(day), amount: euros, currency: "EUR", recordedAt: recorded), fee: nil,
          id: id)
      case .buy(let day, let asset, let quantity, let euros, let fee):
        add(exchange(day, .buy, quantity, asset, euros, "EUR"), fee: fee, id: id)
      case .sell(let day, let asset, let quantity, let euros, let fee):
        add(exchange(day, .sell, quantity, asset, euros, "EUR"), fee: fee, id: id)
      case .convert(let day, let from, let quantity, let to, let received, let fee):
        add(exchange(day, .sell, quantity, from, received, to), fee: fee, id: id)
      case .income(let day, let asset, let quantity):
        var entry = LedgerEntry.transferEntry(
          .deposit, date: Self.day(day), amount: quantity, currency: CurrencyCode(asset), recordedAt: recorded)
        entry.role = .income
        add(entry, fee: nil, id: id)
      }
    }
    return entries
  }

  /// One disposal as the independent computation sees it.
  struct Expected: Equatable {
    var date: String
    var asset: String
    var quantity: Double
    var proceeds: Double
    var cost: Double
    var long: Bool
  }

  /// FIFO, written from the rules in docs/guide.md ("Gains"), without the walk: a queue of lots
  /// per asset, the oldest taken first; a purchase's EUR fee and any fee of a purchase is
  /// cost; a sale's or conversion's fee comes off its proceeds; a fee in a coin disposes of
  /// that coin at its value; a conversion is valued at the paid coin's price.
  static func independentFIFO(_ events: [Event]) throws -> [Expected] {
    var lots: [String: [(quantity: Double, cost: Double, day: Day)]] = [:]
    var disposals: [Expected] = []
    func value(_ code: String, _ quantity: Double, _ day: String) throws -> Double {
      quantity * (try price(CurrencyCode(code), Self.day(day)).rate)
    }
    func dispose(_ code: String, _ quantity: Double, proceeds: Double, on day: String) {
      guard code != "EUR" else { return }
      var left = quantity
      var parts: [(quantity: Double, cost: Double, day: Day)] = []
      while left > 1e-12 {
        let lot = lots[code]!.removeFirst()
        let used = min(lot.quantity, left)
        parts.append((used, lot.cost * used / lot.quantity, lot.day))
        if used < lot.quantity {
          lots[code]!.insert((lot.quantity - used, lot.cost * (lot.quantity - used) / lot.quantity, lot.day), at: 0)
        }
        left -= used
      }
      // A year after the acquisition: the same day a year later is still short.
      func isLong(_ acquired: Day) -> Bool {
        Self.day(day) > Day(
          year: acquired.year + 1, month: Int(acquired.description.dropFirst(5).prefix(2))!,
          day: Int(acquired.description.suffix(2))!)!
      }
      for long in [false, true] {
        let group = parts.filter { isLong($0.day) == long }
        guard !group.isEmpty else { continue }
        let groupQuantity = group.reduce(0) { $0 + $1.quantity }
        disposals.append(
          Expected(
            date: day, asset: code, quantity: groupQuantity, proceeds: proceeds * groupQuantity / quantity,
            cost: group.reduce(0) { $0 + $1.cost }, long: long))
      }
    }
    func acquire(_ code: String, _ quantity: Double, cost: Double, on day: String) {
      guard code != "EUR" else { return }
      lots[code, default: []].append((quantity, cost, Self.day(day)))
    }
    func payFee(_ fee: (String, Double)?, on day: String) throws -> Double {
      guard let (code, quantity) = fee else { return 0 }
      let feeValue = try value(code, quantity, day)
      return feeValue
    }
    for event in events {
      switch event {
      case .deposit: break
      case .buy(let day, let asset, let quantity, let euros, let fee):
        let feeValue = try payFee(fee, on: day)
        acquire(asset, quantity, cost: euros + feeValue, on: day)
        if let (code, amount) = fee { dispose(code, amount, proceeds: feeValue, on: day) }
      case .sell(let day, let asset, let quantity, let euros, let fee):
        let feeValue = try payFee(fee, on: day)
        dispose(asset, quantity, proceeds: euros - feeValue, on: day)
        if let (code, amount) = fee { dispose(code, amount, proceeds: feeValue, on: day) }
      case .convert(let day, let from, let quantity, let to, let received, let fee):
        let feeValue = try payFee(fee, on: day)
        let worth = try value(from, quantity, day)
        dispose(from, quantity, proceeds: worth - feeValue, on: day)
        acquire(to, received, cost: worth, on: day)
        if let (code, amount) = fee { dispose(code, amount, proceeds: feeValue, on: day) }
      case .income(let day, let asset, let quantity):
        acquire(asset, quantity, cost: try value(asset, quantity, day), on: day)
      }
    }
    return disposals
  }

  static func cents(_ value: Double) -> Double { (value * 100).rounded() / 100 }

  @Test func fifoGainsEqualAnIndependentComputationToTheCent() throws {
    let report = try GainsReport.build(
      entries: Self.ledger(Self.events), period: Self.day("2024-01-01")...Self.day("2025-12-31"),
      currency: "EUR", method: .fifo, rank: Self.rank, price: Self.price)
    let expected = try Self.independentFIFO(Self.events)
    let got = report.rows.map {
      Expected(
        date: $0.date.description, asset: $0.code.text, quantity: $0.quantity, proceeds: $0.proceeds, cost: $0.cost,
        long: $0.period == .long)
    }
    expectEqual(got.count, expected.count)
    for (row, want) in zip(got, expected) {
      expect(row.date == want.date && row.asset == want.asset && row.long == want.long, "\(row) vs \(want)")
      expect(abs(row.quantity - want.quantity) < 1e-12, "\(row) vs \(want)")
      expectEqual(Self.cents(row.proceeds), Self.cents(want.proceeds), "\(row) vs \(want)")
      expectEqual(Self.cents(row.cost), Self.cents(want.cost), "\(row) vs \(want)")
    }
    let total = report.totals(report.writtenRows)
    let expectedTotal = expected.reduce(0) { $0 + Self.cents($1.proceeds) - Self.cents($1.cost) }
    expect(abs(total.gain - expectedTotal) < 0.005)
    // The sale on 2025-01-15 took the 2024-01-10 lot (long) and part of 2024-03-01's (short).
    expectEqual(report.rows.filter { $0.date == Self.day("2025-01-15") }.map(\.period), [.short, .long])
    expectEqual(report.income.map(\.code), ["ETH"])
    expectEqual(Self.cents(report.incomeTotal), Self.cents(0.01 * 3_000.25))
  }

  /// A year's gains are the change of `portfolio`'s realized gains over the year: realized
  /// on the year's last day less realized on the day before its first.
  @Test(arguments: PortfolioMethod.allCases)
  func aYearsGainsAreTheChangeOfThePortfoliosRealizedGains(method: PortfolioMethod) throws {
    let entries = Self.ledger(Self.events)
    func realized(_ day: String) throws -> Double {
      try PortfolioReport.build(
        entries: entries, asOf: Self.day(day), currency: "EUR", method: method, rank: Self.rank,
        price: { code, day in
          // The holdings' prices on the as-of day (not asked by the gains) at any rate.
          (try? Self.price(code, day)) ?? PortfolioPrice(rate: 1, source: .provider(.coinGecko), date: day)
        }
      ).realized
    }
    let gains = try GainsReport.build(
      entries: entries, period: Self.day("2025-01-01")...Self.day("2025-12-31"), currency: "EUR",
      method: method, rank: Self.rank, price: Self.price)
    let sum = gains.rows.reduce(0) { $0 + $1.gain }
    expect(abs(sum - (try realized("2025-12-31") - realized("2024-12-31"))) < 1e-6)
    expect(gains.rows.count > 5)
  }

  @Test func hifoTakesTheCostliestLotsFirstAndAverageTheMeanCost() throws {
    let entries = Self.ledger(Array(Self.events.prefix(6)))
    func sale(_ method: PortfolioMethod) throws -> [GainsReport.Row] {
      try GainsReport.build(
        entries: entries, period: Self.day("2025-01-15")...Self.day("2025-01-15"), currency: "EUR",
        method: method, rank: Self.rank, price: Self.price
      ).rows.filter { $0.code == "BTC" }
    }
    // Lots: 0.2 at 40,050/BTC, 0.1 at 50,040/BTC, 0.05 at 90,000/BTC.
    let hifo = try sale(.hifo)
    expectEqual(
      Set(hifo.flatMap(\.lots).map(\.acquired)),
      [
        Self.day("2024-01-10"), Self.day("2024-03-01"), Self.day("2025-01-15"),
      ])
    expectEqual(Self.cents(hifo.reduce(0) { $0 + $1.cost }), Self.cents(4_500 + 5_004 + 0.1 * 40_050))
    let average = try sale(.average)
    expectEqual(Self.cents(average.reduce(0) { $0 + $1.cost }), Self.cents((8_010 + 5_004 + 4_500) * 0.25 / 0.35))
  }

  /// A withdrawal and a deposit of the same coin are a transfer between your own accounts:
  /// the deposit takes the lots back with their cost and day, so the sale after it is long
  /// and gains from the first purchase.
  @Test func aTransferKeepsTheLotsCostAndDay() throws {
    var entries = Self.ledger([
      .buy(day: "2024-01-10", asset: "BTC", quantity: 0.2, euros: 8_000, fee: nil),
      .sell(day: "2025-06-01", asset: "BTC", quantity: 0.2, euros: 19_000, fee: nil),
    ])
    entries[1].id = 4
    entries.append(
      .transferEntry(
        .withdrawal, id: 2, date: Self.day("2024-05-01"), amount: 0.2, currency: "BTC", recordedAt: Self.recorded))
    entries.append(
      .transferEntry(
        .deposit, id: 3, date: Self.day("2024-05-03"), amount: 0.2, currency: "BTC", recordedAt: Self.recorded))
    let report = try GainsReport.build(
      entries: entries, period: Self.day("2025-01-01")...Self.day("2025-12-31"), currency: "EUR", method: .fifo,
      rank: Self.rank,
      price: { code, day in
        (try? Self.price(code, day)) ?? PortfolioPrice(rate: 60_000, source: .provider(.coinGecko), date: day)
      })
    let row = try require(report.rows.first)
    expectEqual(report.rows.count, 1)
    expect(row.period == .long && row.cost == 8_000 && row.proceeds == 19_000)
    expectEqual(row.lots.map(\.acquired), [Self.day("2024-01-10")])
  }

  @Test(arguments: [
    ("2024-02-29", "2025-02-28", HoldingPeriod.short), ("2024-02-29", "2025-03-01", .long),
    ("2024-01-10", "2025-01-10", .short), ("2024-01-10", "2025-01-11", .long),
  ])
  func aLotIsLongAfterItsAnniversary(acquired: String, disposed: String, period: HoldingPeriod) {
    expectEqual(HoldingPeriod(acquired: Self.day(acquired), disposed: Self.day(disposed)), period)
  }
}
