import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

/// The market table's drop order (``HomeRenderer/marketColumns``): empty columns first, a
/// long name shortened before any column drops, the sorted column kept to the last, names
/// never blank. Whole frames at fixed widths are in ``HomeListGoldenTests``.
@Suite struct HomeColumnDropTests {
  typealias S = HomeListSupport
  typealias M = HomeMarketTableTests

  static let everyTitle = ["#", "Coin", "Name", "Price", "1h", "24h", "7d", "Market cap", "Volume", "7 days"]

  static func header(_ lines: [String]) -> String {
    lines.first { $0.contains("Price") } ?? ""
  }

  @Test func aTwoHundredCharacterNameIsShortenedAndEveryColumnStaysAt120() throws {
    var long = S.coin(.coin, "long-name", "LONG", String(repeating: "Verylongname ", count: 16), 12.5, 1)
    long.market = HomeMarketFigures(rank: 77, change1h: 0.5, change7d: -3, marketCap: 1_250_000, volume: 90_000)
    let state = M.state(top: 20, own: [long])
    let lines = M.frame(state, 120, 40)
    let header = Self.header(lines)
    for title in Self.everyTitle {
      expectContains(header, title, "\(title) at 120: \(header)")
    }
    let row = try require(lines.first { $0.contains("LONG") })
    expect(row.contains("Verylongname Verylongname") && row.contains("…"), "the name shortened: \(row)")
    expect(row.contains("77") && row.contains("1.25M") && row.contains("90.00K"), "\(row)")
    expect(lines.allSatisfy { TerminalText.displayWidth($0) <= 120 })
    // Other rows keep their rank, 1h and volume.
    let first = try require(lines.first { $0.contains("C1 ") })
    expectContains(first, "1.00K")
  }

  @Test(arguments: ["", "   ", "\u{1B}[2J"])
  func anEmptyNameShowsTheSymbol(name: String) throws {
    let blank = S.coin(.coin, "nameless", "NMLS", name, 3.25, 1)
    let state = M.state(top: 3, own: [blank])
    for width in [160, 80] {
      let row = try require(M.frame(state, width, 24).first { $0.contains("NMLS") })
      expectEqual(row.components(separatedBy: "NMLS").count, 3, "symbol and name at \(width): \(row)")
    }
  }

  /// Only 24 h changes and sparklines known (a fresh list before market figures arrive):
  /// at 80 columns the empty 1h, 7d, market cap and volume go, the sparkline stays.
  @Test func emptyColumnsGoFirst() {
    let state = S.state()
    let header = Self.header(M.frame(state, 80, 24))
    for title in ["1h", "7d", "Market cap", "Volume"] {
      expect(!header.contains(title), "\(title) is empty: \(header)")
    }
    expect(header.contains("7 days") && header.contains("Name"), "\(header)")
    // With room, empty columns stay: the header row names every column.
    let wide = Self.header(M.frame(state, 160, 24))
    expect(Self.everyTitle.allSatisfy { wide.contains($0) }, "\(wide)")
  }

  /// For every sort key and every width from 40 to 160: the sorted column and its mark stay
  /// whenever the symbol, price and 24h leave room for it.
  @Test(arguments: HomeSort.Column.allCases)
  func theSortedColumnStaysAtEveryWidth(column: HomeSort.Column) throws {
    var state = M.state(top: 30)
    _ = S.press(.character(column.key), on: &state)
    let title = try require(HomeRenderer.marketColumns.first { $0.sort == column }).title
    let mark = state.sort.descending ? "▼" : "▲"
    for width in stride(from: 50, through: 160, by: 10) {
      let header = Self.header(M.frame(state, width, 24))
      expect(header.contains(title + mark), "\(column) at \(width): \(header)")
    }
  }

  /// Sorted by 24h (a column that never drops): as the window narrows from 160 to 40, the
  /// columns go in the stated order, and the name stays, shortened.
  @Test func columnsDropInTheStatedOrderAndTheNameStays() throws {
    var state = M.state(top: 30, own: [S.coin(.coin, "long", "LNG", "A rather long coin name", 5, 1)])
    _ = S.press(.character("D"), on: &state)
    let order = ["7 days", "Volume", "1h", "Market cap", "7d", "#"]
    var gone: [String] = []
    for width in stride(from: 160, through: 40, by: -1) {
      let header = Self.header(M.frame(state, width, 40))
      for title in order where !gone.contains(title) && !header.contains(title) { gone.append(title) }
      expectContains(header, "Name", "at \(width): \(header)")
    }
    expectEqual(gone, order)
  }
}

/// The keys screen pairs every sort key with the title of the column it sorts.
@Suite struct HomeHelpSortKeysTests {
  @Test(arguments: [(80, 24), (120, 40), (40, 30)])
  func everySortKeyIsNamedWithItsColumn(width: Int, height: Int) {
    var state = HomeListSupport.state()
    _ = state.handle(.key(.character("?")))
    let text = HomeRenderer.render(state, width: width, height: height, style: Style(enabled: false), ascii: false)
      .joined(separator: "\n")
    for column in HomeRenderer.marketColumns {
      guard let sort = column.sort else { continue }
      expect(
        text.contains("\(sort.key) \(column.title)  ") || text.contains("\(sort.key) \(column.title)\n"),
        "\(sort.key) with \(column.title) at \(width): \(text)")
    }
  }
}
