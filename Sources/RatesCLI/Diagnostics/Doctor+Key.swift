import RateCore

extension Doctor {
  // MARK: - The CoinGecko key

  /// Where the key in use comes from: its environment variable, or the config file.
  var keyVariable: String? {
    switch settings.resolved[.apiKey]?.source {
    case .environment(let name)?: return name
    case .configFile?: return "api-key in the config file"
    default: break
    }
    switch settings.coinGeckoKey {
    case .pro?: return EnvironmentVariable.coinGeckoProKey.name
    case .demo?: return EnvironmentVariable.coinGeckoKey.name
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
          detail: "\(host) wants an API key and none is set: " + KeyAdvice.getDemoKey,
          values: ["kind": .string("none"), "set": .bool(false)])
      }
      return DoctorCheck(
        name: name, status: .ok,
        detail: "no key set: the public host's lower rate limit applies (a free Demo key"
          + " raises it: 'rates config set api-key')",
        values: ["kind": .string("none"), "set": .bool(false)])
    }
    let (kind, value) =
      switch key {
      case .demo(let value): ("demo", value)
      case .pro(let value): ("pro", value)
      }
    let masked = Self.mask(value)
    let values: [String: DoctorCheck.Value] = [
      "kind": .string(kind), "set": .bool(true), "variable": .string(variable),
      "key": .string(masked),
    ]
    let both = kind == "pro" && EnvironmentVariable.coinGeckoKey.raw(in: environment).map { !$0.isEmpty } == true
    let also = both ? "; COINGECKO_API_KEY is ignored while COINGECKO_PRO_API_KEY is set" : ""
    let label = "\(kind) key \(masked) (\(variable))"
    if let mismatch = hostMismatch(kind: kind, host: host, label: label, also: also, values: values) {
      return mismatch
    }
    guard let ping else {
      return DoctorCheck(
        name: name, status: .warn, detail: "\(label) set; not checked: --offline\(also)",
        values: values)
    }
    return pingVerdict(
      ping, error: error, unauthorized: unauthorized, label: label, host: host, variable: variable,
      also: also, values: values)
  }

  /// A demo key on the pro host or a pro key on the public host, if so.
  func hostMismatch(
    kind: String, host: String, label: String, also: String, values: [String: DoctorCheck.Value]
  ) -> DoctorCheck? {
    let name = "coingecko-key"
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
    return nil
  }

  /// What the ping says of a key that is set.
  func pingVerdict(
    _ ping: Probe, error: ProviderError?, unauthorized: Bool, label: String, host: String,
    variable: String, also: String, values: [String: DoctorCheck.Value]
  ) -> DoctorCheck {
    let name = "coingecko-key"
    var values = values
    values["accepted"] = .bool(false)
    if ping.error != nil {
      return DoctorCheck(
        name: name, status: .warn,
        detail: "\(label) set; not checked: CoinGecko unreachable\(also)",
        values: values)
    }
    let status = ping.response?.status ?? 0
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
    case .keyPlanMismatch(_, let code, let sent)?:
      let setup = KeySetup(settings: settings, environment: environment)
      let advice = KeyAdvice.planMismatch(code: code, sent: sent, setup)
      return DoctorCheck(
        name: name, status: .fail,
        detail: "\(label) rejected by \(host) (error \(code)): \(advice)\(also)", values: values)
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
}
