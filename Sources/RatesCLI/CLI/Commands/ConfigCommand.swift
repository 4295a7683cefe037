import Foundation
import RateCore

/// `rates config`: show, set and unset the user's settings.
struct ConfigCommand: RatesCommand {
  static let name = "config"
  static let abstract = "show or change your settings (currency, provider, API key, timeout)"
  static let usage = """
    rates config [show]
    rates config set <KEY> <VALUE>
    rates config set api-key            (reads the key from stdin or a prompt)
    rates config unset <KEY>
    rates config path
    """
  static let details = """
    Keys:
    \(ConfigKey.list)

    'rates config' shows every setting's effective value and where it came from: a flag,
    the environment (RATES_CURRENCY, RATES_PROVIDER, COINGECKO_API_KEY,
    COINGECKO_PRO_API_KEY, RATES_TIMEOUT), the config file, or the default, in that order of
    precedence. The file is $XDG_CONFIG_HOME/rates/config.json (mode 0600); 'set' and
    'unset' change one key and leave every other setting as it was. The API key is never
    taken as an argument (it would stay in your shell history) and never shown whole.

    Examples:
      rates config set currency EUR
      rates config set api-key < ~/coingecko-key.txt
      rates config unset provider
    """

  enum Action: Sendable, Equatable {
    case show
    case path
    case set(ConfigKey, String?)
    case unset(ConfigKey)
  }

  let action: Action

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    func key() throws(UsageError) -> ConfigKey {
      guard let name = scanner.positional() else { throw UsageError.missingArgument("key") }
      guard let key = ConfigKey(rawValue: name.lowercased()) else {
        throw UsageError.invalid(
          "unknown setting '\(TerminalText.sanitize(name))': use "
            + ConfigKey.allCases.map(\.rawValue).joined(separator: ", "))
      }
      return key
    }
    switch scanner.positional() {
    case nil, "show"?: action = .show
    case "path"?: action = .path
    case "set"?:
      let key = try key()
      let value = scanner.positional()
      if key == .apiKey, value != nil {
        throw UsageError.invalid(
          "the API key is not taken as an argument (it would stay in your shell history): run 'rates config set api-key' and paste it, or pipe it in")
      }
      if key != .apiKey, value == nil { throw UsageError.missingArgument("value") }
      action = .set(key, try value.map { (text) throws(UsageError) in try key.normalize(text) })
    case "unset"?: action = .unset(try key())
    case let other?:
      throw UsageError.invalid(
        "unknown action '\(TerminalText.sanitize(other))': use show, set, unset or path")
    }
  }

  struct Document: Encodable {
    struct Setting: Encodable {
      var key: String
      @NullEncoded var value: String?
      var source: String
    }
    var version = 1
    var file: String
    var settings: [Setting]
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    let file = ConfigFile.file(invocation.settings.paths)
    switch action {
    case .path:
      invocation.out(file.url.path)
    case .show:
      let settings = ConfigKey.allCases.map { key -> Document.Setting in
        let resolved = invocation.settings.resolved[key]
        return Document.Setting(
          key: key.rawValue, value: resolved?.value.map(key.display),
          source: (resolved?.source ?? .defaultValue).description)
      }
      if invocation.options.json {
        try invocation.printJSON(Document(file: file.url.path, settings: settings))
        return .success
      }
      var table = TextTable(columns: [.init("KEY"), .init("VALUE"), .init("SOURCE")])
      for setting in settings {
        table.append([setting.key, setting.value ?? "—", setting.source])
      }
      invocation.out(
        (table.render(maxWidth: invocation.terminal.width, ascii: !invocation.terminal.unicode)
          + [invocation.style.dim("file: \(file.url.path)")]).joined(separator: "\n"))
    case .set(let key, let given):
      let value: String
      if let given {
        value = given
      } else {
        guard let typed = invocation.context.readSecret("CoinGecko API key: "), !typed.isEmpty else {
          throw UsageError.invalid("no API key was given on stdin")
        }
        value = try key.normalize(typed)
      }
      try file.update { settings in settings[key.rawValue] = value }
      report(invocation, "set \(key.rawValue) = \(key.display(value))")
      if key == .apiKey {
        invocation.err(
          "note: stored for the \((invocation.settings.resolved[.apiPlan]?.value ?? "demo")) plan; 'rates config set api-plan pro' for a pro key")
      }
    case .unset(let key):
      let removed = try file.update { settings in settings.removeValue(forKey: key.rawValue) != nil }
      report(invocation, removed ? "unset \(key.rawValue)" : "\(key.rawValue) was not set")
    }
    return .success
  }

  func report(_ invocation: Invocation, _ text: String) {
    if invocation.options.json {
      struct Change: Encodable {
        var version = 1
        var result: String
      }
      try? invocation.printJSON(Change(result: text))
    } else {
      invocation.out(text.prefix(1).uppercased() + text.dropFirst() + ".")
    }
  }
}
