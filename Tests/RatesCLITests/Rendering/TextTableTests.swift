import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct TextTableTests {
  static let table = TextTable(
    columns: [
      .init("Pair", priority: TextTable.required), .init("Name", fit: .shrinks, priority: 1),
      .init("Rate", alignment: .right, priority: TextTable.required),
      .init("24h", alignment: .right),
    ],
    rows: [
      ["BTC/EUR", "Bitcoin", "85,999.00", "+1.23%"],
      ["ETH/EUR", "Ethereum Classic Long", "3,012.50", "-0.45%"],
      ["JPY/EUR", "日本円", "0.006123", "+0.00%"],
    ])

  @Test func alignsColumnsWithTwoSpaces() {
    let lines = Self.table.render(maxWidth: 80, ascii: false)
    expectEqual(
      lines,
      [
        "Pair     Name                            Rate     24h",
        "BTC/EUR  Bitcoin                85,999.00      +1.23%",
        "ETH/EUR  Ethereum Classic Long   3,012.50      -0.45%",
        "JPY/EUR  日本円                      0.006123  +0.00%",
      ])
  }

  @Test(arguments: [20, 30, 40, 45, 49, 50])
  func neverWiderThanMaxWidth(maxWidth: Int) {
    for ascii in [false, true] {
      for line in Self.table.render(maxWidth: maxWidth, ascii: ascii) {
        expect(TerminalText.displayWidth(line) <= maxWidth, "\(line)")
      }
    }
  }

  @Test func shortensNamesBeforeDroppingColumns() {
    // Natural width 53; at 45 the Name column (21) loses 8 columns to become 13.
    let lines = Self.table.render(maxWidth: 45, ascii: false)
    expectEqual(lines[2], "ETH/EUR  Ethereum Cla…   3,012.50      -0.45%")
    expectEqual(lines[1], "BTC/EUR  Bitcoin        85,999.00      +1.23%")
    let ascii = Self.table.render(maxWidth: 45, ascii: true)
    expectEqual(ascii[2], "ETH/EUR  Ethereum C...   3,012.50      -0.45%")
  }

  @Test func dropsTheLowestPriorityColumnWhenNamesAreShortEnough() {
    // Name at its narrowest (6) still leaves 38 columns: 24h (priority 0) goes, and Name
    // takes back the room it leaves.
    let lines = Self.table.render(maxWidth: 34, ascii: false)
    expectEqual(lines[0], "Pair     Name                 Rate")
    expectEqual(lines[2], "ETH/EUR  Ethereum …   3,012.50")
    expectEqual(lines[3], "JPY/EUR  日本円           0.006123")
    // Narrower still: Name goes too; the required Pair and Rate stay whole.
    expectEqual(Self.table.render(maxWidth: 24, ascii: false)[1], "BTC/EUR  85,999.00")
  }

  /// A name that keeps 12 columns: shortened to 12 before 24h drops, to 6 only before it
  /// drops itself; and the columns left out are named.
  @Test func aNameThatKeepsSomeWidthIsShortenedToItOnlyBeforeOthersDrop() {
    var table = Self.table
    table.columns[1] = .init("Name", fit: .shortens(keeping: 12), priority: 1)
    // Natural 53: the name (21) gives 8 at 45, as `.shrinks` would.
    expectEqual(table.render(maxWidth: 45, ascii: false), Self.table.render(maxWidth: 45, ascii: false))
    // At 40 it would need to go to 8, below 12: 24h goes instead, and the name takes the room.
    let forty = table.renderNotingHidden(maxWidth: 40, ascii: false)
    expectEqual(forty.lines[0], "Pair     Name                       Rate")
    expectEqual(forty.lines[2], "ETH/EUR  Ethereum Classi…   3,012.50")
    expectEqual(forty.hidden, ["24h"])
    // `.shrinks` drops 24h only below 6 columns for the name.
    expect(Self.table.renderNotingHidden(maxWidth: 40, ascii: false).hidden.isEmpty)
    // At 24 the name, now its turn to go, first tries 6 columns, then goes.
    let narrow = table.renderNotingHidden(maxWidth: 24, ascii: false)
    expectEqual(narrow.lines[1], "BTC/EUR  85,999.00")
    expectEqual(narrow.hidden, ["Name", "24h"])
    expectEqual(table.render(maxWidth: 34, ascii: false)[2], "ETH/EUR  Ethereum …   3,012.50")
  }

  @Test func wholeColumnsAreNeverCut() {
    let table = TextTable(
      columns: [.init("COIN", priority: TextTable.required), .init("NOTE")],
      rows: [["USDT", "a long note that does not fit"]])
    expectEqual(table.render(maxWidth: 20, ascii: false), ["COIN", "USDT"])
  }

  @Test func numbersLineUpOnTheirDecimalPoint() {
    let table = TextTable(
      columns: [.init("COIN"), .init("PRICE", alignment: .right)],
      rows: [["BTC", "66,012.25"], ["XRP", "0.5252"], ["LTC", "83.900"], ["N", "28"], ["X", "—"]])
    expectEqual(
      table.render(maxWidth: 80, ascii: false),
      [
        "COIN        PRICE",
        "BTC   66,012.25",
        "XRP        0.5252",
        "LTC       83.900",
        "N         28",
        "X               —",
      ])
  }

  @Test func rightAlignedNumbersAreNeverCut() {
    let lines = Self.table.render(maxWidth: 35, ascii: false)
    expect(lines[1].hasSuffix("85,999.00"))
    expect(lines.allSatisfy { TerminalText.displayWidth($0) <= 35 })
  }

  @Test func colouredCellsStillAlign() {
    let style = Style(enabled: true)
    var table = TextTable(columns: [.init("A"), .init("B", alignment: .right)])
    table.append(["x", style.green("+1.00")])
    table.append(["y", "-10.00"])
    let lines = table.render(maxWidth: 80, ascii: false)
    expectEqual(lines[1], "x   \u{1B}[32m+1.00\u{1B}[39m")
    expectEqual(lines[2], "y  -10.00")
  }

  @Test func shortRowsAndNoHeader() {
    let table = TextTable(
      columns: [.init("A"), .init("B")], rows: [["only"]], showsHeader: false)
    expectEqual(table.render(maxWidth: 80, ascii: false), ["only"])
    expect(TextTable(columns: []).render(maxWidth: 80, ascii: false).isEmpty)
  }
}
