import RateCore

/// A setting `rates config` manages, stored in `$XDG_CONFIG_HOME/rates/config.json`.
enum ConfigKey: String, CaseIterable, Sendable {
  case currency
  case provider
  case providers
  case apiKey = "api-key"
  case apiPlan = "api-plan"
  case timeout

  /// What the setting does, for `rates config --help` and errors.
  var summary: String {
    switch self {
    case .currency: return "default quote currency (USD)"
    case .provider: return "force a provider: \(Self.providerNames.joined(separator: ", ")) (default: by pair)"
    case .providers:
      return "coin sources in the order asked, comma-separated (\(Self.defaultCoinSources))"
    case .apiKey: return "CoinGecko API key (read from stdin or a prompt, shown masked)"
    case .apiPlan: return "the key's plan: demo (public host) or pro (pro-api host); default demo"
    case .timeout: return "per-request timeout in whole seconds, 1 to 120 (10)"
    }
  }

  static let providerNames = Provider.allCases.map(\.rawValue)
  /// The default coin chain as `providers` is written.
  static let defaultCoinSources = SourceChain.coinOrder.map(\.rawValue).joined(separator: ",")

  /// The coin sources of a stored (normalized) `providers` value.
  static func coinSources(in stored: String) -> [Provider] {
    stored.split(separator: ",").compactMap { Provider(rawValue: String($0)) }
  }

  /// A `providers` value normalized: coin source names, each once, in order.
  static func normalizeProviders(_ value: String) throws(UsageError) -> String {
    let coinNames = SourceChain.coinOrder.map(\.rawValue)
    let names = value.lowercased().split(separator: ",").map { $0.trimming(.whitespaces) }
    guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
      throw UsageError.invalidValue(
        option: "providers", value: TerminalText.sanitize(value),
        expected: "coin sources separated by commas, e.g. \(defaultCoinSources)")
    }
    for name in names where !coinNames.contains(name) {
      let why =
        Provider(rawValue: name) != nil
        ? "'\(name)' is not a coin source (currencies always ask Frankfurter, then the ECB's own files, then the built-in ECB snapshot)"
        : "'\(TerminalText.sanitize(name))' is not a provider"
      throw UsageError.invalid(
        "providers: \(why): list some of \(coinNames.joined(separator: ", ")), each once")
    }
    guard Set(names).count == names.count else {
      throw UsageError.invalid(
        "providers: each source may be named once (\(TerminalText.sanitize(value)))")
    }
    return names.joined(separator: ",")
  }

  /// Every key with its summary, one per line.
  static var list: String {
    allCases.map { "  \($0.rawValue.padded(toLength: 10))\($0.summary)" }
      .joined(separator: "\n")
  }

  /// The value in its stored form, or a usage error naming the valid ones.
  func normalize(_ raw: String) throws(UsageError) -> String {
    let value = raw.trimming(.whitespacesAndNewlines)
    switch self {
    case .currency:
      guard CurrencyCode(value).isQuotable else {
        throw UsageError.invalidValue(
          option: rawValue, value: TerminalText.sanitize(value),
          expected: "one of " + CurrencyCodes.quotable.joined(separator: " "))
      }
      return CurrencyCode(value).text
    case .provider:
      guard Self.providerNames.contains(value.lowercased()) else {
        throw UsageError.invalidValue(
          option: rawValue, value: TerminalText.sanitize(value),
          expected: "one of " + Self.providerNames.joined(separator: ", "))
      }
      return value.lowercased()
    case .providers:
      return try Self.normalizeProviders(value)
    case .apiKey:
      guard !value.isEmpty, value.count <= 200, value.allSatisfy({ $0.isASCII && !$0.isWhitespace })
      else {
        throw UsageError.invalid("that does not look like an API key: one word of printable ASCII")
      }
      return value
    case .apiPlan:
      guard ["demo", "pro"].contains(value.lowercased()) else {
        throw UsageError.invalidValue(
          option: rawValue, value: TerminalText.sanitize(value), expected: "demo or pro")
      }
      return value.lowercased()
    case .timeout:
      guard let seconds = Int(value), (1...120).contains(seconds) else {
        throw UsageError.invalidValue(
          option: rawValue, value: TerminalText.sanitize(value),
          expected: "whole seconds from 1 to 120")
      }
      return String(seconds)
    }
  }

  /// What `rates config` shows: the API key masked, never whole.
  func display(_ value: String) -> String {
    self == .apiKey ? Self.mask(value) : value
  }

  /// `CG-…a1b2`: at most the last four characters of a secret.
  static func mask(_ secret: String) -> String {
    guard secret.count >= 12 else { return "…" + String(repeating: "•", count: 4) }
    return String(secret.prefix(3)) + "…" + String(secret.suffix(4))
  }
}

/// Each managed setting's effective value and source; a key is missing until resolved.
typealias ResolvedSettings = [ConfigKey: (value: String?, source: SettingSource)]

/// Where a setting's value came from, from weakest to strongest:
/// default < config file < environment < flag.
enum SettingSource: Equatable, Sendable, CustomStringConvertible {
  case defaultValue
  case configFile
  case environment(String)
  case flag(String)

  var description: String {
    switch self {
    case .defaultValue: return "default"
    case .configFile: return "config file"
    case .environment(let name): return "environment (\(name))"
    case .flag(let name): return "flag (\(name))"
    }
  }
}

/// The config file: `{"version": 1, "settings": {"currency": "EUR", …}}`,
/// changed one key at a time under a lock, so settings the user did not
/// change are never rewritten (unknown keys from a newer `rates` included).
enum ConfigFile {
  static let key = "settings"

  static func file(_ paths: RatesPaths) -> DataFile<[String: String]> {
    DataFile(url: url(paths), key: key, empty: [:])
  }

  /// The settings, as ``file(_:)``'s `read()` gives them, without making a
  /// `DataFile<[String: String]>` here: its type instantiated at run time costs every
  /// command four lookups of `Codable` conformances (each a scan of every conformance).
  static func read(_ paths: RatesPaths) throws -> [String: String] {
    try StringsDataFile.read(url: url(paths), key: key)
  }

  /// The config file, `config.json` in the configuration folder.
  static func url(_ paths: RatesPaths) -> URL {
    paths.config.appendingPathComponent("config.json")
  }
}
