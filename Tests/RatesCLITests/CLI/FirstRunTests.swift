import Foundation
import Testing
@testable import RateCore
@testable import RatesCLI
import RatesTestSupport

/// Issue 15, the first run: offline on a fresh account, the first error's next step works.
@Suite struct FirstRunTests {
  @Test(arguments: [
    HTTPError.cannotConnect(host: "api.coingecko.com"),
    HTTPError.cannotFindHost(host: "api.coingecko.com"),
    HTTPError.timedOut(host: "api.coingecko.com", seconds: 10),
  ])
  func offlineOnAFreshAccountTheHintLeadsSomewhere(_ failure: HTTPError) async throws {
    let rates = try CLIHarness(transport: HTTPTransport { _ in throw failure })
    let first = await rates.run(["current", "BTC"])
    #expect(first.status == 69)
    // Nothing is cached on a fresh account: '--offline' would only say so.
    #expect(!first.stderr.contains("--offline"), "\(first.stderr)")
    #expect(await rates.run(["current", "BTC", "--offline"]).status == 66)
    // The step it names works with no network at all.
    #expect(first.stderr.contains("rates convert 100 EUR USD"), "\(first.stderr)")
    let next = await rates.run(["convert", "100", "EUR", "USD"])
    #expect(next.status == 0, "\(next.stderr)")
    #expect(first.stderr.contains("'rates doctor'"))
  }
}
