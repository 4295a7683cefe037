import RatesExpectations
import Testing

@testable import RateCore
@testable import RatesCLI

/// Notices carry names from the provider and the user: none reaches stderr raw.
@Suite struct NoticeTextTests {
  static let hostile = "evil\u{1B}]52;c;aGk=\u{07}\u{1B}[2J"

  @Test(arguments: [
    Notice.ambiguousSymbol(symbol: hostile, chosen: hostile, alternatives: [hostile]),
    .dataEndsEarly(
      provider: .provider(.coinGecko), pair: hostile,
      newest: Day(containing: Date(timeIntervalSince1970: 1_704_153_600)), days: 7),
  ])
  func outsideTextIsSanitized(notice: Notice) {
    let line = NoticeText.line(notice)
    expect(!line.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(line)")
    expectContains(line, "evil")
  }
}
