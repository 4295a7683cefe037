import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct TerminalCapabilitiesTests {
  static func decide(
    tty: Bool = true, window: Int? = 120, _ environment: [String: String] = [:],
    noColor: Bool = false, ascii: Bool = false
  ) -> TerminalCapabilities {
    TerminalCapabilities.decide(
      isTTY: tty, windowWidth: window, environment: environment, noColorFlag: noColor,
      asciiFlag: ascii)
  }

  // MARK: - width

  @Test func widthPrefersTheWindowThenColumnsThenEighty() {
    expectEqual(Self.decide(window: 132, ["COLUMNS": "100"]).width, 132)
    expectEqual(Self.decide(window: nil, ["COLUMNS": "100"]).width, 100)
    expectEqual(Self.decide(window: 0, ["COLUMNS": "100"]).width, 100)
    expectEqual(Self.decide(window: nil, ["COLUMNS": "wide"]).width, 80)
    expectEqual(Self.decide(window: nil, ["COLUMNS": "-5"]).width, 80)
    expectEqual(Self.decide(window: nil).width, 80)
    expectEqual(Self.decide(window: 8).width, 20)
    expectEqual(Self.decide(window: nil, ["COLUMNS": "10"]).width, 20)
  }

  // MARK: - unicode

  @Test(arguments: [
    ([:], true),  // nothing set: assume UTF-8
    (["LANG": "en_US.UTF-8"], true),
    (["LANG": "de_DE.utf8"], true),
    (["LANG": "C"], false),
    (["LANG": ""], false),  // set but empty: POSIX
    (["LANG": "C", "LC_CTYPE": "C.UTF-8"], true),
    (["LANG": "en_US.UTF-8", "LC_ALL": "C"], false),
    (["LANG": "en_US.UTF-8", "LC_ALL": ""], true),  // empty LC_ALL is skipped
    (["LC_ALL": "POSIX", "LC_CTYPE": "en_US.UTF-8"], false),
    (["LC_CTYPE": "en_US.ISO-8859-1"], false),
  ])
  func unicode(environment: [String: String], expected: Bool) {
    expectEqual(Self.decide(environment).unicode, expected)
  }

  @Test func asciiFlagWins() {
    expectEqual(Self.decide(["LANG": "en_US.UTF-8"], ascii: true).unicode, false)
    expectEqual(Self.decide(ascii: true).unicode, false)
  }

  // MARK: - color

  @Test func colorNeedsATerminalAndNoOptOut() {
    expect(Self.decide(["TERM": "xterm-256color"]).color)
    expectEqual(Self.decide(tty: false, ["TERM": "xterm-256color"]).color, false)
    expectEqual(Self.decide(["TERM": "xterm"], noColor: true).color, false)
    expectEqual(Self.decide(["TERM": "xterm", "NO_COLOR": "1"]).color, false)
    expect(Self.decide(["TERM": "xterm", "NO_COLOR": ""]).color)
    expectEqual(Self.decide(["TERM": "dumb"]).color, false)
    expect(Self.decide().color)
  }

  @Test func detectOnANonTerminalDescriptor() {
    // -1 is never a terminal, and the ioctl fails, so COLUMNS decides.
    let caps = TerminalCapabilities.detect(
      fileDescriptor: -1, environment: ["COLUMNS": "99", "TERM": "xterm"], noColorFlag: false,
      asciiFlag: false)
    expectEqual(caps, TerminalCapabilities(isTTY: false, width: 99, unicode: true, color: false))
  }
}

@Suite struct StyleTests {
  @Test func emitsCodesOnlyWhenEnabled() {
    let on = Style(enabled: true)
    let off = Style(enabled: false)
    expectEqual(on.red("x"), "\u{1B}[31mx\u{1B}[39m")
    expectEqual(on.green("x"), "\u{1B}[32mx\u{1B}[39m")
    expectEqual(on.yellow("x"), "\u{1B}[33mx\u{1B}[39m")
    expectEqual(on.bold("x"), "\u{1B}[1mx\u{1B}[22m")
    expectEqual(on.dim("x"), "\u{1B}[2mx\u{1B}[22m")
    for function in [off.red, off.green, off.yellow, off.bold, off.dim] {
      expectEqual(function("x"), "x")
    }
  }

  @Test func changeColoursBySign() {
    let on = Style(enabled: true)
    expectEqual(on.change("+1", value: 1), on.green("+1"))
    expectEqual(on.change("-1", value: -1), on.red("-1"))
    expectEqual(on.change("0", value: 0), "0")
    expectEqual(on.change("nan", value: .nan), "nan")
    expectEqual(Style(enabled: false).change("+1", value: 1), "+1")
  }
}
