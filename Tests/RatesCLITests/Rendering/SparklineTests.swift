import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

@Suite struct SparklineTests {
  @Test func scalesMinimumToMaximum() {
    // 0...7 maps one to one onto the 8 levels.
    let values: [Double] = [0, 1, 2, 3, 4, 5, 6, 7]
    expectEqual(Sparkline.render(values, ascii: false), "▁▂▃▄▅▆▇█")
    expectEqual(Sparkline.render(values, ascii: true), "_.:-=+*#")
  }

  @Test func roundsToTheNearestLevel() {
    // Range 0...70, step 10 per level: 14 -> 1.4 -> level 1, 16 -> 1.6 -> level 2.
    expectEqual(Sparkline.render([0, 14, 16, 70], ascii: false), "▁▂▃█")
  }

  @Test func equalValuesSitInTheMiddle() {
    expectEqual(Sparkline.render([3, 3, 3], ascii: false), "▄▄▄")
    expectEqual(Sparkline.render([2.5, 2.5], ascii: true), "--")
  }

  @Test func edgeCases() {
    expectEqual(Sparkline.render([], ascii: false), "")
    expectEqual(Sparkline.render([1], ascii: true), "-")
    expectEqual(Sparkline.render([1, .nan, 3], ascii: false), "▁ █")
    expectEqual(Sparkline.render([.nan], ascii: false), " ")
  }

  @Test func oneCharacterPerValue() {
    let values = (0..<100).map { Double($0 % 17) * 1.5 }
    expectEqual(Sparkline.render(values, ascii: false).count, 100)
    expect(Sparkline.render(values, ascii: true).unicodeScalars.allSatisfy { $0.isASCII })
  }
}
