import Foundation
import Testing
@testable import RateCore
@testable import RatesCLI
import RatesTestSupport

/// `current` flags a price its provider has not updated for much longer than usual.
@Suite struct OldQuoteTests {
  @Test func aPriceNotUpdatedForTwoHoursIsFlaggedInTextAndJSON() async throws {
    let updated = Int(fixedNow.timeIntervalSince1970) - 7200
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        guard request.path.hasSuffix("/simple/price") else { return fake(request) }
        return .json(#"{"bitcoin":{"usd":50000,"usd_24h_change":1.5,"last_updated_at":\#(updated)}}"#)
      }
    }
    let json = try await rates.run(["current", "BTC", "--json", "--refresh"]).json()
    let quote = try #require((json["quotes"] as? [[String: Any]])?.first)
    #expect(quote["old"] as? Bool == true)
    let text = await rates.run(["current", "BTC", "--refresh"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("04:13 UTC (old)"), "\(text.stdout)")
  }

  @Test func aFreshPriceAndTodaysECBRateAreNotOld() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let json = try await rates.run(["current", "BTC", "GBP-USD", "--json"]).json()
    let quotes = try #require(json["quotes"] as? [[String: Any]])
    #expect(quotes.count == 2)
    #expect(quotes.allSatisfy { $0["old"] as? Bool == false })
    let text = await rates.run(["current", "BTC", "GBP-USD"])
    #expect(!text.stdout.contains("(old)"))
  }
}
