import RatesExpectations
import RatesTestSupport
import Testing

@testable import RateCore

/// Cache entries read with JSONDecoder and checked after decoding: files written by `save`
/// or by the previous code read back; corrupt, foreign, other-version and implausible ones
/// are reported, never shown.
@Suite struct CacheReadTests {
  /// This test's folders, removed when it is done.
  let scratch = Scratch()

  /// Prices across the range the gate accepts, with many digits each.
  static let prices: [Double] = [
    67234.56, 1.0e-7, 0.000_123_456_789_012_3, 1.234_567_890_123_45e14, 3.141_592_653_589_793,
    0.1 + 0.2, 98_765.432_1, 1e-9, 123_456_789.123_456_7, 0.999_999_999_999_999_9,
  ]

  static func quote(rate: Double, change: Double?, updated: Bool) -> Quote {
    Quote(
      base: "BTC", quote: "EUR", rate: rate, change24hPercent: change, source: .provider(.coinGecko),
      fetchedAt: fixedNow, updatedAt: updated ? fixedNow.addingTimeInterval(-61) : nil)
  }

  static func history(rates: [Double]) -> RateService.HistoryCacheValue {
    let first = Day("2026-05-01")!
    return RateService.HistoryCacheValue(
      closes: rates.enumerated().map {
        RatePoint(
          date: first.adding(days: $0.offset), rate: $0.element, carried: $0.offset % 7 == 3)
      },
      coverage: .init(from: first, through: first.adding(days: rates.count)),
      latest: RatePoint(date: first.adding(days: rates.count), rate: rates.last ?? 1),
      latestFetchedAt: fixedNow, latestUpdatedAt: nil)
  }

  static func same(_ a: Quote, _ b: Quote) -> Bool {
    a == b && a.rate.bitPattern == b.rate.bitPattern
      && a.change24hPercent?.bitPattern == b.change24hPercent?.bitPattern
  }

  static func same(_ a: [RatePoint], _ b: [RatePoint]) -> Bool {
    a == b && a.map(\.rate.bitPattern) == b.map(\.rate.bitPattern)
  }

  static func same(_ a: RateService.HistoryCacheValue, _ b: RateService.HistoryCacheValue) -> Bool {
    same(a.closes, b.closes) && a.coverage == b.coverage
      && same(a.latest.map { [$0] } ?? [], b.latest.map { [$0] } ?? [])
      && (a.latest == nil) == (b.latest == nil) && a.latestFetchedAt == b.latestFetchedAt
      && a.latestUpdatedAt == b.latestUpdatedAt
  }

  /// Saves `value`, loads it back, and returns it with the file's bytes.
  func roundTrip<Value: CacheValue>(
    _ value: Value, in cache: JSONFileCache, key: String
  ) throws -> (Value, [UInt8]) {
    try cache.save(value, key: key, source: "coingecko", fetchedAt: fixedNow)
    let entry = try require(cache.load(Value.self, key: key).entry)
    expect(entry.source == "coingecko" && entry.fetchedAt == fixedNow)
    return (entry.value, [UInt8](try Data(contentsOf: cache.fileURL(for: key))))
  }

  @Test func quotesRoundTripBitIdentical() throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    for (index, rate) in Self.prices.enumerated() {
      let change = index % 3 == 0 ? nil : Double(index) * 1.37 - 5.25
      let quote = Self.quote(rate: rate, change: change, updated: index % 2 == 0)
      expect(Self.same(try roundTrip(quote, in: cache, key: "coingecko/price/btc-eur").0, quote))
    }
  }

  @Test func historiesRoundTripBitIdentical() throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    var value = Self.history(rates: Self.prices)
    value.latestSource = "kraken"
    let read = try roundTrip(value, in: cache, key: "coingecko/history/bitcoin-EUR").0
    expect(Self.same(read, value) && read.latestSource == "kraken")
    let bare = RateService.HistoryCacheValue(
      closes: [], coverage: nil, latest: nil, latestFetchedAt: nil, latestUpdatedAt: fixedNow)
    expect(Self.same(try roundTrip(bare, in: cache, key: "coingecko/history/x-EUR").0, bare))
  }

  @Test func stringsAndCodableValuesRoundTrip() throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let text = "a \"quoted\" \\ / é 😀 \u{0} \u{1F} line\nend"
    expectEqual(try roundTrip(text, in: cache, key: "a/b").0, text)
    let points = [
      RatePoint(date: Day("2026-05-02")!, rate: 1e-9),
      RatePoint(date: Day("2026-05-03")!, rate: 1.5, carried: true),
    ]
    expect(Self.same(try roundTrip(points, in: cache, key: "a/points").0, points))
    let resolution = CoinResolver.CachedResolution(
      id: "bitcoin", symbol: "btc", alternatives: ["x"])
    let read = try roundTrip(resolution, in: cache, key: "coingecko/resolve/btc").0
    expect(read.id == "bitcoin" && read.symbol == "btc" && read.alternatives == ["x"])
  }

  @Test func recentFiatSeriesRoundTripBitIdentical() throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let first = try require(Day("2026-05-18"))
    var series: [CurrencyPairKey: [RatePoint]] = [:]
    for (index, pair) in ["GBP-USD", "EUR-AUD", "USD-JPY"].enumerated() {
      let key = try require(CurrencyPairKey(pair))
      series[key] = (0..<10).map {
        RatePoint(date: first.adding(days: $0), rate: Self.prices[(index + $0) % 10], carried: $0 % 4 == 0)
      }
    }
    series[try require(CurrencyPairKey("CHF-SEK"))] = []
    let read = try roundTrip(series, in: cache, key: "frankfurter/recent/gbp-usd").0
    expectEqual(Set(read.keys), Set(series.keys))
    for (pair, points) in series {
      expect(Self.same(read[pair] ?? [], points), "\(pair)")
    }
  }

  @Test(arguments: [
    #"{"GBP":[]}"#, #"{"GBP-USD-EUR":[]}"#, #"{"-USD":[]}"#,
    #"{"GBP-USD":[{"date":"2026-05-18","rate":1}]}"#, #"{"GBP-USD":{}}"#, #"[]"#,
    #"{"GBP-USD":[{"carried":false,"date":"2026-05-18","rate":0}]}"#,
  ])
  func malformedRecentFiatSeriesAreCorrupt(_ value: String) {
    let json = Self.envelope(value: value)
    let lookup: JSONFileCache.Lookup<[CurrencyPairKey: [RatePoint]]> = JSONFileCache.readEnvelope(
      Array(json.utf8), key: "a/b", path: "p")
    guard case .unusable(.corrupt) = lookup else {
      Issue.record("read \(value)")
      return
    }
  }

  /// Files as the release before this reader wrote them, byte for byte (its `save`, the same
  /// encoder), and as its hand-written reader read them.
  static let released: [(key: String, json: String)] = [
    (
      "coingecko/price/btc-eur",
      #"{"fetchedAt":"2026-05-28T12:00:00Z","key":"coingecko/price/btc-eur","source":"coingecko","value":{"base":"BTC","change24hPercent":-1.25,"fetchedAt":"2026-05-28T12:00:00Z","quote":"EUR","rate":67234.56,"source":"coingecko","updatedAt":"2026-05-28T11:59:02Z"},"version":1}"#
    ),
    (
      "coingecko/history/bitcoin-EUR",
      #"{"fetchedAt":"2026-05-28T12:00:00Z","key":"coingecko/history/bitcoin-EUR","source":"coingecko","value":{"closes":[{"carried":false,"date":"2026-05-26","rate":66000.5},{"carried":true,"date":"2026-05-27","rate":1.0e-7}],"coverage":{"from":"2026-05-26","through":"2026-05-27"},"latest":{"carried":false,"date":"2026-05-28","rate":67234.56},"latestFetchedAt":"2026-05-28T12:00:00Z"},"version":1}"#
    ),
  ]

  @Test func entriesThePreviousCodeWroteAreRead() throws {
    let (quoteKey, quoteJSON) = Self.released[0]
    guard
      case .hit(let quote) = JSONFileCache.readEnvelope(
        Array(quoteJSON.utf8), key: quoteKey, path: "p") as JSONFileCache.Lookup<Quote>
    else {
      Issue.record("the released quote entry is unusable")
      return
    }
    let expected = Quote(
      base: "BTC", quote: "EUR", rate: 67234.56, change24hPercent: -1.25, source: .provider(.coinGecko),
      fetchedAt: try require(ISO8601.parse("2026-05-28T12:00:00Z")),
      updatedAt: ISO8601.parse("2026-05-28T11:59:02Z"))
    expect(Self.same(quote.value, expected))
    let (historyKey, historyJSON) = Self.released[1]
    guard
      case .hit(let history) = JSONFileCache.readEnvelope(
        Array(historyJSON.utf8), key: historyKey, path: "p")
        as JSONFileCache.Lookup<RateService.HistoryCacheValue>
    else {
      Issue.record("the released history entry is unusable")
      return
    }
    let first = try require(Day("2026-05-26"))
    expect(
      Self.same(
        history.value.closes,
        [RatePoint(date: first, rate: 66000.5), RatePoint(date: first.adding(days: 1), rate: 1.0e-7, carried: true)]))
    expectEqual(history.value.coverage, .init(from: first, through: first.adding(days: 1)))
    expectEqual(history.value.latest, RatePoint(date: first.adding(days: 2), rate: 67234.56))
    expect(history.value.latestUpdatedAt == nil && history.value.latestSource == nil)
    expect(
      history.source == "coingecko" && history.fetchedAt == ISO8601.parse("2026-05-28T12:00:00Z"))
  }

  /// Hourly and daily points as the code before the generic ``Series`` wrote them (its
  /// `TimedRate` and `RatePoint`: `time`, or `date` and `carried`), byte for byte: read back,
  /// and written again the same.
  @Test func pointsThePreviousCodeWroteReadAndWriteTheSame() throws {
    func read<Value: CacheValue>(_ value: String, as type: Value.Type) -> Value? {
      let json =
        #"{"fetchedAt":"2026-05-28T21:30:00Z","key":"k/v","source":"coingecko","value":"# + value + #","version":1}"#
      guard
        case .hit(let entry) = JSONFileCache.readEnvelope(Array(json.utf8), key: "k/v", path: "p")
          as JSONFileCache.Lookup<Value>
      else { return nil }
      return entry.value
    }
    let hourly = #"[{"rate":66000.5,"time":"2026-05-28T20:26:40Z"},{"rate":1e-07,"time":"2026-05-28T21:26:40Z"}]"#
    let hours = try require(read(hourly, as: [SeriesPoint<Date>].self))
    expectEqual(
      hours,
      [
        SeriesPoint(date: Date(timeIntervalSince1970: 1_780_000_000), rate: 66000.5),
        SeriesPoint(date: Date(timeIntervalSince1970: 1_780_003_600), rate: 1e-7),
      ])
    expectEqual(String(decoding: try JSONCoders.encoder().encode(hours), as: UTF8.self), hourly)
    let daily = #"[{"carried":true,"date":"2024-10-04","rate":2.5},{"carried":false,"date":"2024-10-05","rate":3}]"#
    let days = try require(read(daily, as: [RatePoint].self))
    let day = Day(daysSinceEpoch: 20_000)
    expectEqual(days, [RatePoint(date: day, rate: 2.5, carried: true), RatePoint(date: day.adding(days: 1), rate: 3)])
    expectEqual(String(decoding: try JSONCoders.encoder().encode(days), as: UTF8.self), daily)
  }

  /// Every prefix of a valid entry is corrupt (the whole file is the only valid one), and
  /// no prefix crashes the reader.
  @Test func everyTruncationIsCorruptNeverACrash() throws {
    let cache = JSONFileCache(directory: try scratch.folder())
    let (_, quoteBytes) = try roundTrip(
      Self.quote(rate: 1.5, change: -0.25, updated: true), in: cache, key: "k/price/q")
    let (_, historyBytes) = try roundTrip(
      Self.history(rates: [1, 2.5, 1e-9]), in: cache, key: "k/history/h")
    for count in 0..<quoteBytes.count {
      let lookup: JSONFileCache.Lookup<Quote> = JSONFileCache.readEnvelope(
        Array(quoteBytes[..<count]), key: "k/price/q", path: "p")
      guard case .unusable(.corrupt) = lookup else {
        Issue.record("quote prefix of \(count) bytes")
        continue
      }
    }
    for count in 0..<historyBytes.count {
      let lookup: JSONFileCache.Lookup<RateService.HistoryCacheValue> = JSONFileCache.readEnvelope(
        Array(historyBytes[..<count]), key: "k/history/h", path: "p")
      guard case .unusable(.corrupt) = lookup else {
        Issue.record("history prefix of \(count) bytes")
        continue
      }
    }
  }

  static func envelope(
    version: String = "1", key: String = #""a/b""#, value: String = #""v""#, extra: String = ""
  ) -> String {
    #"{"fetchedAt":"2024-06-10T06:13:20Z","key":\#(key),"source":"x","value":\#(value),"version":\#(version)\#(extra)}"#
  }

  static func problem(_ json: String) -> CacheProblem? {
    let lookup: JSONFileCache.Lookup<String> = JSONFileCache.readEnvelope(
      Array(json.utf8), key: "a/b", path: "p")
    if case .unusable(let problem) = lookup { return problem }
    return nil
  }

  /// Version first: another version is reported as such whatever else the file holds; then a
  /// missing, mistyped or doubled member is corrupt; then another key is foreign.
  @Test func envelopeProblemsAreJudgedVersionFirst() {
    expectEqual(Self.problem(#"{"version":2}"#), .otherVersion(path: "p", version: 2))
    expectEqual(Self.problem(Self.envelope(version: "7", key: "3", value: "[")), .corrupt(path: "p"))
    expectEqual(
      Self.problem(Self.envelope(version: "7", key: "3", value: "[]")),
      .otherVersion(path: "p", version: 7))
    expectEqual(Self.problem(Self.envelope(version: #""1""#)), .corrupt(path: "p"))
    expectEqual(Self.problem(#"{"key":"a/b","value":"v"}"#), .corrupt(path: "p"))
    expectEqual(Self.problem(Self.envelope(key: #""other""#)), .foreign(path: "p"))
    expectEqual(Self.problem(Self.envelope(key: #""other""#, value: "42")), .corrupt(path: "p"))
    expectEqual(Self.problem(Self.envelope(value: #""\uD800""#)), .corrupt(path: "p"))
    expectEqual(Self.problem(Self.envelope(extra: #","unknown":[{"x":null}]"#)), nil)
    expectEqual(Self.problem(Self.envelope() + " \n"), nil)
    expectEqual(
      Self.problem(Self.envelope(value: String(repeating: "[", count: 100_000))),
      .corrupt(path: "p"))
  }

  static let badQuotes = [
    #"{"base":"BTC","quote":"EUR","rate":1,"source":"coingecko"}"#,  // no fetchedAt
    #"{"base":"BTC","quote":"EUR","rate":"1","source":"coingecko","fetchedAt":"2024-06-10T06:13:20Z"}"#,
    #"{"base":"BTC","quote":"EUR","rate":1e999,"source":"coingecko","fetchedAt":"2024-06-10T06:13:20Z"}"#,
    #"{"base":"BTC","quote":"EUR","rate":1,"source":"coingecko","fetchedAt":"yesterday"}"#,
    #"{"base":"BTC","quote":"EUR","rate":1,"source":"coingecko","fetchedAt":"2024-06-10T06:13:20Z","updatedAt":5}"#,
    #"{"base":"BTC","quote":"EUR","rate":NaN,"source":"coingecko","fetchedAt":"2024-06-10T06:13:20Z"}"#,
    #"["BTC"]"#, "null",
  ]

  @Test(arguments: badQuotes)
  func malformedValuesAreCorruptAsJSONDecoderFoundThem(_ value: String) {
    let json = Self.envelope(value: value)
    let lookup: JSONFileCache.Lookup<Quote> = JSONFileCache.readEnvelope(
      Array(json.utf8), key: "a/b", path: "p")
    guard case .unusable(.corrupt) = lookup else {
      Issue.record("read \(value)")
      return
    }
  }

  /// A rate or change the providers' gate refuses (``AnswerGate``) makes the entry corrupt, as
  /// the gate kept it from every answer stored: read as it stood, a 0, a negative or `1e308`
  /// reached arithmetic (`convert` showed `= inf EUR`).
  @Test(arguments: ["0", "-0", "-5", "1e-400", "1e-21", "1e16", "1e308"])
  func implausibleRatesAreCorrupt(_ rate: String) {
    let quote =
      #"{"base":"BTC","quote":"EUR","rate":\#(rate),"source":"coingecko","fetchedAt":"2024-06-10T06:13:20Z"}"#
    let lookup: JSONFileCache.Lookup<Quote> = JSONFileCache.readEnvelope(
      Array(Self.envelope(value: quote).utf8), key: "a/b", path: "p")
    expect(lookup.entry == nil, "quote rate \(rate)")
    let history = #"{"closes":[{"carried":false,"date":"2026-05-01","rate":\#(rate)}]}"#
    let closes: JSONFileCache.Lookup<RateService.HistoryCacheValue> = JSONFileCache.readEnvelope(
      Array(Self.envelope(value: history).utf8), key: "a/b", path: "p")
    expect(closes.entry == nil, "close \(rate)")
    let latest = #"{"closes":[],"latest":{"carried":false,"date":"2026-05-01","rate":\#(rate)}}"#
    let point: JSONFileCache.Lookup<RateService.HistoryCacheValue> = JSONFileCache.readEnvelope(
      Array(Self.envelope(value: latest).utf8), key: "a/b", path: "p")
    expect(point.entry == nil, "latest \(rate)")
  }

  @Test(arguments: ["-100.5", "1e10", "-1e308"])
  func implausibleChangesAreCorrupt(_ change: String) {
    let quote =
      #"{"base":"BTC","change24hPercent":\#(change),"quote":"EUR","rate":1,"source":"coingecko","fetchedAt":"2024-06-10T06:13:20Z"}"#
    let lookup: JSONFileCache.Lookup<Quote> = JSONFileCache.readEnvelope(
      Array(Self.envelope(value: quote).utf8), key: "a/b", path: "p")
    expect(lookup.entry == nil, "change \(change)")
  }

  @Test func optionalMembersMayBeNullOrAbsent() throws {
    let value =
      #"{"base":"BTC","change24hPercent":null,"extra":{"a":[1,2]},"fetchedAt":"2024-06-10T06:13:20Z","quote":"EUR","rate":2,"source":"coingecko"}"#
    let json = Self.envelope(value: value)
    guard
      case .hit(let entry) = JSONFileCache.readEnvelope(Array(json.utf8), key: "a/b", path: "p")
        as JSONFileCache.Lookup<Quote>
    else {
      Issue.record("unusable")
      return
    }
    expect(entry.value.rate == 2 && entry.value.base == "BTC")
    expect(entry.value.change24hPercent == nil && entry.value.updatedAt == nil)
  }
}
