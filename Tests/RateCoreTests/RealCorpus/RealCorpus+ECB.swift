import RateCore
import RatesExpectations
import RatesTestSupport
import Testing

// What each real recorded ECB body (the daily file, the data API's CSV) must give.

extension RealCorpus {
  static let ecbURL = URL(string: "https://ecb.test")!
}

extension RealCorpus.Call {
  /// The ECB calls, through ``ECBClient``; rates come back as EUR-based pairs.
  func runECB(_ transport: HTTPTransport) async throws -> RealCorpus.Answer {
    let ecb = ECBClient(baseURL: RealCorpus.ecbURL, transport: transport)
    switch self {
    case .ecbDaily:
      let (day, rates) = try await ecb.latest()
      var pairs: [CurrencyPairKey: Double] = [:]
      for (code, rate) in rates where code != "EUR" { pairs[CurrencyPairKey(base: "EUR", quote: code)] = rate }
      return .latest(day, pairs)
    case .ecbRange(let codes, let start, let end):
      let table = try await ecb.series(
        codes: codes.map(CurrencyCode.init), start: try require(Day(start)), end: try require(Day(end)))
      var series: [CurrencyPairKey: [RatePoint]] = [:]
      for day in table.keys.sorted() {
        for (code, rate) in table[day] ?? [:] where code != "EUR" {
          series[CurrencyPairKey(base: "EUR", quote: code), default: []].append(RatePoint(date: day, rate: rate))
        }
      }
      return .series(series)
    default:
      throw CorpusFailure.wrongAnswer
    }
  }
}

extension RealCorpus {
  static func ecbDay(_ day: String, count: Int, _ rates: [String: Double]) -> Expectation {
    Expectation(
      status: 200, call: .ecbDaily,
      outcome: .decodes { answer in
        guard case .latest(let date, let table) = answer else { throw CorpusFailure.wrongAnswer }
        expectEqual(date, Day(day))
        expectEqual(table.count, count)
        for (code, rate) in rates { expectEqual(table[CurrencyPairKey(base: "EUR", quote: code)], rate) }
      })
  }

  static func ecbRange(
    _ codes: [String], _ start: String, _ end: String, _ expected: [String: [(String, Double)]]
  ) -> Expectation {
    Expectation(
      status: 200, call: .ecbRange(codes, start: start, end: end),
      outcome: .decodes { answer in
        guard case .series(let series) = answer else { throw CorpusFailure.wrongAnswer }
        expectEqual(series.count, expected.count)
        for (code, points) in expected {
          let got = series[CurrencyPairKey(base: "EUR", quote: code)] ?? []
          expectEqual(got.map(\.date), points.map { Day($0.0) })
          expectEqual(got.map(\.rate), points.map(\.1))
        }
      })
  }

  static let ecbExpectations: [String: Expectation] = [
    // A proxy's comment after the envelope; HRK and RUB (both later dropped); one JPY line
    // indented with spaces among tabs.
    "ecb/daily_2015-02-12_proxy_comment_after_envelope__emanuelfs4.xml": ecbDay(
      "2015-02-12", count: 31, ["USD": 1.1328, "JPY": 135.72, "GBP": 0.7376, "HRK": 7.723, "ZAR": 13.376]),
    "ecb/daily_2024-06-28_readme_sample__dialogplay-tool-directory.xml": ecbDay(
      "2024-06-28", count: 30, ["USD": 1.0705, "ISK": 148.9, "IDR": 17487.21, "GBP": 0.84638]),
    // Single-quoted namespaces, no XML declaration, a leading newline: trimmed by its author.
    "ecb/daily_2025-06-13_USD_JPY_trimmed__unidentified-repo-id11392441234.xml": ecbDay(
      "2025-06-13", count: 2, ["USD": 1.1512, "JPY": 165.94]),
    // All 32 columns, a quoted title holding commas.
    "ecb/csvdata_D.USD_2026-09-03..07_all_columns__unidentified-repo-id69880706369.csv": ecbRange(
      ["USD"], "2026-09-03", "2026-09-07",
      ["USD": [("2026-09-03", 1.1615), ("2026-09-04", 1.1622), ("2026-09-07", 1.1622)]]),
    // CRLF line ends, eight columns.
    "ecb/csvdata_D.USD_2026-10-01..02_crlf_eight_columns__unidentified-repo-id70918579282.csv": ecbRange(
      ["USD"], "2026-10-01", "2026-10-02", ["USD": [("2026-10-01", 1.1298), ("2026-10-02", 1.1225)]]),
    // A day without a value (not yet published) is a day without a rate.
    "ecb/csvdata_D.CHF+USD_2026-10-02..03_empty_OBS_VALUE__unidentified-repo-id70918579282.csv": ecbRange(
      ["CHF", "USD"], "2026-10-02", "2026-10-03",
      ["CHF": [("2026-10-02", 0.9301)], "USD": [("2026-10-02", 1.1225)]]),
    // The data API's empty answer, for a code it has no series for.
    "ecb/error_404_no_results__unidentified-repo-id70918579282.txt": fails(
      404, .ecbRange(["XYZ"], start: "2026-10-01", end: "2026-10-02"),
      .invalidCurrency(provider: .provider(.ecb), currency: "XYZ")),
  ]
}
