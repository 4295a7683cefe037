/// One currency pair, such as `GBP-USD`: how many `quote` units one `base`
/// unit buys.
///
/// As a dictionary key in JSON it is written `"GBP-USD"`, so a
/// `[CurrencyPairKey: …]` encodes to an object rather than an array.
public struct CurrencyPairKey: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The currency being priced.
  public var base: CurrencyCode
  /// The currency of the price.
  public var quote: CurrencyCode

  /// Creates a pair of codes.
  public init(base: CurrencyCode, quote: CurrencyCode) {
    self.base = base
    self.quote = quote
  }

  /// Creates a pair of codes from their spellings (``CurrencyCode``, upper-cased).
  public init(base: some StringProtocol, quote: some StringProtocol) {
    self.init(base: CurrencyCode(base), quote: CurrencyCode(quote))
  }

  /// Parses `BASE-QUOTE` (any case); `nil` unless there are exactly two
  /// non-empty codes.
  public init?(_ text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
    self.init(base: parts[0], quote: parts[1])
  }

  /// `BASE-QUOTE`, such as `GBP-USD`.
  public var description: String { "\(base)-\(quote)" }
}

extension CurrencyPairKey: CodingKeyRepresentable {
  /// The key `BASE-QUOTE`.
  public var codingKey: any CodingKey { MemberName(description) }

  /// Reads a `BASE-QUOTE` key.
  public init?<T: CodingKey>(codingKey: T) {
    self.init(codingKey.stringValue)
  }
}

/// Frankfurter v1: the ECB's euro reference rates, published once per TARGET
/// working day, with no key and no published rate limit.
///
/// Every method makes at most one request, whatever the number of pairs:
/// when the pairs do not all share one base, the client asks for EUR-based
/// rates and divides (apis.md 3.3). Statuses are checked before decoding and
/// the documented JSON error bodies become ``ProviderError`` values.
public struct FrankfurterClient: Sendable {
  /// The current v1 host (the legacy `api.frankfurter.app` serves the same
  /// responses on unversioned paths).
  public static let defaultBaseURL = URL(string: "https://api.frankfurter.dev/v1")

  let http: ProviderHTTP

  /// Creates a client for the API under `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: the API root, e.g. ``defaultBaseURL`` or a test server.
  ///   - transport: the network seam.
  public init(baseURL: URL, transport: HTTPTransport) {
    http = ProviderHTTP(
      provider: Provider.frankfurter, baseURL: baseURL, transport: transport, headers: [:])
  }

  /// The latest ECB rates for every pair, from one `GET /latest`.
  ///
  /// When all pairs share one base the request is `from=<base>`; otherwise it
  /// is `from=EUR` with every other code in `to`, and each pair is computed as
  /// `rate[quote] / rate[base]` (EUR itself counting 1). Dividing the raw ECB
  /// figures keeps N pairs at one request and avoids Frankfurter's own
  /// rounding of cross rates.
  ///
  /// - Parameter pairs: the pairs wanted; none asks only for the date.
  /// - Returns: the ECB working day the rates belong to (a weekend or a
  ///   holiday gives the previous working day) and a rate for every pair.
  /// - Throws: ``ProviderError``; `invalidCurrency` for a code Frankfurter
  ///   does not know, `unsupported` for a pair such as `EUR-EUR`.
  public func latest(pairs: [CurrencyPairKey]) async throws
    -> (date: Day, rates: [CurrencyPairKey: Double])
  {
    let plan = try FrankfurterPlan(pairs: pairs)
    let endpoint = "/latest"
    let response = try await http.get(endpoint, query: plan.query)
    try check(
      response,
      notFound: .invalidCurrency(
        provider: .provider(.frankfurter), currency: FrankfurterPlan.listed(plan.codes)))
    let dto = try http.decode(FrankfurterLatestDTO.self, from: response.body, endpoint: endpoint)
    try plan.checkBase(dto.base, endpoint: endpoint)
    let table = try plan.table(dto.rates, amount: dto.amount, endpoint: endpoint, path: "rates")
    let missing = plan.missingCodes(in: Set(table.keys))
    guard missing.isEmpty else {
      throw ProviderError.invalidCurrency(
        provider: .provider(.frankfurter), currency: FrankfurterPlan.listed(missing))
    }
    var rates: [CurrencyPairKey: Double] = [:]
    for pair in plan.pairs {
      if let rate = plan.rate(pair, in: table) { rates[pair] = rate }
    }
    return (dto.date, rates)
  }

  /// Daily ECB rates for every pair from `start` to `end`, from one
  /// `GET /START..END` (same single-base or EUR rule as ``latest(pairs:)``).
  ///
  /// Only working days are listed, as the API lists them, keyed by the
  /// response's own dates: when `start` is a weekend or a holiday the API
  /// starts at the previous working day, and that day is kept. A day that
  /// lacks a code needed by a pair is left out of that pair's series.
  ///
  /// - Returns: every pair, each with its points sorted by date (empty when
  ///   `end` is before `start`, without a request).
  /// - Throws: ``ProviderError``; `noData` when Frankfurter has no rates for
  ///   the range although it knows every code (before 1999-01-04, say).
  public func timeSeries(pairs: [CurrencyPairKey], start: Day, end: Day) async throws
    -> [CurrencyPairKey: [RatePoint]]
  {
    let plan = try FrankfurterPlan(pairs: pairs)
    var result: [CurrencyPairKey: [RatePoint]] = [:]
    for pair in plan.pairs { result[pair] = [] }
    guard !plan.pairs.isEmpty, start <= end else { return result }

    let endpoint = "/{START}..{END}"
    let response = try await http.get("/\(start)..\(end)", query: plan.query)
    let notFound: ProviderError =
      plan.codes.allSatisfy(\.isECB)
      ? .noData(provider: .provider(.frankfurter), detail: "no ECB rates from \(start) to \(end)")
      : .invalidCurrency(
        provider: .provider(.frankfurter), currency: FrankfurterPlan.listed(plan.codes))
    try check(response, notFound: notFound)
    let dto = try http.decode(FrankfurterSeriesDTO.self, from: response.body, endpoint: endpoint)
    try plan.checkBase(dto.base, endpoint: endpoint)

    var seen: Set<CurrencyCode> = []
    let days = try dto.rates.keys.map { key in
      guard let day = Day(key) else {
        throw ProviderError.malformedResponse(
          provider: .provider(.frankfurter), endpoint: endpoint,
          detail: "at rates: '\(UntrustedText.sanitize(key))' is not a date")
      }
      return RatePoint(date: day, rate: 1)
    }
    // Kept: a range starting on an ECB closure starts at the working day before
    // it, at most 4 days back (Easter); days before that or after `end` are dropped.
    let kept = Set(
      try AnswerGate.days(
        days, inside: start.adding(days: -Self.startSlackDays)...end, asked: start...end,
        provider: Provider.frankfurter, endpoint: endpoint
      ).map(\.date))
    for (key, dayRates) in dto.rates {
      guard let day = Day(key), kept.contains(day) else { continue }
      let table = try plan.table(
        dayRates, amount: dto.amount, endpoint: endpoint, path: "rates.\(key)")
      seen.formUnion(table.keys)
      for pair in plan.pairs {
        if let rate = plan.rate(pair, in: table) {
          result[pair, default: []].append(RatePoint(date: day, rate: rate))
        }
      }
    }
    let missing = plan.missingCodes(in: seen)
    guard dto.rates.isEmpty || missing.isEmpty else {
      throw ProviderError.invalidCurrency(
        provider: .provider(.frankfurter), currency: FrankfurterPlan.listed(missing))
    }
    return result.mapValues { $0.sorted { $0.date < $1.date } }
  }

  /// How many days before a range's start its answer may begin: the
  /// previous ECB working day of a start on a closure (Good Friday to
  /// Easter Monday: 4).
  static let startSlackDays = 4

  /// The first day of ECB reference rates.
  public static let firstDay = Day(daysSinceEpoch: 10_595)  // 1999-01-04
  /// The days one range request spans: Frankfurter answered ranges longer
  /// than 365 days with weekly averages before December 2024, so no request
  /// asks for more. 1999-01-04 to today is one request per year.
  public static let chunkDays = 365
  /// The smaller span a chunk is asked again in when an instance still
  /// answered it with weekly samples (older deployments sampled sooner).
  public static let fallbackChunkDays = 90

  /// Daily ECB rates from `start` to `end` in requests of at most
  /// ``chunkDays`` days, oldest first, merged; days before ``firstDay`` are
  /// not asked for. A chunk that comes back sampled weekly (fewer than two
  /// working days a week) is asked again in ``fallbackChunkDays``-day parts.
  public func dailySeries(pairs: [CurrencyPairKey], start: Day, end: Day) async throws
    -> [CurrencyPairKey: [RatePoint]]
  {
    let first = max(start, Self.firstDay)
    guard first <= end else {
      throw ProviderError.noData(
        provider: .provider(.frankfurter),
        detail: "ECB reference rates start on \(Self.firstDay); nothing from \(start) to \(end)")
    }
    var merged: [CurrencyPairKey: [Day: RatePoint]] = [:]
    for chunk in Self.chunks(first...end, days: Self.chunkDays) {
      var parts = try await timeSeries(pairs: pairs, start: chunk.lowerBound, end: chunk.upperBound)
      if Self.looksSampled(parts, chunk) {
        parts = [:]
        for part in Self.chunks(chunk, days: Self.fallbackChunkDays) {
          let answer = try await timeSeries(pairs: pairs, start: part.lowerBound, end: part.upperBound)
          for (pair, points) in answer { parts[pair, default: []] += points }
        }
      }
      for (pair, points) in parts {
        for point in points { merged[pair, default: [:]][point.date] = point }
      }
    }
    return merged.mapValues { $0.values.sorted { $0.date < $1.date } }
  }

  /// `span` cut into consecutive parts of at most `days` days.
  static func chunks(_ span: ClosedRange<Day>, days: Int) -> [ClosedRange<Day>] {
    var result: [ClosedRange<Day>] = []
    var start = span.lowerBound
    while start <= span.upperBound {
      let end = min(start.adding(days: days - 1), span.upperBound)
      result.append(start...end)
      start = end.adding(days: 1)
    }
    return result
  }

  /// Whether a long chunk's answer holds fewer than two days a week: weekly
  /// averages, not daily rates.
  static func looksSampled(_ series: [CurrencyPairKey: [RatePoint]], _ chunk: ClosedRange<Day>)
    -> Bool
  {
    let span = chunk.lowerBound.distance(to: chunk.upperBound) + 1
    guard span > fallbackChunkDays, let count = series.values.map(\.count).max(), count > 0
    else { return false }
    return count * 7 < span * 2
  }

  /// Maps a non-2xx status and Frankfurter's `{"message": …}` body
  /// (``ProviderHTTP/check(_:reading:)``).
  ///
  /// - Parameter notFound: the error the documented 404 body stands for;
  ///   `nil` where a 404 can only mean a wrong URL.
  func check(_ response: HTTPResponse, notFound: ProviderError?) throws {
    try http.check(response) { response in
      let body = FrankfurterErrorBody(data: response.body)
      let message = body.message.lowercased()
      var error: ProviderError?
      if response.status == 404, message == "not found", let notFound {
        error = notFound
      } else if response.status == 422, message.contains("bad currency pair") {
        error = .unsupported(
          provider: .provider(.frankfurter),
          detail: "bad currency pair: the base and quote are the same currency")
      }
      return ErrorBodyReading(error: error, message: body.message)
    }
  }
}

/// What one request asks for and how its answer becomes pair rates.
struct FrankfurterPlan {
  /// The pairs, upper case, duplicates removed, in their first order.
  let pairs: [CurrencyPairKey]
  /// The `from` parameter: the shared base, or EUR to triangulate.
  let from: CurrencyCode
  /// The `to` codes, sorted; never contains `from`.
  let to: [CurrencyCode]
  /// Every code of every pair, sorted: what a 404 is about.
  let codes: [CurrencyCode]

  /// Plans the request for `pairs`.
  ///
  /// - Throws: `invalidCurrency` for a code that is not three ASCII letters,
  ///   `unsupported` for a pair whose two sides are the same currency, both
  ///   before any request.
  init(pairs input: [CurrencyPairKey]) throws {
    var pairs: [CurrencyPairKey] = []
    for pair in input where !pairs.contains(pair) { pairs.append(pair) }
    let codes = Set(pairs.flatMap { [$0.base, $0.quote] }).sorted()
    let invalid = codes.filter { !Self.isCode($0.text) }
    guard invalid.isEmpty else {
      throw ProviderError.invalidCurrency(
        provider: .provider(.frankfurter), currency: Self.listed(invalid))
    }
    if let same = pairs.first(where: { $0.base == $0.quote }) {
      throw ProviderError.unsupported(
        provider: .provider(.frankfurter),
        detail: "\(same) has the same currency on both sides")
    }
    let bases = Set(pairs.map(\.base))
    let from = bases.count == 1 ? (bases.first ?? "EUR") : "EUR"
    self.pairs = pairs
    self.from = from
    self.to = codes.filter { $0 != from }
    self.codes = codes
  }

  /// `from`, then `to` unless empty (no `to` means every currency).
  var query: [(String, String)] {
    to.isEmpty ? [("from", from.text)] : [("from", from.text), ("to", Self.listed(to))]
  }

  /// `codes` as one parameter or message: `GBP,USD`.
  static func listed(_ codes: [CurrencyCode]) -> String {
    codes.map(\.text).joined(separator: ",")
  }

  /// Three ASCII letters, the only codes Frankfurter has.
  static func isCode(_ text: String) -> Bool {
    text.utf8.count == 3
      && text.utf8.allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
  }

  /// Throws unless the response is in the base that was asked for, which a
  /// mirror that ignores `from` would get wrong.
  func checkBase(_ base: String, endpoint: String) throws {
    guard CurrencyCode(base) == from else {
      throw ProviderError.malformedResponse(
        provider: .provider(.frankfurter), endpoint: endpoint,
        detail: "at base: expected \(from), found '\(UntrustedText.sanitize(base))'")
    }
  }

  /// One response's rates per one unit of `from`, upper-cased and divided by
  /// `amount`, with `from` itself added as 1.
  ///
  /// - Throws: `malformedResponse` for a rate that is not plausible (``AnswerGate``).
  func table(_ rates: [String: Double], amount: Double?, endpoint: String, path: String) throws
    -> [CurrencyCode: Double]
  {
    let divisor = amount.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 1
    var table: [CurrencyCode: Double] = [:]
    for (code, rate) in rates {
      table[CurrencyCode(code)] = try AnswerGate.price(
        rate / divisor, provider: Provider.frankfurter, endpoint: endpoint,
        at: "\(path).\(UntrustedText.sanitize(String(code.prefix(8))))")
    }
    table[from] = 1
    return table
  }

  /// `table[quote] / table[base]`; `nil` when either is absent.
  func rate(_ pair: CurrencyPairKey, in table: [CurrencyCode: Double]) -> Double? {
    guard let base = table[pair.base], let quote = table[pair.quote] else { return nil }
    return Figure.crossRate(quote, per: base)
  }

  /// The codes the pairs need that `available` lacks, sorted.
  func missingCodes(in available: Set<CurrencyCode>) -> [CurrencyCode] {
    codes.filter { $0 != from && !available.contains($0) }
  }
}
