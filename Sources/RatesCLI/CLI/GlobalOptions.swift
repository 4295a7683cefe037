import RateCore

/// The output formats of `--format`.
enum OutputFormat: String, CaseIterable, Sendable {
  case table, json, csv, ledger, beancount
}

/// What a run writes: its v2 JSON document (errors as JSON on stderr), an export
/// (`--format csv|ledger|beancount`), or the text for people.
enum OutputMode: Equatable, Sendable {
  case document
  case export(OutputFormat)
  case text
}

/// Flags every command accepts, anywhere on the command line.
struct GlobalOptions: Sendable, Equatable {
  /// `--format`, or `json` for `--json`; `nil` for the default (a table).
  var format: OutputFormat?
  /// The form of this run's output, decided here once from `--json` and `--format`: the
  /// output layer (``CommandOutput``), streams and error reports read it; no command does.
  var mode: OutputMode {
    switch format {
    case .json: .document
    case .some(let export): .export(export)
    case nil: .text
    }
  }
  /// `--no-color`.
  var noColor = false
  /// `--ascii`: no UTF-8 block characters.
  var ascii = false
  /// `--offline`: never touch the network.
  var offline = false
  /// `--refresh`: ignore the cache when reading.
  var refresh = false
  /// `--provider NAME`, when given.
  var provider: String?

  /// The declarations of the options every command accepts: parsed here (`--help` and
  /// `--version` by ``RatesCLI``), and the source of the `Global options:` help section and
  /// of the completion scripts' global flags.
  struct Declared: Declarations {
    let json = Option.flag(
      "--json", help: "print one JSON document (errors as JSON on stderr)")
    let format = Option.choice(
      "--format", value: "FORMAT",
      help: "table (default), json, or for history, stats, current and ledger list also csv, "
        + "ledger or beancount (price directives)",
      choices: .formats, as: OutputFormat.self)
    let noColor = Option.flag(
      "--no-color", help: "no colour (also when NO_COLOR is set or stdout is not a terminal)")
    let ascii = Option.flag(
      "--ascii", help: "ASCII sparklines and charts instead of UTF-8 blocks")
    let offline = Option.flag(
      "--offline", help: "use cached data only; never touch the network")
    let refresh = Option.flag(
      "--refresh", help: "ignore cached data and fetch anew; the stored days answered are replaced")
    let provider = Option.option(
      "--provider", value: "NAME",
      help: "pin one provider, never falling back: coingecko, coinbase, kraken (listed coins), "
        + "coindesk (Bitcoin only), frankfurter or ecb (ECB fiat rates); by default fiat pairs "
        + "use frankfurter then ecb, coins coingecko, then coinbase and kraken when it fails",
      completion: .choices(.providers))
    let help = Option.flag("--help", "-h", help: "show help")
    let version = Option.flag("--version", help: "show the version")
  }

  /// The global options, declared once.
  static let declared = Declared()

  /// The rules between global options: ``GlobalOptions/parse(_:)`` refuses a command line
  /// that breaks one and help says each beside its options (which it lists from
  /// ``declared``, in the order declared, only when help's wording asks).
  static let rules = OptionRules(
    options: declared.options, groups: [OptionGroup(declared.offline, declared.refresh)])

  /// Removes the global options from `scanner` (not `--help` and `--version`), setting each
  /// as it is read: `--json` (and `--format json`) first, so that when a later option is
  /// refused the error is still reported as JSON.
  mutating func parse(_ scanner: inout ArgumentScanner) throws(UsageError) {
    if try scanner.read(Self.declared.json) { format = .json }
    if let chosen = try scanner.read(Self.declared.format) {
      if format == .json, chosen != .json {
        throw UsageError.invalid("--json and --format \(chosen.rawValue) cannot be used together")
      }
      format = chosen == .table ? nil : chosen
    }
    if let message = Self.rules.refusal(in: scanner, format: nil) {
      throw UsageError.invalid(message)
    }
    noColor = try scanner.read(Self.declared.noColor)
    ascii = try scanner.read(Self.declared.ascii)
    offline = try scanner.read(Self.declared.offline)
    refresh = try scanner.read(Self.declared.refresh)
    provider = try scanner.read(Self.declared.provider)
  }

  init() {}

  /// Refuses a `--format` the command cannot write, naming the sibling actions that can.
  ///
  /// - Parameters:
  ///   - formats: The export formats the command writes.
  ///   - command: The words after `rates`, such as `ledger rate`.
  ///   - siblings: The export formats of the other actions of the same command, by full name.
  func require(
    formats: Set<OutputFormat>, command: String, siblings: [(name: String, formats: Set<OutputFormat>)] = []
  ) throws(UsageError) {
    guard let format, format != .json, !formats.contains(format) else { return }
    let others = siblings.filter { $0.formats.contains(format) }.map(\.name).sorted()
    guard others.isEmpty else {
      throw UsageError.invalid(
        "--format \(format.rawValue) is only for "
          + others.map { "'\($0)'" }.joined(separator: " and "))
    }
    let usable =
      ["table", "json"] + OutputFormat.allCases.filter { $0 != .json && formats.contains($0) }.map(\.rawValue)
    throw UsageError.invalid(
      "--format \(format.rawValue) is not available for 'rates \(command)': use "
        + usable.dropLast().joined(separator: ", ") + " or " + (usable.last ?? "json"))
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
  var forcedProvider: Provider?
  /// The CoinGecko key and its plan.
  var coinGeckoKey: CoinGeckoClient.APIKey?
  /// Base URLs (tests and mirrors).
  var coinGeckoURL: URL
  var coinDeskURL: URL
  var frankfurterURL: URL
  var coinbaseURL: URL
  var krakenURL: URL
  /// The coin sources in the order they are asked (`config set providers`).
  var coinSources: [Provider]
  /// One base URL for both ECB paths (`RATES_ECB_URL`); nil: the ECB's own hosts.
  var ecbURL: URL?
  /// The per-request timeout in whole seconds.
  var timeoutSeconds: Int
  /// File locations.
  var paths: RatesPaths
  /// Each managed setting's effective value (API key unmasked: display with
  /// ``ConfigKey/display(_:)``) and its source.
  var resolved = ResolvedSettings()

  /// - Parameter lenient: ignore invalid values in the config file instead of
  ///   refusing them (for the commands that repair or report the file).
  init(
    environment: [String: String], options: GlobalOptions, config: [String: String] = [:],
    lenient: Bool = false
  ) throws(UsageError) {
    let sources = SettingSources(environment: environment, config: config, lenient: lenient)
    let currency = try sources.currency()
    self.currency = currency.value
    resolved[.currency] = (currency.value, currency.source)
    resolved[.provider] = try sources.provider(flag: options.provider)
    forcedProvider = resolved[.provider]?.value.flatMap(Provider.init(rawValue:))
    let key = try sources.apiKey()
    coinGeckoKey = key.key
    resolved[.apiKey] = key.keyEntry
    resolved[.apiPlan] = key.planEntry
    let geckoDefault =
      if case .pro = coinGeckoKey { CoinGeckoClient.proBaseURL } else {
        CoinGeckoClient.publicBaseURL
      }
    coinGeckoURL = try sources.url(.coinGeckoURL, geckoDefault)
    coinDeskURL = try sources.url(.coinDeskURL, CoinDeskClient.defaultBaseURL)
    frankfurterURL = try sources.url(.frankfurterURL, FrankfurterClient.defaultBaseURL)
    coinbaseURL = try sources.url(.coinbaseURL, CoinbaseClient.publicBaseURL)
    krakenURL = try sources.url(.krakenURL, KrakenClient.publicBaseURL)
    let order = try sources.stored(.providers)
    resolved[.providers] = (
      order ?? ConfigKey.defaultCoinSources, order == nil ? .defaultValue : .configFile
    )
    coinSources = order.map(ConfigKey.coinSources(in:)) ?? SourceChain.coinOrder
    ecbURL = sources.value(.ecbURL) == nil ? nil : try sources.url(.ecbURL, nil)
    let timeout = try sources.timeout()
    timeoutSeconds = timeout.seconds
    resolved[.timeout] = (String(timeout.seconds), timeout.source)
    paths = RatesPaths(environment: environment)
  }
}

/// Where ``EnvironmentSettings`` reads each setting: the environment, then the config file,
/// then the default (a flag, where there is one, comes first).
private struct SettingSources {
  /// A setting's effective value and where it came from.
  typealias Entry = (value: String?, source: SettingSource)

  var environment: [String: String]
  var config: [String: String]
  /// Ignore invalid values in the config file instead of refusing them.
  var lenient: Bool

  /// An environment variable, trimmed; nil when unset or blank.
  func value(_ variable: EnvironmentVariable) -> String? {
    variable.value(in: environment)
  }

  /// A config file value, normalized; nil when absent (or invalid, when lenient).
  func stored(_ key: ConfigKey) throws(UsageError) -> String? {
    guard let raw = config[key.rawValue] else { return nil }
    do {
      return try key.normalize(raw)
    } catch {
      // `config` and `doctor` must still run to repair or report it.
      if lenient { return nil }
      throw UsageError.invalid(
        "the config file's \(key.rawValue) is invalid (\(error.readableDescription)): fix it "
          + "with 'rates config set \(key.rawValue) …' or 'rates config unset \(key.rawValue)'")
    }
  }

  /// `RATES_CURRENCY`, the config file, or USD.
  func currency() throws(UsageError) -> (value: String, source: SettingSource) {
    let variable = EnvironmentVariable.currency
    if let env = value(variable) {
      // Checked as `config set currency` is; `config` and `doctor` still run to show it.
      guard lenient || CurrencyCode(env).isQuotable else {
        throw UsageError.invalid(
          "\(variable.name) '\(TerminalText.sanitize(env))' is not a currency rates can quote in: "
            + "use one of \(CurrencyCodes.quotable.joined(separator: " ")) (see 'rates currencies')")
      }
      return (CurrencyCode(env).text, .environment(variable.name))
    }
    if let file = try stored(.currency) { return (file, .configFile) }
    return ("USD", .defaultValue)
  }

  /// `--provider`, `RATES_PROVIDER`, the config file, or none (by pair).
  func provider(flag: String?) throws(UsageError) -> Entry {
    if let flag { return (flag, .flag("--provider")) }
    let variable = EnvironmentVariable.provider
    if let env = value(variable)?.lowercased() {
      guard Provider(rawValue: env) != nil else {
        throw UsageError.invalid(
          "\(variable.name) '\(TerminalText.sanitize(env))' is not a provider: use "
            + ConfigKey.providerNames.joined(separator: ", "))
      }
      return (env, .environment(variable.name))
    }
    if let file = try stored(.provider) { return (file, .configFile) }
    return (nil, .defaultValue)
  }

  /// The CoinGecko key and its plan: a pro key, a demo key, or the config file's key with
  /// its stored plan (demo by default).
  func apiKey() throws(UsageError) -> (
    key: CoinGeckoClient.APIKey?, keyEntry: Entry, planEntry: Entry
  ) {
    if let pro = value(.coinGeckoProKey) {
      let source = SettingSource.environment(EnvironmentVariable.coinGeckoProKey.name)
      return (.pro(pro), (pro, source), ("pro", source))
    }
    if let demo = value(.coinGeckoKey) {
      let source = SettingSource.environment(EnvironmentVariable.coinGeckoKey.name)
      return (.demo(demo), (demo, source), ("demo", source))
    }
    let planSource: SettingSource =
      config[ConfigKey.apiPlan.rawValue] == nil ? .defaultValue : .configFile
    guard let key = try stored(.apiKey) else {
      return (nil, (nil, .defaultValue), (try stored(.apiPlan), planSource))
    }
    let plan = try stored(.apiPlan) ?? "demo"
    return (plan == "pro" ? .pro(key) : .demo(key), (key, .configFile), (plan, planSource))
  }

  /// A base URL from `variable`, else `fallback`.
  func url(_ variable: EnvironmentVariable, _ fallback: URL?) throws(UsageError) -> URL {
    let name = variable.name
    if let text = value(variable) {
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

  /// `RATES_TIMEOUT`, the config file, or 10 seconds.
  func timeout() throws(UsageError) -> (seconds: Int, source: SettingSource) {
    let variable = EnvironmentVariable.timeout
    if let text = value(variable) {
      guard let seconds = Int(text), (1...120).contains(seconds) else {
        throw UsageError.invalid(
          "\(variable.name) '\(TerminalText.sanitize(text))' must be whole seconds from 1 to 120")
      }
      return (seconds, .environment(variable.name))
    }
    if let file = try stored(.timeout), let seconds = Int(file) { return (seconds, .configFile) }
    return (10, .defaultValue)
  }
}
