import Foundation
import RatesCLIHarness
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore
@testable import RatesCLI

/// `--format csv|ledger|beancount` in process, against the fake APIs at a fixed time.
@Suite struct ExportFormatTests {
  @Test func historyAsCSVAndPriceDirectives() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI()
    let csv = await rates.run(["history", "BTC", "EUR", "--days", "7", "--format", "csv"])
    expectEqual(csv.status, 0, "\(csv.stderr)")
    let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    expectEqual(rows.first, "date,base,quote,rate,carried,source")
    expectEqual(rows.count, 8)
    let today = Day(containing: fixedNow)
    expectEqual(rows.last?.hasPrefix("\(today),BTC,EUR,"), true)

    let ledger = await rates.run(["history", "BTC", "EUR", "--days", "3", "--format", "ledger"])
    let lines = ledger.stdout.split(separator: "\n")
    expectEqual(lines.count, 3)
    expect(lines.allSatisfy { $0.hasPrefix("P ") && $0.hasSuffix(" EUR") && $0.contains(" BTC ") })
    expect(!ledger.stdout.contains(","))
    let bean = await rates.run(["history", "GBP", "USD", "--days", "7", "--format", "beancount"])
    expectEqual(bean.status, 0)
    // Weekend days are carried, so they add no directive; nor does today before 16:00 UTC.
    let latest = UpdateRhythm.newestECBDay(at: fixedNow)
    let working = (0..<7).map { today.adding(days: -$0) }
      .filter { FakeFrankfurter.isWorkingDay($0) && $0 <= latest }.count
    expectEqual(bean.stdout.split(separator: "\n").count, working)
    expect(bean.stdout.split(separator: "\n").allSatisfy { $0.contains(" price GBP ") })
    expectEqual(server.requestCount, 2)
  }

  @Test func currentAndLedgerListExport() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI()
    let current = await rates.run(["current", "BTC", "ETH", "--in", "EUR", "--format", "beancount"])
    expectEqual(current.status, 0, "\(current.stderr)")
    expectContains(current.stdout, "price BTC 61234.5 EUR")
    _ = await rates.run(["ledger", "add", "100", "USD", "8,950,000", "LBP", "--sell", "--with", "Ali, Jr."])
    let csv = await rates.run(["ledger", "list", "--format", "csv"])
    expectContains(csv.stdout, "\"Ali, Jr.\"")
    let directives = await rates.run(["ledger", "list", "--format", "ledger"])
    expect(directives.stdout.hasSuffix("USD 89500 LBP\n"))
  }

  /// Before: the name came from the text typed, so `wbtc` was `WBTC` and `wrapped-bitcoin`
  /// `"WRAPPED-BITCOIN"`, two commodities for one coin.
  @Test func aCoinHasOneNameHoweverItIsTyped() async throws {
    let stamp = Int(fixedNow.timeIntervalSince1970)
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        if request.path.hasSuffix("/search") {
          return .json(
            #"{"coins":[{"id":"wrapped-bitcoin","name":"Wrapped Bitcoin","symbol":"WBTC","#
              + #""market_cap_rank":15}],"exchanges":[],"icos":[],"categories":[],"nfts":[]}"#)
        }
        if request.path.hasSuffix("/simple/price"), request.query["ids"] == "wrapped-bitcoin" {
          return .json(
            #"{"wrapped-bitcoin":{"eur":61000.5,"eur_24h_change":0.5,"last_updated_at":\#(stamp)}}"#)
        }
        return fake(request)
      }
    }
    var names: Set<String> = []
    for typed in ["wbtc", "WBTC", "wrapped-bitcoin"] {
      for format in ["beancount", "ledger"] {
        let result = await rates.run(["current", typed, "--in", "EUR", "--format", format])
        expectEqual(result.status, 0, "\(typed): \(result.stderr)")
        let words = result.stdout.split(separator: " ")
        expectEqual(words.count, 5, "\(result.stdout)")
        if words.count == 5 { names.insert(String(format == "ledger" ? words[2] : words[2])) }
      }
    }
    expectEqual(names, ["WRAPPED-BITCOIN", "\"WRAPPED-BITCOIN\""])
  }

  /// Before: the name came from a second `/search` for the symbol `KAS`, which picked the
  /// better-ranked `kasta` (`P … KASTA …`, "KAS is the symbol of 2 coins"), and offline,
  /// with that search not cached, the name fell back to `KAS`.
  @Test func aCoinSharingItsSymbolKeepsItsOwnName() async throws {
    let (rates, server) = try CLIHarness.withFakeAPI { fake in
      let gecko = FakeCoinGecko.handler(
        now: { fixedNow },
        prices: FakeCoinGecko.pricesWithCryptoQuotes.merging(
          ["kaspa": ["eur": 0.1234], "kasta": ["eur": 0.0456]]) { first, _ in first })
      return { request in
        guard request.path.hasSuffix("/search") else {
          return request.path.hasPrefix("/api/v3/") ? gecko(request) : fake(request)
        }
        let kaspa = #"{"id":"kaspa","name":"Kaspa","symbol":"KAS","market_cap_rank":30}"#
        let kasta = #"{"id":"kasta","name":"Kasta","symbol":"KAS","market_cap_rank":5}"#
        let coins = request.query["query"]?.lowercased() == "kaspa" ? kaspa : "\(kasta),\(kaspa)"
        return .json(#"{"coins":["# + coins + #"],"exchanges":[],"icos":[],"categories":[],"nfts":[]}"#)
      }
    }
    var runs: [[String]] = []
    for offline in [false, true] {
      for command in [["current", "kaspa", "--in", "EUR"], ["history", "kaspa", "EUR", "--days", "2"]] {
        for format in ["ledger", "beancount"] {
          runs.append(command + ["--format", format] + (offline ? ["--offline"] : []))
        }
      }
    }
    for arguments in runs {
      let result = await rates.run(arguments)
      expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
      expect(!result.stderr.contains("kasta"), "\(arguments): \(result.stderr)")
      let lines = result.stdout.split(separator: "\n")
      expect(!lines.isEmpty, "\(arguments)")
      let format = arguments[arguments.firstIndex(of: "--format")! + 1]
      let pattern = format == "ledger" ? " KASPA " : " price KASPA "
      expect(lines.allSatisfy { $0.contains(pattern) }, "\(arguments): \(result.stdout)")
    }
    let searches = server.requests.filter { $0.path.hasSuffix("/search") }
    expectEqual(searches.map { $0.query["query"] ?? "" }, ["kaspa"])
  }

  /// Before: prices were rounded to about ten significant digits (`0.00` for a tiny one).
  @Test func exportsHoldTheJSONValuesExactly() async throws {
    let (rates, _) = try CLIHarness.withFakeAPI { fake in
      { request in
        if request.path.hasSuffix("/simple/price"), request.query["ids"] == "bitcoin" {
          return .json(
            #"{"bitcoin":{"eur":3.3e-15,"eur_24h_change":1.2345678901234567,"last_updated_at":\#(Int(fixedNow.timeIntervalSince1970))}}"#
          )
        }
        return fake(request)
      }
    }
    let ledger = await rates.run(["current", "BTC", "--in", "EUR", "--format", "ledger"])
    expect(ledger.stdout.hasSuffix(" BTC 0.0000000000000033 EUR\n"), "\(ledger.stdout)")
    let csv = await rates.run(["current", "BTC", "--in", "EUR", "--format", "csv"])
    expectContains(csv.stdout, "BTC,EUR,0.0000000000000033,1.2345678901234567,")
  }

  @Test func formatsACommandCannotWriteAreRefused() async throws {
    let rates = try CLIHarness()
    for (arguments, message) in [
      (["top", "--format", "csv"], "not available for 'rates top'"),
      (["history", "BTC", "--format", "xml"], "invalid for '--format'"),
      (["history", "BTC", "--json", "--format", "csv"], "cannot be used together"),
      (["ledger", "rate", "USD", "LBP", "--format", "csv"], "only for 'rates ledger list'"),
    ] {
      let result = await rates.run(arguments)
      expectEqual(result.status, 64, "\(arguments)")
      expectContains(result.stderr, message, "\(arguments): \(result.stderr)")
    }
  }
}
