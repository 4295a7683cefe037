import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// Whole frames of the home list, favorites and keys screens at fixed sizes, pinned under
/// `Golden/Home/` (`RATES_UPDATE_GOLDEN=1 swift test --filter Golden` rewrites them).
@Suite struct HomeListGoldenTests {
  typealias S = HomeListSupport

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var width: Int
    var height: Int
    var color = false
    var ascii = false
    var state: @Sendable () -> HomeState

    var file: String {
      "Home/\(name).\(width)x\(height)\(color ? ".color" : "")\(ascii ? ".ascii" : "").txt"
    }
    var testDescription: String { file }
  }

  /// The list with the cursor on Kaspa and Ethereum's price just changed.
  static func list() -> HomeState {
    var state = S.state()
    _ = S.press(.end, .up, .up, .up, on: &state)
    var rows = S.board().rows
    rows[1].rate = 3_571.15
    _ = state.handle(.board(S.board(rows)))
    return state
  }

  static func loading() -> HomeState {
    var state = S.state(board: nil)
    _ = state.handle(.status(.loading))
    return state
  }

  /// Two-hour-old cached data, no own coins or pairs, and a rate-limit pause.
  static func staleAndLimited() -> HomeState {
    var state = S.state(
      board: S.board(S.topRows, fetchedAt: S.now.addingTimeInterval(-7_200), stale: true),
      lists: HomeLists())
    _ = state.handle(.status(.rateLimited(until: S.now.addingTimeInterval(42))))
    return state
  }

  static func failed() -> HomeState {
    var state = S.state()
    _ = state.handle(.status(.failed("CoinGecko could not be reached\n(offline?)")))
    return state
  }

  static func favorites() -> HomeState {
    var state = S.state()
    state.lists.favorites.append(S.favorite("dogecoin", "DOGE", "Dogecoin"))
    _ = S.press(.tab, .down, on: &state)
    return state
  }

  static func noFavorites() -> HomeState {
    var state = S.state(lists: HomeLists())
    _ = S.press(.tab, on: &state)
    return state
  }

  static func help() -> HomeState {
    var state = S.state()
    _ = S.press(.character("?"), on: &state)
    return state
  }

  /// A hundred own coins, scrolled to the end.
  static func long() -> HomeState {
    let own = (0..<100).map { S.coin(.coin, "coin-\($0)", "C\($0)", "Coin number \($0)", Double($0) + 0.5, 1) }
    var state = S.state(board: S.board(S.topRows + own + S.pairRows))
    state.pageSize = HomeRenderer.pageSize(height: 24)
    state.moveCursor(to: 98)
    return state
  }

  /// The market table: the top 40 with every figure (Bitcoin also one of your coins, listed
  /// once, and starred), a pair, sorted by 24 h change, largest first.
  static func market() -> HomeState {
    let top =
      S.topRows.enumerated().map { index, row -> HomeRow in
        var row = row
        row.market = HomeMarketFigures(
          rank: index + 1, change1h: Double(index) / 10 - 0.2, change7d: Double(index * 3) - 4.5,
          marketCap: row.rate.map { $0 * 19_700_000 / Double(index + 1) },
          volume: row.rate.map { $0 * 400_000 / Double(index + 1) })
        return row
      }
      + HomeMarketTableTests.topRows(40).dropFirst(5).map { row in
        var row = row
        row.market.rank = (row.market.rank ?? 0)
        return row
      }
    var bitcoin = top[0]
    bitcoin.kind = .coin
    let lists = HomeLists(
      coins: [S.favorite("bitcoin", "BTC", "Bitcoin")],
      favorites: [S.favorite("bitcoin", "BTC", "Bitcoin"), S.favorite("binancecoin", "BNB", "BNB")],
      pairs: [ConfiguredPair(base: "GBP", quote: "USD", addedAt: S.now)])
    var state = S.state(board: S.board(top + [bitcoin] + [S.pairRows[0]]), lists: lists)
    _ = S.press(.character("D"), .down, .down, on: &state)
    return state
  }

  /// The market table sorted by `key`'s column (pressed `times`: twice reverses), the cursor
  /// on the first row: at 80 columns the sorted column stays, whatever its place in the
  /// drop order.
  static func market(sortedBy key: Character, times: Int = 1) -> @Sendable () -> HomeState {
    {
      var state = market()
      for _ in 0..<times { _ = S.press(.character(key), on: &state) }
      _ = S.press(.home, on: &state)
      return state
    }
  }

  static let sizes = [(80, 24), (40, 12), (120, 40)]

  static let cases: [Case] =
    sizes.flatMap { width, height in
      [
        Case(name: "list", width: width, height: height, state: list),
        Case(name: "list", width: width, height: height, color: true, state: list),
        Case(name: "list", width: width, height: height, ascii: true, state: list),
        Case(name: "help", width: width, height: height, state: help),
      ]
    } + [
      Case(name: "loading", width: 80, height: 24, state: loading),
      Case(name: "stale-limited", width: 80, height: 24, state: staleAndLimited),
      Case(name: "stale-limited", width: 40, height: 12, color: true, state: staleAndLimited),
      Case(name: "failed", width: 80, height: 24, color: true, state: failed),
      Case(name: "favorites", width: 80, height: 24, state: favorites),
      Case(name: "favorites", width: 40, height: 12, color: true, ascii: true, state: favorites),
      Case(name: "favorites-empty", width: 80, height: 24, state: noFavorites),
      Case(name: "help", width: 40, height: 12, ascii: true, state: help),
      Case(name: "long", width: 80, height: 24, state: long),
      Case(name: "market", width: 80, height: 24, state: market),
      Case(name: "market", width: 160, height: 48, state: market),
      Case(name: "market", width: 160, height: 48, color: true, state: market),
      Case(name: "market-by-volume", width: 80, height: 24, state: market(sortedBy: "V")),
      Case(name: "market-by-1h", width: 80, height: 24, state: market(sortedBy: "H")),
      Case(name: "market-by-7d", width: 80, height: 24, state: market(sortedBy: "W", times: 2)),
      Case(name: "market-by-name", width: 60, height: 20, state: market(sortedBy: "N")),
      Case(name: "market-by-volume", width: 60, height: 20, state: market(sortedBy: "V")),
    ]

  @Test(arguments: cases)
  func frame(_ golden: Case) throws {
    let lines = HomeRenderer.render(
      golden.state(), width: golden.width, height: golden.height,
      style: Style(enabled: golden.color), ascii: golden.ascii)
    expectEqual(lines.count, golden.height)
    expect(lines.allSatisfy { TerminalText.displayWidth($0) <= golden.width })
    let problem = try GoldenFile.files.problem(with: lines.joined(separator: "\n") + "\n", named: golden.file)
    #expect(problem == nil, Comment(rawValue: problem ?? ""))
  }

  /// Every file under `Golden/Home/` named `home`-less belongs to a case of this suite.
  @Test func noStrayFrames() throws {
    let directory = GoldenFile.directory.appendingPathComponent("Home")
    let present = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    let mine = present.filter { name in
      ["list.", "help.", "loading.", "stale-limited.", "failed.", "favorites", "long.", "market"].contains {
        name.hasPrefix($0)
      }
    }
    expectEqual(Set(mine), Set(Self.cases.map { String($0.file.dropFirst(5)) }))
  }
}
