import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// The day store through the commands: a corrupt days file is reported in one line, kept
/// aside and rewritten.
@Suite struct DayStoreRecoveryTests {
  @Test(arguments: ["garbage", "truncated", "absurd header"])
  func aCorruptDaysFileIsReportedOnceKeptAsideAndRewritten(_ damage: String) async throws {
    let (cli, _) = try CLIHarness.withFakeAPI()
    expectEqual(await cli.run(["history", "GBP", "USD", "--days", "10"]).status, 0)
    let store = DayStore(directory: cli.home.appendingPathComponent("cache/rates"))
    let key = "frankfurter/gbp-usd"
    let url = store.fileURL(key: key)
    let sound = try Data(contentsOf: url)
    var bad: Data
    switch damage {
    case "garbage": bad = Data("not a days file at all".utf8)
    case "truncated": bad = sound.prefix(sound.count / 2)
    default:
      bad = sound
      bad.replaceSubrange(12..<16, with: [0x00, 0x00, 0x00, 0x40])  // a billion days
    }
    try bad.write(to: url)

    let result = await cli.run(["history", "GBP", "USD", "--days", "10"])
    expectEqual(result.status, 0, "\(result.stderr)")
    let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
    expectEqual(warnings.count, 1, "\(result.stderr)")
    expectEqual(warnings.first?.contains(url.path + ".corrupt"), true, "\(result.stderr)")
    expectEqual(FileManager.default.contents(atPath: url.path + ".corrupt"), bad, "kept aside")
    expect(try Data(contentsOf: url) != bad, "rewritten")
    expectEqual(store.load(key: key).1, nil)
    let again = await cli.run(["history", "GBP", "USD", "--days", "10"])
    expect(!again.stderr.contains("warning:"), "\(again.stderr)")
  }
}
