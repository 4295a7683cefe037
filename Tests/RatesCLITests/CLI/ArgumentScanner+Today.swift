import RateCore

@testable import RatesCLI

extension ArgumentScanner {
  /// A scanner for a test that reads no day option as `today` or `yesterday`: today is day
  /// 20,000 (2024-10-04).
  init(_ arguments: [String]) {
    self.init(arguments, today: Day(daysSinceEpoch: 20_000))
  }
}
