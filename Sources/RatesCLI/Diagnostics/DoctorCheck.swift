import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One line of `rates doctor`: what was checked, a verdict and a sentence, plus figures for
/// `--json` (numbers stay numbers).
struct DoctorCheck: Sendable, Encodable, Equatable {
  /// The verdict.
  enum Status: String, Sendable, Encodable, Comparable, CaseIterable {
    case ok
    case warn
    case fail

    static func < (lhs: Status, rhs: Status) -> Bool {
      (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
  }

  /// A JSON value of a figure.
  typealias Value = JSONValue

  var name: String
  var status: Status
  var detail: String
  /// Extra figures, flattened into the JSON object (`latencyMs`, `bytes`, `path`, …).
  var values: [String: Value] = [:]

  typealias Key = MemberName

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(name, forKey: Key("name"))
    try container.encode(status, forKey: Key("status"))
    try container.encode(detail, forKey: Key("detail"))
    for (key, value) in values where !["name", "status", "detail"].contains(key) {
      try container.encode(value, forKey: Key(key))
    }
  }
}

/// The checks of `rates doctor`. Network checks make one light request per provider, all at
/// once, with the normal timeout and no retries; the rest only read local files.
struct Doctor: Sendable {
  let settings: EnvironmentSettings
  let environment: [String: String]
  let terminal: TerminalCapabilities
  let offline: Bool
  let now: @Sendable () -> Date
  let transport: HTTPTransport

  /// Every check, in display order.
  func run() async -> [DoctorCheck] {
    var checks = await providerChecks()
    checks.append(cacheCheck())
    let data = UserData(directory: settings.paths.data)
    checks.append(coinsCheck(data))
    checks.append(dataFileCheck("favorites", data.favorites) { $0.count })
    checks.append(dataFileCheck("pairs", data.pairs) { $0.count })
    checks.append(ledgerCheck(data.ledger))
    checks.append(dataFileCheck("config", ConfigFile.file(settings.paths)) { $0.count })
    checks.append(terminalCheck())
    return checks.map(redacted)
  }

  // MARK: - Providers

  /// The provider checks and the key check: one light request per provider, all at once
  /// (none with `--offline`), each with its rate-limit pause and last answer.
  func providerChecks() async -> [DoctorCheck] {
    let sources = DoctorSource.all(settings)
    guard !offline else {
      return sources.map {
        health(
          DoctorCheck(name: $0.provider.rawValue, status: .warn, detail: "not checked: --offline"), of: $0.provider)
      } + [keyCheck(ping: nil)]
    }
    let probes = await withTaskGroup(of: (Int, Probe).self) { group in
      for (index, source) in sources.enumerated() {
        group.addTask {
          let headers = source.provider == .coinGecko ? geckoHeaders : [:]
          return (
            index,
            await probe(
              provider: source.provider, baseURL: source.url, path: source.path,
              query: source.query, headers: headers, validate: source.validate)
          )
        }
      }
      var probes: [Int: Probe] = [:]
      for await (index, probe) in group { probes[index] = probe }
      return probes
    }
    var checks: [DoctorCheck] = []
    for (index, source) in sources.enumerated() {
      guard let probe = probes[index] else { continue }
      var check = health(providerCheck(probe, url: source.url, variable: source.variable.name), of: source.provider)
      if source.provider == .coinDesk, check.status == .fail,
        settings.forcedProvider != .coinDesk
      {
        check.status = .warn
        check.detail += " (the CoinDesk API is retired; it only matters with --provider coindesk)"
      }
      checks.append(check)
      if source.provider == .coinGecko { checks.append(keyCheck(ping: probe)) }
    }
    return checks
  }

  /// `check` with `provider`'s rate-limit pause (``ProviderPauses``) and last answer.
  func health(_ check: DoctorCheck, of provider: Provider) -> DoctorCheck {
    var check = check
    let pauses = ProviderPauses(cacheFolder: settings.paths.cache)
    let current = now()
    if let end = pauses.pausedUntil(provider, now: current) {
      check.values["pausedUntil"] = .string(ISO8601.format(end))
      check.detail += "; rate limited, skipped until \(ISO8601.format(end))"
      check.status = max(check.status, .warn)
    }
    if let last = pauses.lastSuccess(provider) {
      check.values["lastSuccess"] = .string(ISO8601.format(last))
      check.detail += "; last answered \(ISO8601.format(last))"
    } else {
      check.detail += "; no answer recorded yet"
    }
    return check
  }

  /// One request's outcome.
  struct Probe: Sendable {
    var provider: Provider
    var milliseconds: Int
    var response: HTTPResponse?
    var error: ProviderError?
    /// Why the commands would refuse a 2xx answer (the client's decoding and ``AnswerGate``).
    var refusal: ProviderError?
  }

  var geckoHeaders: [String: String] {
    switch settings.coinGeckoKey {
    case .demo(let value)?: return ["x-cg-demo-api-key": value]
    case .pro(let value)?: return ["x-cg-pro-api-key": value]
    case nil: return [:]
    }
  }

  func probe(
    provider: Provider, baseURL: URL, path: String, query: [(String, String)],
    headers: [String: String], validate: DoctorSource.Validation
  ) async -> Probe {
    let http = ProviderHTTP(
      provider: provider, baseURL: baseURL, transport: transport, headers: headers)
    let clock = ContinuousClock()
    let start = clock.now
    var probe = Probe(provider: provider, milliseconds: 0)
    do {
      let response = try await http.get(path, query: query)
      probe.response = response
      probe.refusal = await Self.refusal(of: response, baseURL: baseURL, validate: validate)
    } catch let error as ProviderError {
      probe.error = error
    } catch {
      probe.error = .network(provider: .provider(provider), .other(host: baseURL.host ?? "?", code: -1))
    }
    let elapsed = clock.now - start
    probe.milliseconds = Int(
      elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    return probe
  }

  /// Why the commands would refuse `response`, a 2xx answer: the provider's client reads it
  /// (replayed, without another request) as the commands do; nil when it passes.
  static func refusal(
    of response: HTTPResponse, baseURL: URL, validate: DoctorSource.Validation
  ) async -> ProviderError? {
    guard response.isSuccess else { return nil }
    do {
      try await validate(baseURL, HTTPTransport { _ in response })
      return nil
    } catch let error as ProviderError {
      return error
    } catch {
      return nil
    }
  }

  /// The words for a refused 2xx answer: `answered HTML, not JSON`.
  static func refusalText(_ error: ProviderError) -> String {
    guard case .malformedResponse(_, _, let detail) = error else { return ErrorReport(error).message }
    return detail == ProviderHTTP.htmlInsteadOfJSON
      ? "answered HTML, not JSON" : "answered something the commands refuse (\(detail))"
  }

  /// The error a non-2xx CoinGecko answer stands for, as the client maps it.
  func geckoError(_ probe: Probe) -> ProviderError? {
    guard let response = probe.response, !response.isSuccess else { return nil }
    let client = CoinGeckoClient(
      baseURL: settings.coinGeckoURL, key: settings.coinGeckoKey, transport: transport)
    do {
      try client.check(response, endpoint: "/ping", coin: "", currency: "")
    } catch let error as ProviderError {
      return error
    } catch {}
    return .httpStatus(provider: .provider(probe.provider), status: response.status, message: "")
  }

  func providerCheck(_ probe: Probe, url: URL, variable: String) -> DoctorCheck {
    let name = probe.provider.rawValue
    let host = url.host ?? url.absoluteString
    var values: [String: DoctorCheck.Value] = [
      "latencyMs": .integer(Int64(probe.milliseconds)), "url": .string(url.absoluteString),
    ]
    let overridden =
      environment[variable].map { !$0.trimming(.whitespaces).isEmpty } ?? false
    values["overridden"] = .bool(overridden)
    let place = overridden ? "\(url.absoluteString) from \(variable)" : host
    if let error = probe.error {
      let message = ErrorReport(error).message
      return DoctorCheck(
        name: name, status: .fail, detail: "unreachable: \(message)", values: values)
    }
    let status = probe.response?.status ?? 0
    values["httpStatus"] = .integer(Int64(status))
    if let refusal = probe.refusal {
      return DoctorCheck(
        name: name, status: .fail,
        detail: "\(Self.refusalText(refusal)) (HTTP \(status) in \(probe.milliseconds) ms; \(place))",
        values: values)
    }
    if (200...299).contains(status) {
      return DoctorCheck(
        name: name, status: .ok, detail: "reachable in \(probe.milliseconds) ms (\(place))",
        values: values)
    }
    if status == 429 {
      return DoctorCheck(
        name: name, status: .warn,
        detail: "reachable in \(probe.milliseconds) ms but rate limited (HTTP 429; \(place))",
        values: values)
    }
    var detail = "answered HTTP \(status) in \(probe.milliseconds) ms (\(place))"
    if probe.provider == .coinGecko, let error = geckoError(probe) {
      switch error {
      case .apiKeyMissing, .apiKeyRejected, .paidPlanOnly, .keyPlanMismatch:
        detail += ": see the key check"
      case .httpStatus(_, 401, _): detail += ": see the key check"
      default: detail += ": " + ErrorReport(error).message
      }
    }
    return DoctorCheck(name: name, status: .fail, detail: detail, values: values)
  }

  // MARK: - Never the key

  /// `check` with every occurrence of the API key replaced by its mask.
  func redacted(_ check: DoctorCheck) -> DoctorCheck {
    var secrets = EnvironmentVariable.coinGeckoKeys.compactMap { $0.value(in: environment) }
    switch settings.coinGeckoKey {
    case .demo(let value)?, .pro(let value)?: secrets.append(value)
    case nil: break
    }
    secrets = secrets.filter { $0.count >= 4 }
    guard !secrets.isEmpty else { return check }
    func clean(_ text: String) -> String {
      secrets.reduce(text) { $0.replacing($1, with: Self.mask($1)) }
    }
    var check = check
    check.detail = clean(check.detail)
    for (key, value) in check.values {
      if case .string(let text) = value { check.values[key] = .string(clean(text)) }
    }
    return check
  }
}

/// A provider `rates doctor` checks: its name, base URL and the light request that shows it
/// answers. A new source is one more entry in ``all(_:)``.
struct DoctorSource: Sendable {
  var provider: Provider
  var url: URL
  var variable: EnvironmentVariable
  var path: String
  var query: [(String, String)] = []
  /// Reads an answer of `path` as the commands do, through the provider's own client.
  var validate: Validation

  /// A provider's client asking `path` at a base URL over a transport, throwing what the
  /// commands would.
  typealias Validation = @Sendable (URL, HTTPTransport) async throws -> Void

  /// Every provider, in display order.
  static func all(_ settings: EnvironmentSettings) -> [DoctorSource] {
    [
      DoctorSource(
        provider: .coinGecko, url: settings.coinGeckoURL, variable: .coinGeckoURL,
        path: "/ping",
        validate: { try await CoinGeckoClient(baseURL: $0, key: nil, transport: $1).ping() }),
      DoctorSource(
        provider: .frankfurter, url: settings.frankfurterURL, variable: .frankfurterURL,
        path: "/latest", query: [("from", "EUR"), ("to", "USD")],
        validate: {
          _ = try await FrankfurterClient(baseURL: $0, transport: $1)
            .latest(pairs: [CurrencyPairKey(base: "EUR", quote: "USD")])
        }),
      DoctorSource(
        provider: .ecb, url: ecbDailyURL(settings), variable: .ecbURL,
        path: ECBClient.dailyPath,
        validate: { _ = try await ECBClient(baseURL: $0, transport: $1).latest() }),
      DoctorSource(
        provider: .coinDesk, url: settings.coinDeskURL, variable: .coinDeskURL,
        path: "/currentprice/USD.json",
        validate: {
          _ = try await CoinDeskClient(baseURL: $0, transport: $1).currentPrice(currency: "USD")
        }),
      DoctorSource(
        provider: .coinbase, url: settings.coinbaseURL, variable: .coinbaseURL,
        path: "/products/BTC-USD/ticker",
        validate: {
          _ = try await CoinbaseClient(baseURL: $0, transport: $1).ticker(base: "BTC", quote: "USD")
        }),
      DoctorSource(
        provider: .kraken, url: settings.krakenURL, variable: .krakenURL,
        path: "/0/public/Ticker", query: [("pair", "XBTUSD")],
        validate: {
          _ = try await KrakenClient(baseURL: $0, transport: $1).ticker(base: "BTC", quote: "USD")
        }),
    ]
  }

  /// Where the ECB's daily file is asked: `RATES_ECB_URL` (one base for both ECB paths),
  /// else the ECB's own host of the daily file.
  static func ecbDailyURL(_ settings: EnvironmentSettings) -> URL {
    settings.ecbURL ?? ECBClient.dailyFileBaseURL ?? URL(fileURLWithPath: "/")
  }
}
