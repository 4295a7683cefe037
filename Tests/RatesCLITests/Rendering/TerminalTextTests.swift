import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct TerminalTextTests {
  // MARK: - sanitize

  /// The one greedy packing (sparkline labels, the keys screen's sort keys, the explorer's
  /// cursor line): in order, as many to a line as fit, a wide part alone and never cut, a
  /// styled part measured without its escapes.
  @Test func packedFillsLinesInOrderAndNeverCuts() {
    expectEqual(TerminalText.packed(["ab", "cd", "ef"], separator: "  ", width: 6), ["ab  cd", "ef"])
    expectEqual(TerminalText.packed(["abcdefgh", "x"], separator: " ", width: 4), ["abcdefgh", "x"])
    expectEqual(TerminalText.packed([], separator: " ", width: 10), [])
    let bold = Style(enabled: true).bold("ab")
    expectEqual(TerminalText.packed([bold, "cd"], separator: " ", width: 5), [bold + " cd"])
  }

  @Test(arguments: [
    ("plain text", "plain text"),
    ("\u{1B}[31mred\u{1B}[0m", "red"),
    ("\u{1B}[38;5;196mX\u{1B}[m", "X"),
    ("a\u{1B}[2J\u{1B}[Hb", "ab"),  // clear screen, cursor home
    ("a\u{1B}[?25lb", "ab"),  // private-mode CSI (hide cursor)
    ("\u{1B}]0;pwned title\u{07}ok", "ok"),  // OSC set title, BEL terminated
    ("\u{1B}]8;;http://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),  // OSC 8 hyperlink
    ("\u{1B}]52;c;ZXZpbA==\u{07}x", "x"),  // OSC 52 clipboard write
    ("\u{1B}Pq#0;2;0;0;0\u{1B}\\y", "y"),  // DCS (sixel)
    ("\u{1B}_apc\u{1B}\\z", "z"),  // APC
    ("a\u{1B}7b\u{1B}8c", "abc"),  // save / restore cursor
    ("a\u{1B}(Bb", "ab"),  // charset designation with an intermediate
    ("\u{1B}cX", "X"),  // full reset
    ("x\u{9B}31my", "xy"),  // 8-bit CSI
    ("x\u{9D}0;t\u{9C}y", "xy"),  // 8-bit OSC with 8-bit ST
    ("x\u{85}y", "xy"),  // NEL, a C1 control
    ("a\u{00}b\u{07}c\u{08}d\u{7F}e", "abcde"),  // NUL, BEL, BS, DEL
    ("line1\nline2\rline3\tend", "line1 line2 line3 end"),
    ("crlf\r\nnext", "crlf next"),
    ("sep\u{2028}para\u{2029}end", "sep para end"),
    ("\u{202E}evil\u{202C}", "evil"),  // RLO ... PDF
    ("\u{2066}a\u{2067}b\u{2068}c\u{2069}", "abc"),  // isolates
    ("\u{202A}\u{202B}\u{202D}x", "x"),
    ("trailing\u{1B}", "trailing"),  // lone ESC at the end
    ("\u{1B}[31", ""),  // unterminated CSI
    ("keep\u{1B}]0;never terminated", "keep"),  // unterminated OSC swallows the rest
    ("\u{1B}\u{1B}[1mx", "x"),  // ESC ESC
    ("\u{1B}[31\u{1B}[32mx", "x"),  // CSI interrupted by ESC
    ("\u{1B}[1é", "é"),  // CSI interrupted by a non-ASCII letter
    ("日本語 €", "日本語 €"),
    ("e\u{301}", "e\u{301}"),  // combining accent survives
  ])
  func sanitize(input: String, expected: String) {
    expectEqual(TerminalText.sanitize(input), expected)
  }

  /// A coin's name is never blank: the symbol stands in for an empty one (the home list,
  /// search, `top`, `coins` all show names through it).
  @Test(arguments: [
    ("Bitcoin", "BTC", "Bitcoin"), ("", "BTC", "BTC"), ("  ", "BTC", "BTC"),
    ("\u{1B}[2J", "B\u{1B}[1mTC", "BTC"), ("BNB", "BNB", "BNB"),
  ])
  func nameFallsBackToTheSymbol(name: String, symbol: String, shown: String) {
    expectEqual(TerminalText.name(name, symbol: symbol), shown)
  }

  @Test func sanitizedOutputHasNoControls() {
    var hostile = ""
    for value in 0..<0x100 {
      if let scalar = Unicode.Scalar(value) { hostile.unicodeScalars.append(scalar) }
      hostile += "x"
    }
    hostile += "\u{202E}\u{2066}\u{1B}]0;t\u{07}"
    let clean = TerminalText.sanitize(hostile)
    for scalar in clean.unicodeScalars {
      let value = scalar.value
      expect(value >= 0x20 && !(0x7F...0x9F).contains(value))
      expect(!(0x202A...0x202E).contains(value) && !(0x2066...0x2069).contains(value))
    }
  }

  // MARK: - displayWidth

  @Test(arguments: [
    ("", 0),
    ("abc", 3),
    ("85,999.00", 9),
    ("日本", 4),
    ("ｅｕｒ", 6),  // fullwidth Latin
    ("한국", 4),
    ("e\u{301}", 1),  // e + combining acute
    ("\u{1F600}", 2),  // emoji
    ("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", 2),  // ZWJ family
    ("\u{1F1EA}\u{1F1FA}", 2),  // flag EU
    ("\u{2764}\u{FE0F}", 2),  // heart with emoji presentation
    ("\u{1B}[31mred\u{1B}[0m", 3),  // escapes count 0
    ("▁▂█", 3),
    ("…", 1),
    ("a\u{200B}b", 2),  // zero-width space
  ])
  func displayWidth(text: String, width: Int) {
    expectEqual(TerminalText.displayWidth(text), width)
  }

  // MARK: - truncate and pad

  @Test func truncate() {
    expectEqual(TerminalText.truncate("Bitcoin Cash", toWidth: 8, ascii: false), "Bitcoin…")
    expectEqual(TerminalText.truncate("Bitcoin Cash", toWidth: 8, ascii: true), "Bitco...")
    expectEqual(TerminalText.truncate("short", toWidth: 5, ascii: false), "short")
    expectEqual(TerminalText.truncate("日本語テキスト", toWidth: 6, ascii: false), "日本…")
    expectEqual(TerminalText.truncate("abcdef", toWidth: 2, ascii: true), "..")
    expectEqual(TerminalText.truncate("abcdef", toWidth: 0, ascii: false), "")
    let colored = "\u{1B}[32mgreen text\u{1B}[39m"
    expectEqual(
      TerminalText.truncate(colored, toWidth: 4, ascii: false), "\u{1B}[32mgre…\u{1B}[0m")
  }

  @Test func pad() {
    expectEqual(TerminalText.pad("日本", toWidth: 6), "日本  ")
    expectEqual(TerminalText.pad("1.00", toWidth: 6, leading: true), "  1.00")
    expectEqual(TerminalText.pad("toolong", toWidth: 3), "toolong")
  }
}
