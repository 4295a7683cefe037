import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// A street-rate pair (USD/LBP, priced by the ledger) on the home screen: its row from the
/// driver's board, labelled as the ledger's, pinned as a whole frame; its detail charts the
/// ledger's daily averages with the days without exchanges as gaps.
@Suite struct HomeStreetPairTests {
  typealias F = HomeScreenFixtures
  typealias S = HomeListSupport

  static let street = ConfiguredPair(base: "USD", quote: "LBP", addedAt: fixedNow, source: .ledger)

  /// The street rate on 2024-06-10 of ``fixture()``'s exchanges, by hand: the 3 days to the
  /// last exchange (06-07 to 06-09), bought 300 USD for 26.8 M LBP, sold 50 for 4.49 M; the
  /// midpoint of the two (RatesCLITests' `StreetPairTests` has the same exchanges).
  static let expectedRate = Figure.ratio(((17_800_000.0 + 9_000_000) / 300 + 4_490_000.0 / 50) / 2)

  /// The driver over the fake APIs with the USD/LBP exchanges of RatesCLITests'
  /// `StreetPairTests`, GBP/USD and the street pair.
  static func fixture() throws -> HomeDriverFixture {
    let fixture = try HomeDriverFixture()
    let exchanges: [(String, LedgerEntry.Side, Double, String, Double, String)] = [
      ("2024-06-03", .sell, 100, "USD", 8_950_000, "LBP"), ("2024-06-07", .buy, 200, "USD", 17_800_000, "LBP"),
      ("2024-06-08", .sell, 9e6, "LBP", 100, "USD"), ("2024-06-09", .sell, 50, "USD", 4_490_000, "LBP"),
    ]
    for (day, side, amount, currency, counterAmount, counterCurrency) in exchanges {
      _ = try fixture.userData.ledger.append(
        LedgerEntry(
          id: 0, date: try require(Day(day)), side: side, amount: amount, currency: CurrencyCode(currency),
          counterAmount: counterAmount, counterCurrency: CurrencyCode(counterCurrency), recordedAt: fixedNow))
    }
    try fixture.userData.addPairAtTop(ConfiguredPair(base: "GBP", quote: "USD", addedAt: fixedNow))
    try fixture.userData.addPairAtTop(street)
    return fixture
  }

  @Test func theListShowsTheStreetRateLabelledAsTheLedgers() async throws {
    let fixture = try Self.fixture()
    let events = await fixture.run(.loadBoard(currency: "USD", refresh: false))
    let board = try require(events.boards.last)
    let row = try require(board.rows.first { $0.id == "USD-LBP" })
    expectEqual(row.rate, Self.expectedRate)
    expectEqual(row.week, [89_000, 90_000, 89_800])
    expect(row.source == .ledger && row.changePeriod == .workingDay)
    // No request for the street rate: the coins' page and the ECB series alone.
    expectEqual(fixture.requests().count, 2, "\(fixture.requests().map(\.path))")

    let top = board.rows.filter { $0.kind == .top }.prefix(5)
    let shown = HomeBoard(
      currency: board.currency, rows: Array(top) + board.rows.filter { $0.kind == .pair },
      fetchedAt: board.fetchedAt, stale: board.stale)
    let lists = HomeLists(pairs: Array(try fixture.userData.pairs.read().reversed()))
    var state = S.state(board: shown, lists: lists)
    state.moveCursor(to: 0)
    let frame = F.frame(state, 80, 24).joined(separator: "\n")
    expect(frame.contains("USD/LBP") && frame.contains(HomeRenderer.streetLabel), "\(frame)")
    try F.checkGolden(state, "street-pair.80x24", 80, 24)
  }

  @Test func theDetailChartsTheLedgersDailyAveragesWithGaps() async throws {
    let fixture = try Self.fixture()
    let board = try require(await fixture.run(.loadBoard(currency: "USD", refresh: false)).boards.last)
    let row = try require(board.rows.first { $0.id == "USD-LBP" })
    let events = await fixture.run(.loadDetail(row: row, currency: "LBP", days: 30))
    let detail = try require(events.details.last)
    expectEqual(detail.series.source, .ledger)
    let days = detail.series.chartPoints
    expect(days.count == 30 && days.last?.date == Day(containing: fixedNow))
    // Four days with exchanges, 26 gaps; the day's average as `ledger stats` has it.
    expectEqual(
      days.filter { !$0.rate.isNaN }.map(\.date.description),
      [
        "2024-06-03", "2024-06-07", "2024-06-08", "2024-06-09",
      ])
    expectEqual(days.first { $0.date.description == "2024-06-07" }?.rate, 89_000)
    expectEqual(fixture.requests().count, 2, "no request for the detail")

    var state = S.state(board: board, lists: HomeLists(pairs: [Self.street]))
    _ = state.openDetail(row)
    _ = state.handle(.detail(detail))
    _ = state.handle(.status(.idle))
    try F.checkGolden(state, "detail-street.80x24", 80, 24)
  }
}
