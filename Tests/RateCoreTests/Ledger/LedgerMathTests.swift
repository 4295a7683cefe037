import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// The ledger's arithmetic against values computed by hand in the comments.
@Suite struct LedgerMathTests {
  static let today = Day(year: 2026, month: 11, day: 22) ?? Day(daysSinceEpoch: 0)
  static let recorded = Date(timeIntervalSince1970: 1_795_000_000)

  /// An entry `daysAgo` days before `today`.
  static func entry(
    _ id: Int, daysAgo: Int = 0, _ side: LedgerEntry.Side, _ amount: Double, _ currency: CurrencyCode,
    _ counterAmount: Double, _ counterCurrency: CurrencyCode
  ) -> LedgerEntry {
    LedgerEntry(
      id: id, date: today.adding(days: -daysAgo), side: side, amount: amount,
      currency: currency, counterAmount: counterAmount, counterCurrency: counterCurrency,
      recordedAt: recorded)
  }

  static let lastThreeDays = LedgerMath.window(days: 3, endingOn: today)

  // MARK: - One entry

  @Test func entryRateIsQuotePerBaseInEitherDirection() throws {
    // Sold 100 USD for 8,950,000 LBP: 8,950,000 / 100 = 89,500 LBP per USD.
    let sale = Self.entry(1, .sell, 100, "USD", 8_950_000, "LBP")
    expectEqual(sale.rate(base: "USD", quote: "LBP"), 89_500)
    // Seen as LBP-USD: 100 / 8,950,000 = 1 / 89,500.
    let inverse = try require(sale.rate(base: "LBP", quote: "USD"))
    expect(abs(inverse - 1.0 / 89_500) < 1e-18)
    expectEqual(sale.rate, 89_500)
    expectEqual(sale.rate(base: "USD", quote: "EUR"), nil)
    expectEqual(sale.rate(base: "EUR", quote: "LBP"), nil)
  }

  @Test func orientationFlipsTheSideOfAnEntryRecordedTheOtherWay() throws {
    // Sold 8,960,000 LBP for 100 USD: seen as USD-LBP, the user bought 100 USD.
    let entry = Self.entry(1, .sell, 8_960_000, "LBP", 100, "USD")
    let oriented = try require(entry.oriented(base: "USD", quote: "LBP"))
    expectEqual(oriented.side, .buy)
    expectEqual(oriented.baseAmount, 100)
    expectEqual(oriented.quoteAmount, 8_960_000)
    expectEqual(entry.rate(base: "USD", quote: "LBP"), 89_600)
  }

  @Test func unusableAmountsGiveNoRate() {
    // A hand-edited file could hold a zero: no division by zero, no infinity.
    let zero = Self.entry(1, .sell, 0, "USD", 100, "LBP")
    expectEqual(zero.rate(base: "USD", quote: "LBP"), nil)
    expectEqual(
      LedgerMath.rate(entries: [zero], base: "USD", quote: "LBP", window: Self.lastThreeDays),
      nil)
  }

  // MARK: - Daily series

  /// Asked the other way round, the daily series is the recorded one inverted, each average
  /// rounded once: 8,950,001 / 7 = 1,278,571.5714…, whose inverse 7.821228176e-07 is not the
  /// inverse of the rounded 1,278,571.571 (7.821228179e-07).
  @Test func aDailySeriesAskedTheOtherWayIsTheRecordedOneInvertedAndRoundedOnce() throws {
    let entries = [Self.entry(1, daysAgo: 1, .sell, 7, "USD", 8_950_001, "LBP")]
    let now = Self.today.start
    let recorded = try LedgerSeries.daily(base: "USD", quote: "LBP", days: 7, entries: entries, now: now)
    expect(recorded.base == "USD" && recorded.quote == "LBP")
    expectEqual(recorded.points.map(\.rate), [1_278_571.571])
    let inverse = try LedgerSeries.daily(base: "LBP", quote: "USD", days: 7, entries: entries, now: now)
    expect(inverse.base == "LBP" && inverse.quote == "USD" && inverse.source == .ledger)
    expectEqual(inverse.points.map(\.date), [Self.today.adding(days: -1)])
    expectEqual(inverse.points.map(\.rate), [7.821_228_176e-07])
    expect(inverse.gaps.isEmpty)
  }

  // MARK: - Rate over a window

  @Test func buyAndSellAreAmountWeightedAndTheMidpointIsTheirMean() throws {
    let entries = [
      // Sells of USD (user gave USD):
      //   100 USD for  8,950,000 LBP (89,500)
      //   300 USD for 26,940,000 LBP (89,800)
      Self.entry(1, .sell, 100, "USD", 8_950_000, "LBP"),
      Self.entry(2, daysAgo: 1, .sell, 300, "USD", 26_940_000, "LBP"),
      // Buys of USD (user received USD):
      //   bought 50 USD paying 4,500,000 LBP (90,000)
      //   sold 18,040,000 LBP for 200 USD, recorded the other way (90,200)
      Self.entry(3, daysAgo: 2, .buy, 50, "USD", 4_500_000, "LBP"),
      Self.entry(4, .sell, 18_040_000, "LBP", 200, "USD"),
    ]
    let rate = try require(
      LedgerMath.rate(entries: entries, base: "USD", quote: "LBP", window: Self.lastThreeDays))
    // sell = (8,950,000 + 26,940,000) / (100 + 300) = 35,890,000 / 400 = 89,725
    // (the unweighted mean of 89,500 and 89,800 would be 89,650)
    expectEqual(rate.sell, 89_725)
    expectEqual(rate.sellCount, 2)
    // buy = (4,500,000 + 18,040,000) / (50 + 200) = 22,540,000 / 250 = 90,160
    expectEqual(rate.buy, 90_160)
    expectEqual(rate.buyCount, 2)
    // midpoint = (90,160 + 89,725) / 2 = 179,885 / 2 = 89,942.5
    expectEqual(rate.midpoint, 89_942.5)
    expectEqual(rate.count, 4)
  }

  @Test func theInversePairInvertsEveryRate() throws {
    let entries = [
      Self.entry(1, .sell, 100, "USD", 8_000_000, "LBP"),
      Self.entry(2, .buy, 100, "USD", 10_000_000, "LBP"),
    ]
    // USD-LBP: sell 80,000, buy 100,000, midpoint 90,000.
    let direct = try require(
      LedgerMath.rate(entries: entries, base: "USD", quote: "LBP", window: Self.lastThreeDays))
    expectEqual(direct.sell, 80_000)
    expectEqual(direct.buy, 100_000)
    expectEqual(direct.midpoint, 90_000)
    // LBP-USD: selling USD is buying LBP, so the sides swap:
    //   buy (of LBP) = 100 / 8,000,000 = 0.0000125, sell = 100 / 10,000,000 = 0.00001,
    //   midpoint = (0.0000125 + 0.00001) / 2 = 0.00001125.
    let inverse = try require(
      LedgerMath.rate(entries: entries, base: "LBP", quote: "USD", window: Self.lastThreeDays))
    expectEqual(inverse.buy, 0.0000125)
    expectEqual(inverse.sell, 0.00001)
    expectEqual(inverse.buyCount, 1)
    expectEqual(inverse.sellCount, 1)
    expect(abs(inverse.midpoint - 0.00001125) < 1e-18)
  }

  @Test func oneSidedWindowUsesThatSideAsTheMidpoint() throws {
    // Only sells: 100 USD for 9,000,000 and 100 USD for 9,100,000 → 18,100,000 / 200 = 90,500.
    let entries = [
      Self.entry(1, .sell, 100, "USD", 9_000_000, "LBP"),
      Self.entry(2, daysAgo: 1, .sell, 100, "USD", 9_100_000, "LBP"),
    ]
    let rate = try require(
      LedgerMath.rate(entries: entries, base: "USD", quote: "LBP", window: Self.lastThreeDays))
    expectEqual(rate.buy, nil)
    expectEqual(rate.buyCount, 0)
    expectEqual(rate.sell, 90_500)
    expectEqual(rate.midpoint, 90_500)

    // Only buys.
    let buys = [Self.entry(1, .buy, 40, "USD", 3_600_000, "LBP")]  // 90,000
    let buyRate = try require(
      LedgerMath.rate(entries: buys, base: "USD", quote: "LBP", window: Self.lastThreeDays))
    expectEqual(buyRate.sell, nil)
    expectEqual(buyRate.buy, 90_000)
    expectEqual(buyRate.midpoint, 90_000)
  }

  @Test func windowIncludesTodayAndTheDaysBeforeButNothingElse() throws {
    let entries = [
      Self.entry(1, daysAgo: 0, .sell, 100, "USD", 9_000_000, "LBP"),
      Self.entry(2, daysAgo: 2, .sell, 100, "USD", 9_200_000, "LBP"),
      // Three days ago: outside "the last 3 days".
      Self.entry(3, daysAgo: 3, .sell, 100, "USD", 1_000_000, "LBP"),
      // Another pair entirely.
      Self.entry(4, .sell, 100, "USD", 150, "NGN"),
    ]
    expectEqual(Self.lastThreeDays.lowerBound, Day(year: 2026, month: 11, day: 20))
    // (9,000,000 + 9,200,000) / 200 = 91,000
    let rate = try require(
      LedgerMath.rate(entries: entries, base: "USD", quote: "LBP", window: Self.lastThreeDays))
    expectEqual(rate.sell, 91_000)
    expectEqual(rate.sellCount, 2)
  }

  @Test(arguments: [0, 1, 5])
  func emptyWindowHasNoRate(daysAgo: Int) {
    let window = LedgerMath.window(days: 3, endingOn: Self.today.adding(days: -10))
    let entries = daysAgo == 5 ? [Self.entry(1, daysAgo: 5, .sell, 1, "USD", 1, "LBP")] : []
    expectEqual(LedgerMath.rate(entries: entries, base: "USD", quote: "LBP", window: window), nil)
    let series = LedgerMath.dailyAverages(
      entries: entries, base: "USD", quote: "LBP", window: window)
    expect(series.buy.isEmpty && series.sell.isEmpty && series.all.isEmpty)
  }

  @Test(arguments: [(1, 0), (3, 2), (30, 29), (0, 0)])
  func windowOfNDaysEndsToday(days: Int, span: Int) {
    let window = LedgerMath.window(days: days, endingOn: Self.today)
    expectEqual(window.upperBound, Self.today)
    expectEqual(window.lowerBound.distance(to: window.upperBound), span)
  }

  // MARK: - Daily averages

  @Test func dailyAveragesWeightEachDayAndLeaveEmptyDaysOut() throws {
    let entries = [
      // Today: sells 100 @ 89,000 and 300 @ 90,000; a buy of 100 @ 91,000.
      Self.entry(1, .sell, 100, "USD", 8_900_000, "LBP"),
      Self.entry(2, .sell, 300, "USD", 27_000_000, "LBP"),
      Self.entry(3, .buy, 100, "USD", 9_100_000, "LBP"),
      // Two days ago: one sell of 8,800,000 LBP for 100 USD, i.e. a buy of USD @ 88,000.
      Self.entry(4, daysAgo: 2, .sell, 8_800_000, "LBP", 100, "USD"),
      // Yesterday: nothing. Forty days ago: outside a 30-day window.
      Self.entry(5, daysAgo: 40, .sell, 1, "USD", 1, "LBP"),
    ]
    let window = LedgerMath.window(days: 30, endingOn: Self.today)
    let series = LedgerMath.dailyAverages(
      entries: entries, base: "USD", quote: "LBP", window: window)
    let twoDaysAgo = Self.today.adding(days: -2)
    // Sell today: (8,900,000 + 27,000,000) / 400 = 35,900,000 / 400 = 89,750.
    expectEqual(series.sell, [RatePoint(date: Self.today, rate: 89_750)])
    // Buy: two days ago 88,000; today 91,000. Oldest first, yesterday absent.
    expectEqual(
      series.buy,
      [
        RatePoint(date: twoDaysAgo, rate: 88_000), RatePoint(date: Self.today, rate: 91_000),
      ])
    // All today: (8,900,000 + 27,000,000 + 9,100,000) / 500 = 45,000,000 / 500 = 90,000.
    expectEqual(
      series.all,
      [
        RatePoint(date: twoDaysAgo, rate: 88_000), RatePoint(date: Self.today, rate: 90_000),
      ])
  }

  // MARK: - The stored ledger

  @Test func idsAreNeverReused() {
    var ledger = Ledger()
    let first = ledger.append(Self.entry(0, .sell, 1, "USD", 2, "LBP"))
    let second = ledger.append(Self.entry(0, .sell, 1, "USD", 2, "LBP"))
    expectEqual(first.id, 1)
    expectEqual(second.id, 2)
    ledger.entries.removeAll { $0.id == 2 }
    expectEqual(ledger.append(Self.entry(0, .buy, 1, "USD", 2, "LBP")).id, 3)
    // A stale nextID in a hand-edited file still cannot hand out an id twice.
    ledger.nextID = 1
    expectEqual(ledger.append(Self.entry(0, .buy, 1, "USD", 2, "LBP")).id, 4)
    expectEqual(ledger.nextID, 5)
  }

  @Test func newestFirstSortsByDateThenID() {
    let ledger = Ledger(
      nextID: 4,
      entries: [
        Self.entry(1, daysAgo: 0, .sell, 1, "USD", 2, "LBP"),
        Self.entry(2, daysAgo: 1, .sell, 1, "USD", 2, "LBP"),
        Self.entry(3, daysAgo: 0, .sell, 1, "USD", 2, "LBP"),
      ])
    expectEqual(ledger.newestFirst.map(\.id), [3, 1, 2])
    expectEqual(ledger.oldestFirst.map(\.id), [2, 1, 3])
  }

  // MARK: - Input

  @Test(arguments: [
    ("1500", 1500.0), ("1,500.25", 1500.25), ("1e3", 1000.0), ("+12.5", 12.5),
    ("8,950,000", 8_950_000.0), (" 7 ", 7.0), ("1e15", 1e15), ("0.00000001", 1e-8),
  ])
  func amountsPeopleType(text: String, value: Double) throws {
    expectEqual(try LedgerInput.amount(text), value)
  }

  @Test(arguments: [
    ("-5", "more than zero"), ("0", "more than zero"), ("abc", "not a number"),
    ("inf", "not a number"), ("nan", "not a number"), ("0x10", "not a number"),
    ("1e999", "not a finite number"), ("2e15", "too large"), ("1,5", "misplaced commas"),
    ("15,00", "misplaced commas"), ("1.5,0", "misplaced commas"), ("", "not a number"),
    ("1e-12", "too small"),
  ])
  func amountsRefused(text: String, reason: String) {
    #expect {
      _ = try LedgerInput.amount(text)
    } throws: { error in
      (error as? LedgerInput.Invalid)?.message.contains(reason) == true
    }
  }

  @Test func datesAreUTCDaysFrom1990ToTomorrow() throws {
    expectEqual(try LedgerInput.day("2026-11-22", today: Self.today), Self.today)
    // East of UTC it is already the next day for a few hours.
    expectEqual(try LedgerInput.day("2026-11-23", today: Self.today), Self.today.adding(days: 1))
    expectEqual(try LedgerInput.day("yesterday", today: Self.today), Self.today.adding(days: -1))
    expectEqual(try LedgerInput.day("1990-01-01", today: Self.today).description, "1990-01-01")
    for (text, reason) in [
      ("2026-11-24", "in the future"), ("1989-12-31", "before 1990"),
      ("2026-02-30", "not a date"), ("22/11/2026", "not a date"),
    ] {
      #expect {
        _ = try LedgerInput.day(text, today: Self.today)
      } throws: { error in
        (error as? LedgerInput.Invalid)?.message.contains(reason) == true
      }
    }
  }

  @Test func currenciesAreAnyThreeLettersAndMustDiffer() throws {
    let pair = try LedgerInput.pair("usd", "lbp")
    expectEqual([pair.0, pair.1], ["USD", "LBP"])
    expectEqual(try LedgerInput.currency("NGN"), "NGN")
    // Coins as exchanges' exports name them (and `ledger export` writes them back).
    expectEqual(try LedgerInput.currency("doge"), "DOGE")
    expectEqual(try LedgerInput.currency("1INCH"), "1INCH")
    #expect(throws: LedgerInput.Invalid.self) { try LedgerInput.currency("ABCDEFGHIJK") }
    for (base, quote) in [("US", "LBP"), ("USD", "L8P"), ("USD", "usd"), ("ÉUR", "USD")] {
      #expect(throws: LedgerInput.Invalid.self) { try LedgerInput.pair(base, quote) }
    }
  }

  @Test func notesAreSanitizedTrimmedAndLimited() throws {
    expectEqual(try LedgerInput.text("  cash\u{1B}[31m at\nhome ", what: "note"), "cash at home")
    expectEqual(try LedgerInput.text("   ", what: "note"), nil)
    expectEqual(try LedgerInput.text(String(repeating: "a", count: 200), what: "note")?.count, 200)
    #expect(throws: LedgerInput.Invalid.self) {
      try LedgerInput.text(String(repeating: "a", count: 201), what: "note")
    }
  }
}

@Suite struct LedgerAppendTests {
  @Test func batchAppendGivesIncreasingFreshIDs() {
    let entry = LedgerEntry(
      id: 0, date: Day("2026-11-20")!, side: .sell, amount: 1, currency: "USD", counterAmount: 89_500,
      counterCurrency: "LBP", counterparty: nil, note: nil, recordedAt: fixedNow)
    var ledger = Ledger(nextID: 3, entries: [])
    ledger.append(entry)
    let stored = ledger.append(contentsOf: [entry, entry, entry])
    expectEqual(stored.map(\.id), [4, 5, 6])
    expectEqual(ledger.nextID, 7)
    var stale = Ledger(nextID: 1, entries: ledger.entries)
    expectEqual(stale.append(entry).id, 7, "a stale nextID never reuses an id")
  }
}
