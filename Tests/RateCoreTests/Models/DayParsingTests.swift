import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// ``Day/init(_:)`` reads bytes; it accepts exactly what the Character-splitting parser it
/// replaces accepted, with the same day.
@Suite struct DayParsingTests {
  /// The previous parser, kept as the reference.
  static func legacyDay(_ text: some StringProtocol) -> Day? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    return Day(year: year, month: month, day: day)
  }

  static let texts = [
    "2026-05-28", "0000-01-01", "9999-12-31", "2024-02-29", "2023-02-29", "2024-02-30",
    "2024-13-01", "2024-00-10", "2024-01-00", "2024-1-01", "24-01-01", "2024-01-01 ",
    " 2024-01-01", "2024-01-01T00:00:00Z", "2024/01/01", "2024--01-01", "-2024-01-01",
    "+2024-01-01", "２０２４-01-01", "٢٠٢٤-01-01", "2024-0\u{661}-01", "2024-01-0\u{301}1",
    "2024-01-01\u{301}", "2024-\u{301}01-01", "2024-01-01\r\n", "", "-", "--", "2024-01-",
    "abcd-ef-gh", "1e10-01-01",
  ]

  @Test func acceptsExactlyWhatTheCharacterParserAccepted() {
    var generator = SeededGenerator(state: 2026)
    let alphabet = ["0", "1", "2", "9", "-", " ", "a", "\u{301}", "\r\n", "١", "５", "+", "T"]
    var texts = Self.texts
    for _ in 0..<20_000 {
      let length = Int.random(in: 8...11, using: &generator)
      texts.append(
        (0..<length).map { index in
          Int.random(in: 0..<6, using: &generator) == 0 || index == 4 || index == 7
            ? alphabet.randomElement(using: &generator) ?? "-"
            : String(Int.random(in: 0...9, using: &generator))
        }.joined())
    }
    for text in texts {
      expectEqual(Day(text), Self.legacyDay(text), "\(text.debugDescription)")
      let padded = "x" + text + "y"
      let inner = padded.dropFirst().dropLast()
      expectEqual(Day(inner), Self.legacyDay(inner), "substring \(text.debugDescription)")
    }
  }
}
