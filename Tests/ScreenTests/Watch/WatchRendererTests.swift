import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct WatchRendererTests {
  static func state() -> WatchState {
    var btc = WatchItem(base: "BTC", quote: "USD", source: .provider(.coinGecko), changePeriod: "24h")
    btc.rate = 66_012.25
    btc.previousRate = 65_999.75
    btc.change24hPercent = 1.234
    btc.history = [60_000, 61_000, 62_500, 61_800, 64_000, 65_000]
    btc.seen = [65_999.75, 66_012.25]
    btc.fetchedAt = fixedNow
    btc.highlight = true
    var gbp = WatchItem(base: "GBP", quote: "USD", source: .provider(.frankfurter), changePeriod: "1d")
    gbp.rate = 1.2634
    gbp.change24hPercent = -0.12
    gbp.history = [1.27, 1.265, 1.262, 1.2634]
    gbp.stale = true
    gbp.fetchedAt = fixedNow.addingTimeInterval(-120)
    var eth = WatchItem(base: "ETH", quote: "USD", source: .provider(.coinGecko), changePeriod: "24h")
    eth.rate = 3_568.9
    eth.alert = "ETH>3000"
    eth.newAlert = "ETH>3000"
    eth.fetchedAt = fixedNow
    var state = WatchState(items: [btc, gbp, eth], now: fixedNow, interval: 30, budgetPerMinute: 4)
    state.lastUpdate = fixedNow
    state.nextUpdate = fixedNow.addingTimeInterval(25)
    state.requestsLastMinute = 2
    state.lastError = "CoinGecko rate limit reached: retry in 30 s"
    state.lastErrorAt = fixedNow.addingTimeInterval(-60)
    state.updates = 3
    return state
  }

  /// An update draws over the last frame; a redraw (a resize, `fg`) draws whole, at the new
  /// width, on a cleared screen.
  @Test func aRedrawClearsTheScreenAndUsesTheNewWidth() {
    let writes = Recorder<String>()
    let width = Recorder<Int>()
    width.append(80)
    let screen = TerminalScreen(write: { writes.append($0) })
    let board = WatchBoard(screen: screen, width: { width.all.last ?? 80 }, style: Style(enabled: false), ascii: false)
    screen.enter()
    board.draw(Self.state())
    width.append(50)
    board.redraw()
    let frames = writes.all.filter { $0.hasPrefix("\u{1B}[H") }
    expectEqual(frames.count, 2)
    expect(!(frames.first ?? "").contains("\u{1B}[2J"), "an update is drawn in place")
    expectEqual(frames.last?.hasPrefix(TerminalScreen.clearSequence), true, "\(frames)")
    let lines = (frames.last ?? "").split(separator: "\r\n").map { TableLayout.withoutEscapes(String($0)) }
    expect(lines.allSatisfy { TerminalText.displayWidth($0) <= 50 }, "\(lines)")
  }

  @Test(arguments: [40, 80, 120])
  func fitsTheWidthWithAndWithoutColour(_ width: Int) {
    for color in [false, true] {
      let lines = WatchRenderer.render(Self.state(), width: width, style: Style(enabled: color))
      let text = lines.joined(separator: "\n")
      for line in lines {
        expect(TerminalText.displayWidth(line) <= width, "\(width): \(line)")
      }
      expectEqual(text.contains("\u{1B}["), color)
      expect(text.contains("BTC/USD") && text.contains("GBP/USD") && text.contains("ETH/USD"))
      expectContains(text, "66,012.25")
      expectContains(text, "ALERT ETH>3000")
      let status = lines.last ?? ""
      expect(status.contains("next update in 25 s") || width < 80)
    }
  }

  @Test func wideBoardShowsEveryColumn() {
    let lines = WatchRenderer.render(Self.state(), width: 120, style: Style(enabled: false))
    expect(lines[0].hasPrefix("rates watch · every 30 s · updated "))
    expect(lines[1].contains("PAIR") && lines[1].contains("CHANGE") && lines[1].contains("TREND"))
    let btc = lines[2]
    expect(btc.contains("+12.50") && btc.contains("+1.23% 24h") && btc.contains("▁"))
    expect(lines[3].contains("stale") && lines[3].contains("-0.12% 1d"))
    expectContains(lines[4], "ALERT")
    let status = lines.last ?? ""
    expect(
      status.hasPrefix(
        "next update in 25 s · 2/4 requests in the last minute · last error at "
          + ScreenText.clock(fixedNow.addingTimeInterval(-60)) + ": CoinGecko rate limit reached"))
    expect(TerminalText.displayWidth(status) == 120 && status.hasSuffix("…"))
  }

  @Test func narrowBoardDropsColumnsButKeepsPriceAndTrend() {
    let lines = WatchRenderer.render(Self.state(), width: 40, style: Style(enabled: false))
    expect(!lines[1].contains("CHANGE"))
    expect(lines[2].contains("66,012.25") && lines[2].contains("+1.23%"))
    expect(lines[2].contains("▁") || lines[2].contains("█"))
  }

  @Test func colourHighlightsChangesAndAlerts() {
    let lines = WatchRenderer.render(Self.state(), width: 120, style: Style(enabled: true))
    expectContains(lines[2], "\u{1B}[7m")  // the changed price, reversed
    expectContains(lines[4], "\u{1B}[7m")  // the alert mark
    expect(!lines[3].contains("\u{1B}[7m"))
    let ascii = WatchRenderer.render(Self.state(), width: 120, style: Style(enabled: false), ascii: true)
    expect(ascii.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
  }

  @Test func plainLinesAndJSON() throws {
    let state = Self.state()
    let line = WatchRenderer.plainLine(state.items[0], at: fixedNow)
    expectEqual(line, "\(ISO8601.format(fixedNow)) BTC/USD 66,012.25 +12.50 +1.23% 24h CoinGecko")
    expectEqual(WatchRenderer.plainLine(state.items[1], at: fixedNow)?.hasSuffix("Frankfurter (ECB) stale"), true)
    expectEqual(WatchRenderer.plainLine(state.items[2], at: fixedNow)?.hasSuffix("alert ETH>3000"), true)
    let json = try require(WatchRenderer.JSONLine(state.items[2], now: fixedNow))
    let text = String(decoding: try JSONCoders.encoder().encode(json), as: UTF8.self)
    expectEqual(
      text,
      #"{"alert":"ETH>3000","base":"ETH","changePercent":null,"changePeriod":"24h","fetchedAt":"\#(ISO8601.format(fixedNow))","old":false,"quote":"USD","rate":3568.9,"source":"coingecko","stale":false,"updatedAt":null}"#
    )
    let plain = try require(WatchRenderer.JSONLine(state.items[0], now: fixedNow))
    expect(!String(decoding: try JSONCoders.encoder().encode(plain), as: UTF8.self).contains("alert"))
  }

  @Test func aPriceNotUpdatedForTwoHoursIsOldInTheNDJSON() throws {
    var item = Self.state().items[0]
    item.updatedAt = fixedNow.addingTimeInterval(-7200)
    expect(try require(WatchRenderer.JSONLine(item, now: fixedNow)).quote.old)
    item.updatedAt = fixedNow.addingTimeInterval(-60)
    expectEqual(try require(WatchRenderer.JSONLine(item, now: fixedNow)).quote.old, false)
  }

  @Test func framesAreOneWriteInPlace() {
    let frame = TerminalScreen.frame(["a", "b"], width: 80)
    expectEqual(frame, "\u{1B}[Ha\u{1B}[K\r\nb\u{1B}[K\u{1B}[J")
  }
}
