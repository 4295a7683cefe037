import Foundation

/// Flags every command accepts, anywhere on the command line.
public struct GlobalOptions: Sendable, Equatable {
  /// `--json`: one JSON document on stdout; errors as JSON on stderr.
  public var json = false
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
    json = try scanner.flag("--json")
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

  /// The cache mode these flags ask for.
  var cacheMode: CacheMode { offline ? .offline : refresh ? .refresh : .normal }
}

/// Settings drawn from the environment, with their defaults.
struct EnvironmentSettings: Sendable {
  /// The default quote currency: `RATES_CURRENCY`, else USD.
  var currency: String
  /// The provider the user named (`--provider`, else `RATES_PROVIDER`), if any.
  var forcedProvider: String?
  /// The provider for coins: the forced one, else CoinGecko.
  var provider: String { forcedProvider ?? Providers.coinGecko }
  /// The CoinGecko key and its plan.
  var coinGeckoKey: CoinGeckoClient.APIKey?
  /// Base URLs (tests and mirrors).
  var coinGeckoURL: URL
  var coinDeskURL: URL
  var frankfurterURL: URL
  /// The per-request timeout in whole seconds: `RATES_TIMEOUT`, else 10.
  var timeoutSeconds: Int
  /// File locations.
  var paths: RatesPaths

  init(environment: [String: String], options: GlobalOptions) throws(UsageError) {
    func value(_ name: String) -> String? {
      guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty
      else { return nil }
      return text
    }
    currency = value("RATES_CURRENCY")?.uppercased() ?? "USD"
    let provider = options.provider ?? value("RATES_PROVIDER")?.lowercased()
    if let provider, !Providers.all.contains(provider) {
      throw UsageError.invalid(
        "RATES_PROVIDER '\(TerminalText.sanitize(provider))' is not a provider: use "
          + Providers.all.joined(separator: ", "))
    }
    forcedProvider = provider
    if let pro = value("COINGECKO_PRO_API_KEY") {
      coinGeckoKey = .pro(pro)
    } else if let demo = value("COINGECKO_API_KEY") {
      coinGeckoKey = .demo(demo)
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
    } else {
      timeoutSeconds = 10
    }
    paths = RatesPaths(environment: environment)
  }
}
