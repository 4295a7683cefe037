import RateCore

/// The user's CoinGecko key setup: which plan the key is for, if any, and
/// where it is set. Key advice is worded for it, so a keyless user is never
/// told to unset a key they never set.
struct KeySetup: Equatable, Sendable {
  /// Where a key is set.
  enum Origin: Equatable, Sendable {
    /// `COINGECKO_API_KEY` or `COINGECKO_PRO_API_KEY`.
    case environment
    /// `rates config set api-key` (and `api-plan`).
    case configFile
  }

  /// The plan of the key, `nil` with no key.
  var plan: APIKeyPlan?
  /// Where the key is set (meaningless without one).
  var origin: Origin
  /// Whether `RATES_COINGECKO_URL` points `rates` at a host of its choosing.
  var customHost: Bool
}

extension KeySetup {
  /// The setup the environment and the config file describe, as the
  /// settings read them (``EnvironmentSettings``, the one home of the key's
  /// precedence); keyless when they cannot be read.
  init(environment: [String: String], config: [String: String]?) {
    guard
      let settings = try? EnvironmentSettings(
        environment: environment, options: GlobalOptions(), config: config ?? [:], lenient: true)
    else {
      self.init(plan: nil, origin: .environment, customHost: Self.customHost(environment))
      return
    }
    self.init(settings: settings, environment: environment)
  }

  /// The setup the resolved settings describe.
  init(settings: EnvironmentSettings, environment: [String: String]) {
    var origin = Origin.environment
    if case .configFile? = settings.resolved[.apiKey]?.source { origin = .configFile }
    self.init(
      plan: settings.coinGeckoKey?.plan, origin: origin, customHost: Self.customHost(environment))
  }

  /// Whether `RATES_COINGECKO_URL` is set in `environment`.
  static func customHost(_ environment: [String: String]) -> Bool {
    !(EnvironmentVariable.coinGeckoURL.raw(in: environment) ?? "").isEmpty
  }
}

/// The words of CoinGecko key advice, chosen by ``KeySetup``.
enum KeyAdvice {
  /// Where a free Demo key comes from and how to store it.
  static let getDemoKey =
    "get a free Demo key at https://www.coingecko.com/en/api and store it with"
    + " 'rates config set api-key' (read from stdin, never from the command line)"

  /// The hint after a CoinGecko rate limit: a key helps only those without one.
  static func rateLimitHint(_ setup: KeySetup?) -> String {
    guard setup?.plan == nil else { return "" }
    return " (a free Demo key raises it: 'rates config set api-key')"
  }

  /// After 10002: no key reached a host that needs one.
  static func missing(_ setup: KeySetup?) -> String {
    guard let setup, setup.plan != nil else {
      // Only a host the user chose can be unset.
      guard setup?.customHost ?? false else { return getDemoKey }
      return getDemoKey + "; without a key, use the public host (unset RATES_COINGECKO_URL)"
    }
    return "the key set in \(place(setup)) was not accepted as one: check it with 'rates doctor'"
  }

  /// After 10010 (a Pro key on the public host) or 10011 (a Demo key on the
  /// pro host), for the key as it was sent.
  static func planMismatch(code: Int, sent: APIKeyPlan?, _ setup: KeySetup?) -> String {
    let custom = setup?.customHost ?? false
    switch (code, sent) {
    case (10010, .pro?):
      return "a Pro key works only on pro-api.coingecko.com, and this request went to the"
        + " public host"
        + (custom ? ": unset RATES_COINGECKO_URL" : "")
        + "; if it is a free Demo key, " + storeAs(.demo, setup)
    case (10010, .demo?):
      return "CoinGecko takes this key for a Pro key: " + storeAs(.pro, setup)
    case (10011, .demo?):
      return "a Demo key works only on api.coingecko.com, and this request went to the pro host"
        + (custom ? ": unset RATES_COINGECKO_URL" : "")
    case (10011, .pro?):
      return "CoinGecko takes this key for a Demo key, which works on the public host only: "
        + storeAs(.demo, setup)
    default:
      return "the key and the host belong to different plans, although no key was sent:"
        + " check RATES_COINGECKO_URL"
    }
  }

  /// How to store the key as a `plan` key, where the user keeps it.
  static func storeAs(_ plan: APIKeyPlan, _ setup: KeySetup?) -> String {
    switch (setup?.origin, plan) {
    case (.configFile?, _):
      return "run 'rates config set api-plan \(plan.rawValue)'"
    case (_, .demo):
      return "set it as COINGECKO_API_KEY instead of COINGECKO_PRO_API_KEY"
    case (_, .pro):
      return "set it as COINGECKO_PRO_API_KEY instead of COINGECKO_API_KEY"
    }
  }

  /// Where the key is set, for a message.
  static func place(_ setup: KeySetup) -> String {
    switch (setup.origin, setup.plan) {
    case (.configFile, _): return "the config file ('rates config')"
    case (.environment, .pro?): return EnvironmentVariable.coinGeckoProKey.name
    default: return EnvironmentVariable.coinGeckoKey.name
    }
  }
}
