import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// A range that starts before the provider's first day (ECB: 1999-01-04) starts there:
/// nothing older is asked for, and the day store does not fill with "no rate" days from
/// year 0 (a range from 0000-01-01 wrote 5.8 MB).
@Suite struct ProviderFirstDayTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  static let body = """
    {"amount":1.0,"base":"EUR","start_date":"1999-01-04","end_date":"1999-01-08","rates":{
    "1999-01-04":{"USD":1.1789},"1999-01-05":{"USD":1.179},"1999-01-06":{"USD":1.1743},
    "1999-01-07":{"USD":1.1632},"1999-01-08":{"USD":1.1659}}}
    """

  @Test func aRangeFromYearZeroStartsOnTheECBsFirstDay() async throws {
    let stub = StubTransport(body: Self.body)
    let directory = try scratch.folder()
    let client = FrankfurterClient(baseURL: URL(string: "https://fx.test/v1")!, transport: stub.transport)
    let service = RateService(
      source: .frankfurter(client: client, now: { fixedNow }),
      cache: JSONFileCache(directory: directory), mode: .normal, now: { fixedNow }, notify: { _ in })
    let yearZero = Day(daysSinceEpoch: -719_528)
    let end = FrankfurterClient.firstDay.adding(days: 6)
    let result = try await service.history(of: "EUR", in: "USD", window: yearZero...end)
    expectEqual(result.series.points.first?.date, FrankfurterClient.firstDay)
    expectEqual(result.series.points.count, 7)
    expectEqual(stub.requests.count, 1)
    expect(stub.requests.all.allSatisfy { !$0.url.path.contains("0000-") })
    let store = directory.appendingPathComponent("days/frankfurter/eur-usd.days")
    let size = try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int ?? 0
    expect(size < 1_000, "\(size) bytes")
  }
}
