import Foundation
import Testing

@testable import RateCore
@testable import RatesCLI
import RatesTestSupport

@Suite struct ExplorerSessionTests {
  /// Runs a session on `events` and returns its outcome and everything it wrote.
  static func run(
    _ events: [TerminalEvent], rates: [Double] = [1, 2, 3, 4],
    size: @escaping @Sendable () -> (columns: Int, rows: Int) = { (60, 20) }
  ) async -> (ExplorerOutcome, [String], ExplorerState) {
    let writes = Recorder<String>()
    var session = ExplorerSession(
      state: ExplorerState(series: ExplorerStateTests.series(rates)),
      style: Style(enabled: false), ascii: false, size: size,
      screen: TerminalScreen(write: { writes.append($0) }))
    let stream = AsyncStream<TerminalEvent> { continuation in
      for event in events { continuation.yield(event) }
      continuation.finish()
    }
    let outcome = await session.run(events: stream)
    return (outcome, writes.all, session.state)
  }

  @Test func entersDrawsMovesAndLeaves() async {
    let (outcome, writes, state) = await Self.run([
      .keys([.character("h"), .left]), .keys([.character("q")]),
    ])
    #expect(outcome == .quit)
    #expect(state.cursor == 1)
    #expect(writes.first == "\u{1B}[?1049h\u{1B}[?25l")
    #expect(writes.last == "\u{1B}[?25h\u{1B}[?1049l")
    #expect(writes.count == 4, "enter, first frame, one frame for both moves, leave")
    let frame = writes[2]
    #expect(frame.hasPrefix("\u{1B}[H"))
    #expect(frame.hasSuffix("\u{1B}[J"))
    #expect(frame.contains("\u{1B}[K\r\n"))
    #expect(frame.contains("2024-03-02  \(RateFormat.rate(2)) EUR"))
    #expect(!frame.hasSuffix("\n\u{1B}[J"), "no newline after the last line")
  }

  @Test func keysThatChangeNothingDoNotRedraw() async {
    let (_, writes, _) = await Self.run([
      .keys([.character("l"), .character("G"), .character("x"), .up, .end]),
      .keys([.character("Q")]),
    ])
    #expect(writes.count == 3)
  }

  @Test func escapeQuits() async {
    let (outcome, writes, _) = await Self.run([.keys([.escape]), .keys([.left])])
    #expect(outcome == .quit)
    #expect(writes.last == "\u{1B}[?25h\u{1B}[?1049l")
  }

  @Test func theEndOfTheEventsEndsTheSession() async {
    let (outcome, writes, state) = await Self.run([.keys([.left])])
    #expect(outcome == .inputClosed)
    #expect(state.cursor == 2)
    #expect(writes.last == "\u{1B}[?25h\u{1B}[?1049l")
  }

  @Test func ctrlCInterrupts() async {
    let (outcome, writes, _) = await Self.run([.keys([.character("g"), .interrupt, .right])])
    #expect(outcome == .interrupted)
    #expect(writes.last == "\u{1B}[?25h\u{1B}[?1049l")
  }

  @Test func signalsAndEndOfInputLeaveTheScreen() async {
    for (event, expected) in [
      (TerminalEvent.signal(15), ExplorerOutcome.signal(15)), (.inputClosed, .inputClosed),
    ] {
      let (outcome, writes, _) = await Self.run([event, .keys([.character("q")])])
      #expect(outcome == expected)
      #expect(writes.last == "\u{1B}[?25h\u{1B}[?1049l")
    }
  }

  @Test func resizeRedrawsAtTheNewWidth() async {
    let widths = Recorder<Int>()
    let (_, writes, _) = await Self.run(
      [.redraw, .keys([.character("q")])],
      size: {
        widths.append(0)
        return widths.count == 1 ? (80, 20) : (40, 12)
      })
    #expect(writes.count == 4)
    let lines = writes[2].split(separator: "\r\n")
    #expect(lines.count == 12)
    for line in lines {
      #expect(TerminalText.displayWidth(String(line)) <= 40)
    }
  }
}
