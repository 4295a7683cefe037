import Foundation
import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// Checks the fake Frankfurter answers like apis.md section 3: directly through its
/// handler, and briefly through a real socket with the real client.
@Suite struct FakeFrankfurterTests {
  /// Monday 2024-06-10, 06:13:20 UTC.
  static let monday = Date(timeIntervalSince1970: 1_718_000_000)
  /// Monday 2024-06-10, 18:13:20 UTC: Monday's rate is published.
  static let mondayEvening = monday.addingTimeInterval(12 * 3_600)
  /// Sunday 2024-06-09, 12:00 UTC.
  static let sunday = Date(timeIntervalSince1970: 1_717_934_400)

  private func reply(_ target: String, now: Date = FakeFrankfurterTests.monday) throws
    -> (status: Int, object: [String: Any])
  {
    let handler = FakeFrankfurter.handler(now: { now })
    guard case .response(let status, _, let body) = handler(RecordedRequest(target: target)),
      let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
    else { throw FixtureError.notUTF8("not a JSON object for \(target)") }
    return (status, object)
  }

  private func day(_ text: String) throws -> Day { try require(Day(text)) }

  // MARK: - Over a socket, with the real client

  @Test func clientAgainstTheFakeOverLoopback() async throws {
    let server = try LoopbackServer(handler: FakeFrankfurter.handler(now: { Self.mondayEvening }))
    defer { server.stop() }
    let client = FrankfurterClient(
      baseURL: server.baseURL.appendingPathComponent("frankfurter"),
      transport: .live(timeoutSeconds: 5))

    let gbpUSD = CurrencyPairKey(base: "GBP", quote: "USD")
    let eurCHF = CurrencyPairKey(base: "EUR", quote: "CHF")
    let (date, rates) = try await client.latest(pairs: [gbpUSD, eurCHF])
    let monday = Day(containing: Self.monday)
    expectEqual(date, monday)
    let usd = FakeFrankfurter.eurRate("USD", day: monday)
    let gbp = FakeFrankfurter.eurRate("GBP", day: monday)
    expectEqual(rates[gbpUSD], Figure.crossRate(usd, per: gbp))
    expectEqual(rates[eurCHF], FakeFrankfurter.eurRate("CHF", day: monday))

    // Saturday to Sunday: the series starts on Friday 05-31 and skips the weekends.
    let eurUSD = CurrencyPairKey(base: "EUR", quote: "USD")
    let series = try await client.timeSeries(
      pairs: [eurUSD], start: try day("2024-06-01"), end: try day("2024-06-09"))
    let points = try require(series[eurUSD])
    let expected = try [
      "2024-05-31", "2024-06-03", "2024-06-04", "2024-06-05", "2024-06-06",
      "2024-06-07",
    ].map(day)
    expectEqual(points.map(\.date), expected)
    expectEqual(points.map(\.rate), expected.map { FakeFrankfurter.eurRate("USD", day: $0) })

    expectEqual(server.requestCount, 2)
    expectEqual(
      server.requests.map(\.path), ["/frankfurter/latest", "/frankfurter/2024-06-01..2024-06-09"])
    expectEqual(server.requests.first?.query, ["from": "EUR", "to": "CHF,GBP,USD"])
  }

  // MARK: - Handler

  @Test func latestAtTheWeekendIsFriday() throws {
    let (status, object) = try reply("/frankfurter/latest?to=USD", now: Self.sunday)
    expectEqual(status, 200)
    expectEqual(object["date"] as? String, "2024-06-07")
    expectEqual(object["base"] as? String, "EUR")
    expectEqual(object["amount"] as? Double, 1)
    let rates = try require(object["rates"] as? [String: Double])
    expectEqual(rates, ["USD": FakeFrankfurter.eurRate("USD", day: try day("2024-06-07"))])
    // eurRate carries the last working day's figure over the weekend.
    expectEqual(
      FakeFrankfurter.eurRate("USD", day: try day("2024-06-09")),
      FakeFrankfurter.eurRate("USD", day: try day("2024-06-07")))
  }

  @Test func otherBasesAreRoundedBySize() throws {
    let (_, object) = try reply("/frankfurter/latest?from=gbp&to=JPY,USD,GBP,EUR", now: Self.mondayEvening)
    let rates = try require(object["rates"] as? [String: Double])
    expectEqual(Set(rates.keys), ["EUR", "JPY", "USD"])
    let monday = Day(containing: Self.monday)
    let gbp = FakeFrankfurter.eurRate("GBP", day: monday)
    let jpy = FakeFrankfurter.eurRate("JPY", day: monday) / gbp  // about 200: 2 decimals
    expectEqual(rates["JPY"], (jpy * 100).rounded() / 100)
    let usd = FakeFrankfurter.eurRate("USD", day: monday) / gbp  // about 1.28: 4 decimals
    expectEqual(rates["USD"], (usd * 10_000).rounded() / 10_000)
    expectEqual(FakeFrankfurter.roundedBySize(16_746.83), 16_747)
    expectEqual(FakeFrankfurter.roundedBySize(0.000_061_234), 0.000061)
    let (_, hundred) = try reply("/frankfurter/latest?amount=100&to=USD", now: Self.mondayEvening)
    let usd100 = 100 * FakeFrankfurter.eurRate("USD", day: monday)  // about 109: 2 decimals
    expectEqual((hundred["rates"] as? [String: Double])?["USD"], (usd100 * 100).rounded() / 100)
  }

  @Test func holidaysRollBack() throws {
    // 2023-12-25 and 26 are Monday and Tuesday: both roll back to Friday the 22nd.
    expectEqual(try reply("/frankfurter/2023-12-26").object["date"] as? String, "2023-12-22")
    let (_, object) = try reply("/frankfurter/2023-12-23..2024-01-02?symbols=USD")
    expectEqual(object["start_date"] as? String, "2023-12-22")
    expectEqual(object["end_date"] as? String, "2024-01-02")
    let keys = (object["rates"] as? [String: Any])?.keys.sorted()
    expectEqual(keys, ["2023-12-22", "2023-12-27", "2023-12-28", "2023-12-29", "2024-01-02"])
    // A future date gives the latest; an open range ends with it. At 06:13 on
    // Monday that is Friday's: Monday's is published at 16:00 UTC.
    expectEqual(try reply("/frankfurter/2030-01-01").object["date"] as? String, "2024-06-07")
    let open = try reply("/frankfurter/2024-06-06..?to=GBP").object
    expectEqual((open["rates"] as? [String: Any])?.count, 2)
    let evening = try reply("/frankfurter/2024-06-06..?to=GBP", now: Self.mondayEvening).object
    expectEqual((evening["rates"] as? [String: Any])?.count, 3)
  }

  /// Before: Good Friday, Easter Monday and 1 May had rates of their own.
  @Test func followsTheECBCalendarOfMarketClosure() throws {
    // Easter 2024: Good Friday 03-29, Easter Monday 04-01.
    expectEqual(try reply("/frankfurter/2024-04-01").object["date"] as? String, "2024-03-28")
    let (_, easter) = try reply("/frankfurter/2024-03-27..2024-04-03?to=USD")
    let keys = (easter["rates"] as? [String: Any])?.keys.sorted()
    expectEqual(keys, ["2024-03-27", "2024-03-28", "2024-04-02", "2024-04-03"])
    expectEqual(try reply("/frankfurter/2024-05-01").object["date"] as? String, "2024-04-30")
    for day in ["2024-03-29", "2024-04-01", "2024-05-01", "2024-12-25", "2024-12-26", "2025-01-01"] {
      expect(!FakeFrankfurter.isWorkingDay(try self.day(day)), "\(day)")
    }
  }

  /// Before: Monday's rate was served at 06:13 UTC, hours before the ECB publishes it.
  @Test func todaysRateIsServedOnlyFrom16UTC() throws {
    expectEqual(try reply("/frankfurter/latest?to=USD").object["date"] as? String, "2024-06-07")
    expectEqual(try reply("/frankfurter/2024-06-10?to=USD").object["date"] as? String, "2024-06-07")
    let evening = try reply("/frankfurter/latest?to=USD", now: Self.mondayEvening).object
    expectEqual(evening["date"] as? String, "2024-06-10")
    expectEqual(UpdateRhythm.newestECBDay(at: Self.monday), (try day("2024-06-07")))
  }

  @Test func errorsUseTheDocumentedBodies() throws {
    let cases: [(String, Int, String)] = [
      ("/frankfurter/latest?to=XYZ", 404, "not found"),
      ("/frankfurter/latest?from=XYZ", 404, "not found"),
      ("/frankfurter/1990-01-01..1990-02-01", 404, "not found"),
      ("/frankfurter/nope", 404, "not found"),
      ("/frankfurter/latest?from=USD&to=usd", 422, "bad currency pair"),
      ("/frankfurter/2024-13-45", 422, "invalid date"),
      ("/frankfurter/2024-06-01..June", 422, "invalid date"),
      ("/frankfurter/latest?amount=-1", 422, "invalid amount"),
    ]
    for (target, status, message) in cases {
      let (got, object) = try reply(target)
      expectEqual(got, status, "\(target)")
      expectEqual(object["message"] as? String, message, "\(target)")
    }
  }

  @Test func currenciesListTheECBSet() throws {
    let (status, object) = try reply("/frankfurter/currencies")
    expectEqual(status, 200)
    expectEqual(object as? [String: String], FiatCurrencies.ecb)
    expectEqual(Set(FakeFrankfurter.eurBase.keys), Set(FiatCurrencies.ecb.keys))
  }
}
