import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

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
    let quote = try require((json["quotes"] as? [[String: Any]])?.first)
    expectEqual(quote["old"] as? Bool, true)
    let text = await rates.run(["current", "BTC", "--refresh"])
    expectEqual(text.status, 0, "\(text.stderr)")
    expectContains(text.stdout, "04:13 UTC (old)")
  }

  @Test func aFreshPriceAndTodaysECBRateAreNotOld() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let json = try await rates.run(["current", "BTC", "GBP-USD", "--json"]).json()
    let quotes = try require(json["quotes"] as? [[String: Any]])
    expectEqual(quotes.count, 2)
    expect(quotes.allSatisfy { $0["old"] as? Bool == false })
    let text = await rates.run(["current", "BTC", "GBP-USD"])
    expect(!text.stdout.contains("(old)"))
  }
}

/// `watch` and `pairs` flag an old quote the same way, from the same rule (issue 14).
@Suite struct OldQuoteBoardTests {
  static func item(updatedAgo seconds: TimeInterval) -> WatchItem {
    var item = WatchItem(base: "BTC", quote: "USD", source: .provider(.coinGecko), changePeriod: "24h")
    item.rate = 50_000
    item.fetchedAt = fixedNow
    item.updatedAt = fixedNow.addingTimeInterval(-seconds)
    return item
  }

  /// Before: the board's row and the plain line said nothing about a two-hour-old price.
  @Test func watchBoardAndPlainLinesFlagAnOldQuote() {
    let state = WatchState(
      items: [Self.item(updatedAgo: 7_200)], now: fixedNow, interval: 30, budgetPerMinute: 4)
    let board = WatchRenderer.render(state, width: 80, style: Style(enabled: false))
    let row = board.first { $0.hasPrefix("BTC/USD") }
    expectEqual(row?.contains("old"), true, "\(board)")
    let plain = WatchRenderer.plainLine(Self.item(updatedAgo: 7_200), at: fixedNow) ?? ""
    expect(plain.hasSuffix("CoinGecko old"), "\(plain)")

    let fresh = WatchState(
      items: [Self.item(updatedAgo: 60)], now: fixedNow, interval: 30, budgetPerMinute: 4)
    let freshRow = WatchRenderer.render(fresh, width: 80, style: Style(enabled: false))
      .first { $0.hasPrefix("BTC/USD") }
    expectEqual(freshRow?.contains("old"), false)
    expectEqual(WatchRenderer.plainLine(Self.item(updatedAgo: 60), at: fixedNow)?.hasSuffix("CoinGecko"), true)
  }

  /// Before: `pairs` had no "old" key and no "(old)" mark.
  @Test func pairsFlagAnOldQuoteInTextAndJSON() async throws {
    let twoHoursAgo = ISO8601.format(fixedNow.addingTimeInterval(-7_200))
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        let reply = fake(request)
        guard request.path.hasSuffix("/coins/markets"),
          case .response(let status, let headers, let body) = reply
        else { return reply }
        let text = String(decoding: body, as: UTF8.self).replacingOccurrences(
          of: #""last_updated":"[^"]*""#, with: "\"last_updated\":\"\(twoHoursAgo)\"",
          options: .regularExpression)
        return .response(status: status, headers: headers, body: Data(text.utf8))
      }
    }
    expectEqual(await rates.run(["pairs", "add", "BTC", "USD"]).status, 0)
    expectEqual(await rates.run(["pairs", "add", "GBP", "USD"]).status, 0)
    let json = try await rates.run(["pairs", "--json", "--refresh"]).json()
    let rows = try require(json["pairs"] as? [[String: Any]])
    expectEqual(rows.first { $0["base"] as? String == "BTC" }?["old"] as? Bool, true, "\(rows)")
    expectEqual(rows.first { $0["base"] as? String == "GBP" }?["old"] as? Bool, false, "\(rows)")
    let text = await rates.run(["pairs"])
    let btc = text.stdout.split(separator: "\n").first { $0.hasPrefix("BTC/USD") } ?? ""
    expect(btc.hasSuffix("CoinGecko (old)"), "\(text.stdout)")
    let gbp = text.stdout.split(separator: "\n").first { $0.hasPrefix("GBP/USD") } ?? ""
    expect(!gbp.contains("(old)"), "\(text.stdout)")
  }
}
