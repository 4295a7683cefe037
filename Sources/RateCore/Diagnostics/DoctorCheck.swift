import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One line of `rates doctor`: what was checked, a verdict and a sentence, plus figures for
/// `--json` (numbers stay numbers).
struct DoctorCheck: Sendable, Encodable, Equatable {
  /// The verdict.
  enum Status: String, Sendable, Encodable, Comparable {
    case ok
    case warn
    case fail

    static func < (lhs: Status, rhs: Status) -> Bool { lhs.rank < rhs.rank }
    var rank: Int {
      switch self {
      case .ok: return 0
      case .warn: return 1
      case .fail: return 2
      }
    }
  }

  /// A JSON value of a figure.
  enum Value: Sendable, Encodable, Equatable {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .int(let value): try container.encode(value)
      case .double(let value): try container.encode(value)
      case .string(let value): try container.encode(value)
      case .bool(let value): try container.encode(value)
      }
    }
  }

  var name: String
  var status: Status
  var detail: String
  /// Extra figures, flattened into the JSON object (`latencyMs`, `bytes`, `path`, …).
  var values: [String: Value] = [:]

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

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
    var checks: [DoctorCheck] = []
    if offline {
      for name in [Providers.coinGecko, Providers.frankfurter, Providers.coinDesk] {
        checks.append(
          DoctorCheck(name: name, status: .warn, detail: "not checked: --offline"))
      }
      checks.append(keyCheck(ping: nil))
    } else {
      async let gecko = probe(
        provider: Providers.coinGecko, baseURL: settings.coinGeckoURL, path: "/ping", query: [],
        headers: geckoHeaders)
      async let ecb = probe(
        provider: Providers.frankfurter, baseURL: settings.frankfurterURL, path: "/latest",
        query: [("from", "EUR"), ("to", "USD")], headers: [:])
      async let desk = probe(
        provider: Providers.coinDesk, baseURL: settings.coinDeskURL,
        path: "/currentprice/USD.json", query: [], headers: [:])
      let (ping, latest, bpi) = await (gecko, ecb, desk)
      checks.append(
        providerCheck(ping, url: settings.coinGeckoURL, variable: "RATES_COINGECKO_URL"))
      checks.append(keyCheck(ping: ping))
      checks.append(
        providerCheck(latest, url: settings.frankfurterURL, variable: "RATES_FRANKFURTER_URL"))
      var coinDesk = providerCheck(
        bpi, url: settings.coinDeskURL, variable: "RATES_COINDESK_URL")
      if coinDesk.status == .fail && settings.forcedProvider != Providers.coinDesk {
        coinDesk.status = .warn
        coinDesk.detail +=
          " (the CoinDesk API is retired; it only matters with --provider coindesk)"
      }
      checks.append(coinDesk)
    }
    checks.append(cacheCheck())
    let data = UserData(directory: settings.paths.data)
    checks.append(dataFileCheck("favorites", data.favorites) { $0.count })
    checks.append(dataFileCheck("pairs", data.pairs) { $0.count })
    checks.append(ledgerCheck(data.ledger))
    checks.append(dataFileCheck("config", ConfigFile.file(settings.paths)) { $0.count })
    checks.append(terminalCheck())
    return checks.map(redacted)
  }

  // MARK: - Providers

  /// One request's outcome.
  struct Probe: Sendable {
    var provider: String
    var milliseconds: Int
    var status: Int?
    var data: Data
    var response: HTTPURLResponse?
    var error: ProviderError?
  }

  var geckoHeaders: [String: String] {
    switch settings.coinGeckoKey {
    case .demo(let value)?: return ["x-cg-demo-api-key": value]
    case .pro(let value)?: return ["x-cg-pro-api-key": value]
    case nil: return [:]
    }
  }

  func probe(
    provider: String, baseURL: URL, path: String, query: [(String, String)],
    headers: [String: String]
  ) async -> Probe {
    let http = ProviderHTTP(
      provider: provider, baseURL: baseURL, transport: transport, headers: headers)
    let clock = ContinuousClock()
    let start = clock.now
    var probe = Probe(provider: provider, milliseconds: 0, status: nil, data: Data())
    do {
      let (data, response) = try await http.get(path, query: query)
      probe.data = data
      probe.response = response
      probe.status = response.statusCode
    } catch let error as ProviderError {
      probe.error = error
    } catch {
      probe.error = .network(provider: provider, .other(host: baseURL.host ?? "?", code: -1))
    }
    let elapsed = clock.now - start
    probe.milliseconds = Int(
      elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    return probe
  }

  /// The error a non-2xx CoinGecko answer stands for, as the client maps it.
  func geckoError(_ probe: Probe) -> ProviderError? {
    guard let response = probe.response, let status = probe.status, !(200...299).contains(status)
    else { return nil }
    let client = CoinGeckoClient(baseURL: settings.coinGeckoURL, key: nil, transport: transport)
    do {
      try client.check(response, probe.data, endpoint: "/ping", coin: "", currency: "")
    } catch let error as ProviderError {
      return error
    } catch {}
    return .httpStatus(provider: probe.provider, status: status, message: "")
  }

  func providerCheck(_ probe: Probe, url: URL, variable: String) -> DoctorCheck {
    let name = probe.provider
    let host = url.host ?? url.absoluteString
    var values: [String: DoctorCheck.Value] = [
      "latencyMs": .int(probe.milliseconds), "url": .string(url.absoluteString),
    ]
    let overridden =
      environment[variable].map { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? false
    values["overridden"] = .bool(overridden)
    let place = overridden ? "\(url.absoluteString) from \(variable)" : host
    if let error = probe.error {
      let message = ErrorReport(error).message
      return DoctorCheck(
        name: name, status: .fail, detail: "unreachable: \(message)", values: values)
    }
    let status = probe.status ?? 0
    values["httpStatus"] = .int(status)
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
    if name == Providers.coinGecko, let error = geckoError(probe) {
      switch error {
      case .apiKeyMissing, .apiKeyRejected: detail += ": see the key check"
      case .httpStatus(_, 401, _): detail += ": see the key check"
      default: detail += ": " + ErrorReport(error).message
      }
    }
    return DoctorCheck(name: name, status: .fail, detail: detail, values: values)
  }

  // MARK: - The CoinGecko key

  /// Where the key in use comes from: its environment variable, or the config file.
  var keyVariable: String? {
    switch settings.resolved[.apiKey]?.source {
    case .environment(let name)?: return name
    case .configFile?: return "api-key in the config file"
    default: break
    }
    switch settings.coinGeckoKey {
    case .pro?: return "COINGECKO_PRO_API_KEY"
    case .demo?: return "COINGECKO_API_KEY"
    case nil: return nil
    }
  }

  /// `CG-…a1b2`: at most the last four characters, and only of a long key.
  static func mask(_ key: String) -> String {
    let prefix = key.hasPrefix("CG-") ? "CG-" : ""
    let body = key.dropFirst(prefix.count)
    guard body.count >= 12 else { return prefix + "…" }
    let tail = String(body.suffix(4))
    guard tail.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
      return prefix + "…"
    }
    return prefix + "…" + tail
  }

  func keyCheck(ping: Probe?) -> DoctorCheck {
    let name = "coingecko-key"
    let host = settings.coinGeckoURL.host?.lowercased() ?? ""
    let error = ping.flatMap(geckoError)
    let unauthorized: Bool
    switch error {
    case .apiKeyMissing?, .httpStatus(_, 401, _)?: unauthorized = true
    default: unauthorized = false
    }
    guard let key = settings.coinGeckoKey, let variable = keyVariable else {
      if unauthorized {
        return DoctorCheck(
          name: name, status: .fail,
          detail: "\(host) wants an API key and none is set: set COINGECKO_API_KEY (demo) or "
            + "COINGECKO_PRO_API_KEY (pro)",
          values: ["kind": .string("none"), "set": .bool(false)])
      }
      return DoctorCheck(
        name: name, status: .ok,
        detail: "no key set: the public host's lower rate limit applies (a free "
          + "COINGECKO_API_KEY raises it)",
        values: ["kind": .string("none"), "set": .bool(false)])
    }
    let (kind, value) =
      switch key {
      case .demo(let value): ("demo", value)
      case .pro(let value): ("pro", value)
      }
    let masked = Self.mask(value)
    var values: [String: DoctorCheck.Value] = [
      "kind": .string(kind), "set": .bool(true), "variable": .string(variable),
      "key": .string(masked),
    ]
    let both = kind == "pro" && environment["COINGECKO_API_KEY"].map { !$0.isEmpty } == true
    let also = both ? "; COINGECKO_API_KEY is ignored while COINGECKO_PRO_API_KEY is set" : ""
    let label = "\(kind) key \(masked) (\(variable))"
    if kind == "demo" && host == "pro-api.coingecko.com" {
      return DoctorCheck(
        name: name, status: .fail,
        detail: "\(label) is a demo key but the CoinGecko URL is the pro host: use "
          + "COINGECKO_PRO_API_KEY for a pro key, or the public URL\(also)",
        values: values)
    }
    if kind == "pro" && host == "api.coingecko.com" {
      return DoctorCheck(
        name: name, status: .fail,
        detail: "\(label) is a pro key but the CoinGecko URL is the public host: unset "
          + "RATES_COINGECKO_URL, or use COINGECKO_API_KEY for a demo key\(also)",
        values: values)
    }
    guard let ping else {
      return DoctorCheck(
        name: name, status: .warn, detail: "\(label) set; not checked: --offline\(also)",
        values: values)
    }
    values["accepted"] = .bool(false)
    if ping.error != nil {
      return DoctorCheck(
        name: name, status: .warn,
        detail: "\(label) set; not checked: CoinGecko unreachable\(also)",
        values: values)
    }
    let status = ping.status ?? 0
    if (200...299).contains(status) {
      values["accepted"] = .bool(true)
      return DoctorCheck(
        name: name, status: .ok, detail: "\(label) accepted by \(host)\(also)", values: values)
    }
    switch error {
    case .apiKeyRejected(_, let detail)?:
      return DoctorCheck(
        name: name, status: .fail, detail: "\(label) rejected by \(host): \(detail)\(also)",
        values: values)
    case _ where unauthorized:
      return DoctorCheck(
        name: name, status: .fail,
        detail: "\(label) rejected by \(host) (HTTP \(status)): check the key in \(variable), "
          + "or unset it\(also)",
        values: values)
    default:
      return DoctorCheck(
        name: name, status: .warn,
        detail: "\(label) set; not checked: CoinGecko answered HTTP \(status)\(also)",
        values: values)
    }
  }

  // MARK: - Local files

  func cacheCheck() -> DoctorCheck {
    let inventory = CacheInventory.scan(settings.paths.cache)
    let path = inventory.directory.path
    var values: [String: DoctorCheck.Value] = [
      "path": .string(path), "bytes": .int(inventory.bytes), "entries": .int(inventory.entries),
      "unreadable": .int(inventory.unreadable),
    ]
    guard inventory.exists else {
      return DoctorCheck(name: "cache", status: .ok, detail: "empty (\(path))", values: values)
    }
    var detail =
      "\(path): \(inventory.entries) \(inventory.entries == 1 ? "entry" : "entries"), "
      + CacheInventory.formatBytes(inventory.bytes)
    if let oldest = inventory.oldest {
      values["oldest"] = .string(ISO8601.format(oldest))
      detail += ", oldest fetched \(CacheInventory.formatAge(oldest, now: now()))"
    }
    var status = DoctorCheck.Status.ok
    if inventory.unreadable > 0 {
      status = .warn
      detail += "; \(inventory.unreadable) unreadable (ignored, and replaced by the next fetch)"
    }
    if access(path, W_OK) != 0 {
      status = .warn
      detail += "; not writable"
    }
    return DoctorCheck(name: "cache", status: status, detail: detail, values: values)
  }

  func dataFileCheck<Value: Codable & Sendable>(
    _ name: String, _ file: DataFile<Value>, count: (Value) -> Int
  ) -> DoctorCheck {
    let path = file.url.path
    var values: [String: DoctorCheck.Value] = ["path": .string(path)]
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT {
        return DoctorCheck(name: name, status: .ok, detail: "none yet (\(path))", values: values)
      }
      return DoctorCheck(
        name: name, status: .fail, detail: "cannot read \(path): \(AtomicFile.lastError())",
        values: values)
    }
    let value: Value
    let target: URL
    do {
      target = try file.resolvedURL()
      guard let data = try file.readContents(of: target) else {
        return DoctorCheck(
          name: name, status: .fail, detail: "\(path) is a link to a missing file", values: values)
      }
      value = try file.decode(data)
    } catch {
      return DoctorCheck(
        name: name, status: .fail, detail: ErrorReport(error).message, values: values)
    }
    let entries = count(value)
    values["entries"] = .int(entries)
    values["version"] = .int(file.version)
    var detail =
      "\(path): version \(file.version), \(entries) \(entries == 1 ? "entry" : "entries")"
    var status = DoctorCheck.Status.ok
    if stat(target.path, &info) == 0 {
      let mode = Int(info.st_mode) & 0o777
      values["mode"] = .string(String(format: "%04o", mode))
      if mode & 0o077 != 0 {
        status = .warn
        detail +=
          "; mode \(String(format: "%04o", mode)) is wider than 0600: chmod 600 "
          + DataFileError.shellQuoted(target.path)
      }
    }
    return DoctorCheck(name: name, status: status, detail: detail, values: values)
  }

  func terminalCheck() -> DoctorCheck {
    let parts = [
      terminal.isTTY ? "a terminal" : "not a terminal",
      terminal.color ? "colour" : "no colour",
      "\(terminal.width) columns",
      terminal.unicode ? "UTF-8" : "ASCII",
    ]
    return DoctorCheck(
      name: "terminal", status: .ok, detail: parts.joined(separator: ", "),
      values: [
        "tty": .bool(terminal.isTTY), "color": .bool(terminal.color),
        "width": .int(terminal.width), "utf8": .bool(terminal.unicode),
      ])
  }

  // MARK: - Never the key

  /// `check` with every occurrence of the API key replaced by its mask.
  func redacted(_ check: DoctorCheck) -> DoctorCheck {
    var secrets = ["COINGECKO_API_KEY", "COINGECKO_PRO_API_KEY"].compactMap {
      environment[$0]?.trimmingCharacters(in: .whitespaces)
    }
    switch settings.coinGeckoKey {
    case .demo(let value)?, .pro(let value)?: secrets.append(value)
    case nil: break
    }
    secrets = secrets.filter { $0.count >= 4 }
    guard !secrets.isEmpty else { return check }
    func clean(_ text: String) -> String {
      secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.mask($1)) }
    }
    var check = check
    check.detail = clean(check.detail)
    for (key, value) in check.values {
      if case .string(let text) = value { check.values[key] = .string(clean(text)) }
    }
    return check
  }
}
