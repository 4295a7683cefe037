/// The ECB's own euro reference rates (the figures Frankfurter mirrors), keyless:
/// the latest day from the daily file (`/stats/eurofxref/eurofxref-daily.xml` on
/// `www.ecb.europa.eu`) and ranges from the data API's CSV
/// (`/service/data/EXR/D.USD+GBP.EUR.SP00.A?startPeriod=…&endPeriod=…&format=csvdata`
/// on `data-api.ecb.europa.eu`).
///
/// The two live on different hosts; a mirror or a test server set by
/// `RATES_ECB_URL` serves both paths under one base URL (``init(baseURL:transport:)``).
/// Every figure passes ``AnswerGate``; rates are EUR-based, as the ECB publishes
/// them, with EUR itself 1.
public struct ECBClient: Sendable {
  /// The host of the daily file.
  public static let dailyFileBaseURL = URL(string: "https://www.ecb.europa.eu")
  /// The host of the data API.
  public static let dataAPIBaseURL = URL(string: "https://data-api.ecb.europa.eu")
  /// The daily file's path (also `rates doctor`'s light request).
  public static let dailyPath = "/stats/eurofxref/eurofxref-daily.xml"
  /// The days one range request spans (the CSV repeats long titles on every row).
  static let chunkDays = 365

  let daily: ProviderHTTP
  let data: ProviderHTTP

  /// A client asking the daily file under `dailyBaseURL` and the data API under
  /// `dataBaseURL` (``dailyFileBaseURL`` and ``dataAPIBaseURL``: the ECB's own hosts).
  public init(dailyBaseURL: URL, dataBaseURL: URL, transport: HTTPTransport) {
    daily = ProviderHTTP(provider: Provider.ecb, baseURL: dailyBaseURL, transport: transport, headers: [:])
    data = ProviderHTTP(provider: Provider.ecb, baseURL: dataBaseURL, transport: transport, headers: [:])
  }

  /// A client asking both paths under one `baseURL` (a mirror, a test server).
  public init(baseURL: URL, transport: HTTPTransport) {
    self.init(dailyBaseURL: baseURL, dataBaseURL: baseURL, transport: transport)
  }

  /// The latest published day and its rates per euro by upper-case code, EUR
  /// included as 1, from one request for the daily file.
  ///
  /// - Throws: ``ProviderError``; `malformedResponse` for a document without a
  ///   dated `Cube`, with more than one day, or with an implausible rate.
  public func latest() async throws -> (date: Day, rates: [CurrencyCode: Double]) {
    let endpoint = Self.dailyPath
    let response = try await daily.get(endpoint)
    try check(response, http: daily, notFound: nil)
    let days = try cubes(response.body, endpoint: endpoint)
    guard days.count == 1, let only = days.first else {
      throw AnswerGate.refusal(Provider.ecb, endpoint, "\(days.count) days where one was expected")
    }
    return only
  }

  /// Rates per euro of `codes` (upper case; EUR needs no request) for each ECB
  /// working day from `start` to `end`, in requests of at most ``chunkDays``
  /// days; days before ``FrankfurterClient/firstDay`` are not asked for. A day
  /// the ECB published nothing for is absent.
  ///
  /// - Throws: ``ProviderError``; `invalidCurrency` when the data API has no
  ///   series for a code that is not an ECB currency.
  public func series(codes: [CurrencyCode], start: Day, end: Day) async throws -> [Day: [CurrencyCode: Double]] {
    let asked = Set(codes).subtracting(["EUR"]).sorted()
    var result: [Day: [CurrencyCode: Double]] = [:]
    let first = max(start, FrankfurterClient.firstDay)
    guard first <= end, !asked.isEmpty else { return result }
    for chunk in FrankfurterClient.chunks(first...end, days: Self.chunkDays) {
      let answer = try await seriesChunk(codes: asked, chunk)
      result.merge(answer) { $0.merging($1) { $1 } }
    }
    return result
  }

  /// The rates of `pairs` (each `rate[quote] / rate[base]` of the EUR-based figures, as
  /// Frankfurter computes them) on each ECB working day from `start` to `end`, in the
  /// requests of ``series(codes:start:end:)``: the shape of
  /// ``FrankfurterClient/timeSeries(pairs:start:end:)``, every pair present, a day
  /// lacking either code left out.
  public func timeSeries(pairs: [CurrencyPairKey], start: Day, end: Day) async throws
    -> [CurrencyPairKey: [RatePoint]]
  {
    let table = try await series(codes: pairs.flatMap { [$0.base, $0.quote] }, start: start, end: end)
    var result: [CurrencyPairKey: [RatePoint]] = [:]
    for pair in pairs {
      result[pair] = table.keys.sorted().compactMap { day in
        guard let base = table[day]?[pair.base], let quote = table[day]?[pair.quote] else { return nil }
        return RatePoint(date: day, rate: Figure.crossRate(quote, per: base))
      }
    }
    return result
  }

  /// One range request.
  func seriesChunk(codes: [CurrencyCode], _ chunk: ClosedRange<Day>) async throws -> [Day: [CurrencyCode: Double]] {
    let endpoint = "/service/data/EXR/D.{codes}.EUR.SP00.A"
    let path = "/service/data/EXR/D.\(codes.map(\.text).joined(separator: "+")).EUR.SP00.A"
    let response = try await data.get(
      path,
      query: [
        ("startPeriod", chunk.lowerBound.description), ("endPeriod", chunk.upperBound.description),
        ("format", "csvdata"),
      ])
    // "No results found." is the data API's empty answer: no working day in the
    // range, or a code it has no series for.
    if response.status == 404, ProviderHTTP.text(of: response.body).hasPrefix("No results found") {
      guard codes.allSatisfy(\.isECB) else {
        let unknown = codes.filter { !$0.isECB }
        throw ProviderError.invalidCurrency(
          provider: .provider(.ecb), currency: unknown.map(\.text).joined(separator: ","))
      }
      return [:]
    }
    try check(response, http: data, notFound: nil)
    return try rows(response.body, endpoint: endpoint, codes: Set(codes), chunk: chunk)
  }

  /// The dated cubes of an XML document, through ``AnswerGate``.
  func cubes(_ body: Data, endpoint: String) throws -> [(date: Day, rates: [CurrencyCode: Double])] {
    let days: [(day: String, rates: [(String, String)])]
    do {
      days = try ECBCubeReader.days(body)
    } catch {
      throw AnswerGate.refusal(Provider.ecb, endpoint, Self.describe(error, html: body))
    }
    return try days.map { entry in
      guard let day = Day(entry.day) else {
        throw AnswerGate.refusal(
          Provider.ecb, endpoint, "at Cube.time: '\(UntrustedText.sanitize(entry.day))' is not a date")
      }
      var rates: [CurrencyCode: Double] = ["EUR": 1]
      for (code, text) in entry.rates where FrankfurterPlan.isCode(code) {
        rates[CurrencyCode(code)] = try Self.rate(text, endpoint: endpoint, at: "Cube[\(code)]")
      }
      return (day, rates)
    }
  }

  /// The rows of a CSV answer, through ``AnswerGate``: only the asked codes
  /// and days inside `chunk`.
  func rows(_ body: Data, endpoint: String, codes: Set<CurrencyCode>, chunk: ClosedRange<Day>) throws
    -> [Day: [CurrencyCode: Double]]
  {
    let rows: [ECBCSVReader.Row]
    do {
      rows = try ECBCSVReader.rows(body)
    } catch {
      throw AnswerGate.refusal(Provider.ecb, endpoint, Self.describe(error, html: body))
    }
    var result: [Day: [CurrencyCode: Double]] = [:]
    var others: Set<String> = []
    var outside: [RatePoint] = []
    for row in rows where !row.value.isEmpty {
      guard codes.contains(CurrencyCode(row.currency)) else {
        others.insert(UntrustedText.sanitize(String(row.currency.prefix(8))))
        continue
      }
      guard let day = Day(row.day) else {
        throw AnswerGate.refusal(
          Provider.ecb, endpoint,
          "at TIME_PERIOD: '\(UntrustedText.sanitize(String(row.day.prefix(16))))' is not a day")
      }
      let rate = try Self.rate(row.value, endpoint: endpoint, at: "OBS_VALUE[\(row.currency) \(day)]")
      // Days outside the chunk are dropped (AnswerGate's rule), refused below when none is inside.
      guard chunk.contains(day) else {
        outside.append(RatePoint(date: day, rate: rate))
        continue
      }
      result[day, default: ["EUR": 1]][CurrencyCode(row.currency)] = rate
    }
    if result.isEmpty {
      _ = try AnswerGate.days(outside, inside: chunk, asked: chunk, provider: Provider.ecb, endpoint: endpoint)
      if !others.isEmpty {
        throw AnswerGate.refusal(
          Provider.ecb, endpoint,
          "nothing asked in it: rates for \(NameList.capped(others.sorted())), "
            + "not \(codes.sorted().map(\.text).joined(separator: ", "))")
      }
    }
    return result
  }

  /// A rate as written, when it is a plausible price.
  static func rate(_ text: String, endpoint: String, at path: String) throws -> Double {
    guard let value = Double(text) else {
      let shown = UntrustedText.sanitize(String(text.prefix(16)))
      throw AnswerGate.refusal(
        Provider.ecb, endpoint, "at \(UntrustedText.sanitize(path)): '\(shown)' is not a number")
    }
    return try AnswerGate.price(
      value, provider: Provider.ecb, endpoint: endpoint, at: UntrustedText.sanitize(path))
  }

  /// A reader's failure in words; an HTML page said as such.
  static func describe(_ error: any Error, html body: Data) -> String {
    let start = body.prefix(64).first { !(" \t\r\n" as String).utf8.contains($0) }
    let head = String(decoding: body.prefix(512), as: UTF8.self).lowercased()
    if start == UInt8(ascii: "<"), head.contains("<html") {
      return "an HTML page where ECB data was expected"
    }
    switch error {
    case ECBCubeReader.Failure.noCubes: return "no dated Cube element"
    case ECBCubeReader.Failure.tooMany, ECBCSVReader.Failure.tooMany:
      return "more entries than any ECB answer holds"
    case ECBCubeReader.Failure.badAttribute(let name): return "at Cube: a bad '\(name)' attribute"
    case ECBCubeReader.Failure.rateOutsideDay: return "a rate outside a dated Cube"
    case ECBCSVReader.Failure.missingColumn(let name): return "no \(name) column"
    case ECBCSVReader.Failure.notEuro(let code): return "a rate per \(code), not per euro"
    default: return "unreadable"
    }
  }

  /// The status check (``ProviderHTTP/check(_:reading:)``) with the body's text as message.
  func check(_ response: HTTPResponse, http: ProviderHTTP, notFound: ProviderError?) throws {
    try http.check(response) { response in
      ErrorBodyReading(
        error: response.status == 404 ? notFound : nil, message: ProviderHTTP.text(of: response.body))
    }
  }
}
