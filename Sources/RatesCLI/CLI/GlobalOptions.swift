import Foundation
import RateCore

/// The output formats of `--format`.
public enum OutputFormat: String, CaseIterable, Sendable {
  case table, json, csv, ledger, beancount
}


/// Flags every command accepts, anywhere on the command line.
public struct GlobalOptions: Sendable, Equatable {
  /// `--format`, or `json` for `--json`; `nil` for the default (a table).
  public var format: OutputFormat?
  /// One JSON document on stdout; errors as JSON on stderr.
  public var json: Bool { format == .json }
  /// `--no-color`.
  public var noColor = false
  /// `--ascii`: no UTF-8 block characters.
  public var ascii = false
  /// `--offline`: never touch the network.
  public var offline = false
  /// `--refresh`: ignore the cache when reading.
  public var refresh = false
  /// `--provider NAME`, when given.
  public var provider: String?

  /// The help lines for these flags.
  static let help = """
    Global options:
      --json              print one JSON document (errors as JSON on stderr)
      --format FORMAT     table (default), json, or for history, stats, current and ledger
                          list also csv, ledger or beancount (price directives)
      --no-color          no colour (also when NO_COLOR is set or stdout is not a terminal)
      --ascii             ASCII sparklines and charts instead of UTF-8 blocks
      --offline           use cached data only; never touch the network
      --refresh           ignore cached data and fetch anew
      --provider NAME     force a provider: coingecko, coindesk (Bitcoin only) or frankfurter
                          (ECB fiat rates); by default fiat pairs use frankfurter, coins
                          coingecko
      -h, --help          show help
      --version           show the version
    """

  /// Removes the global flags from `scanner`.
  init(parsing scanner: inout ArgumentScanner) throws(UsageError) {
    let json = try scanner.flag("--json")
    format = try scanner.option("--format", expected: OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")) {
      OutputFormat(rawValue: $0.lowercased())
    }
    if json {
      if let format, format != .json {
        throw UsageError.invalid("--json and --format \(format.rawValue) cannot be used together")
      }
      format = .json
    }
    if format == .table { format = nil }
    noColor = try scanner.flag("--no-color")
    ascii = try scanner.flag("--ascii")
    offline = try scanner.flag("--offline")
    refresh = try scanner.flag("--refresh")
    provider = try scanner.option("--provider").map { $0.lowercased() }
    if let provider, !Providers.all.contains(provider) {
      throw UsageError.invalidValue(
        option: "--provider", value: provider,
        expected: Providers.all.joined(separator: ", "))
    }
    if offline && refresh {
      throw UsageError.invalid("--offline and --refresh cannot be used together")
    }
  }

  init() {}

  /// Refuses a `--format` the command cannot write.
  func require(formats: Set<OutputFormat>, command: String) throws(UsageError) {
    guard let format, format != .json, !formats.contains(format) else { return }
    throw UsageError.invalid(
      "--format \(format.rawValue) is not available for 'rates \(command)': use table or json")
  }

  /// The cache mode these flags ask for.
  var cacheMode: CacheMode { offline ? .offline : refresh ? .refresh : .normal }
}

/// The effective settings: flag > environment > config file > default, with
/// where each came from (for `rates config`).
struct EnvironmentSettings: Sendable {
  /// The default quote currency.
  var currency: String
  /// The provider the user named, if any.
  var forcedProvider: String?
  /// The provider for coins: the forced one, else CoinGecko.
  var provider: String { forcedProvider ?? Providers.coinGecko }
  /// The CoinGecko key and its plan.
  var coinGeckoKey: CoinGeckoClient.APIKey?
  /// Base URLs (tests and mirrors).
  var coinGeckoURL: URL
  var coinDeskURL: URL
  var frankfurterURL: URL
  /// The per-request timeout in whole seconds.
  var timeoutSeconds: Int
  /// File locations.
  var paths: RatesPaths
  /// Each managed setting's effective value (API key unmasked: display with
  /// ``ConfigKey/display(_:)``) and its source.
  var resolved: [ConfigKey: (value: String?, source: SettingSource)] = [:]

  /// - Parameter lenient: ignore invalid values in the config file instead of
  ///   refusing them (for the commands that repair or report the file).
  init(
    environment: [String: String], options: GlobalOptions, config: [String: String] = [:],
    lenient: Bool = false
  ) throws(UsageError) {
    func value(_ name: String) -> String? {
      guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty
      else { return nil }
      return text
    }
    func stored(_ key: ConfigKey) throws(UsageError) -> String? {
      guard let raw = config[key.rawValue] else { return nil }
      do {
        return try key.normalize(raw)
      } catch {
        // `config` and `doctor` must still run to repair or report it.
        if lenient { return nil }
        throw UsageError.invalid(
          "the config file's \(key.rawValue) is invalid (\(error.localizedDescription)): fix it with 'rates config set \(key.rawValue) …' or 'rates config unset \(key.rawValue)'")
      }
    }
    // currency
    if let env = value("RATES_CURRENCY") {
      currency = env.uppercased()
      resolved[.currency] = (currency, .environment("RATES_CURRENCY"))
    } else if let file = try stored(.currency) {
      currency = file
      resolved[.currency] = (file, .configFile)
    } else {
      currency = "USD"
      resolved[.currency] = ("USD", .defaultValue)
    }
    // provider
    if let flag = options.provider {
      forcedProvider = flag
      resolved[.provider] = (flag, .flag("--provider"))
    } else if let env = value("RATES_PROVIDER")?.lowercased() {
      guard Providers.all.contains(env) else {
        throw UsageError.invalid(
          "RATES_PROVIDER '\(TerminalText.sanitize(env))' is not a provider: use "
            + ConfigKey.providers.joined(separator: ", "))
      }
      forcedProvider = env
      resolved[.provider] = (env, .environment("RATES_PROVIDER"))
    } else if let file = try stored(.provider) {
      forcedProvider = file
      resolved[.provider] = (file, .configFile)
    } else {
      resolved[.provider] = (nil, .defaultValue)
    }
    // API key and plan
    if let pro = value("COINGECKO_PRO_API_KEY") {
      coinGeckoKey = .pro(pro)
      resolved[.apiKey] = (pro, .environment("COINGECKO_PRO_API_KEY"))
      resolved[.apiPlan] = ("pro", .environment("COINGECKO_PRO_API_KEY"))
    } else if let demo = value("COINGECKO_API_KEY") {
      coinGeckoKey = .demo(demo)
      resolved[.apiKey] = (demo, .environment("COINGECKO_API_KEY"))
      resolved[.apiPlan] = ("demo", .environment("COINGECKO_API_KEY"))
    } else if let key = try stored(.apiKey) {
      let plan = try stored(.apiPlan) ?? "demo"
      coinGeckoKey = plan == "pro" ? .pro(key) : .demo(key)
      resolved[.apiKey] = (key, .configFile)
      resolved[.apiPlan] = (plan, config[ConfigKey.apiPlan.rawValue] == nil ? .defaultValue : .configFile)
    } else {
      resolved[.apiKey] = (nil, .defaultValue)
      resolved[.apiPlan] = (try stored(.apiPlan), config[ConfigKey.apiPlan.rawValue] == nil ? .defaultValue : .configFile)
    }
    func url(_ name: String, _ fallback: URL?) throws(UsageError) -> URL {
      if let text = value(name) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
          scheme == "http" || scheme == "https", url.host != nil
        else {
          throw UsageError.invalid(
            "\(name) '\(TerminalText.sanitize(text))' is not an http(s) URL")
        }
        return url
      }
      guard let fallback else { throw UsageError.invalid("no default URL for \(name)") }
      return fallback
    }
    let geckoDefault =
      if case .pro = coinGeckoKey { CoinGeckoClient.proBaseURL } else {
        CoinGeckoClient.publicBaseURL
      }
    coinGeckoURL = try url("RATES_COINGECKO_URL", geckoDefault)
    coinDeskURL = try url("RATES_COINDESK_URL", CoinDeskClient.defaultBaseURL)
    frankfurterURL = try url("RATES_FRANKFURTER_URL", FrankfurterClient.defaultBaseURL)
    if let text = value("RATES_TIMEOUT") {
      guard let seconds = Int(text), (1...120).contains(seconds) else {
        throw UsageError.invalid("RATES_TIMEOUT '\(TerminalText.sanitize(text))' must be whole seconds from 1 to 120")
      }
      timeoutSeconds = seconds
      resolved[.timeout] = (String(seconds), .environment("RATES_TIMEOUT"))
    } else if let file = try stored(.timeout), let seconds = Int(file) {
      timeoutSeconds = seconds
      resolved[.timeout] = (file, .configFile)
    } else {
      timeoutSeconds = 10
      resolved[.timeout] = ("10", .defaultValue)
    }
    paths = RatesPaths(environment: environment)
  }
}
