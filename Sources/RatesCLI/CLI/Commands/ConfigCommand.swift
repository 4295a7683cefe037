import RateCore

/// `rates config [show|set|unset|path]`: show, set and unset the user's settings.
///
/// The actions are nested types that declare, parse and run themselves; what they share is
/// in the static functions below.
struct ConfigCommand: CommandDeclaration {
  static let name = "config"
  static let abstract = "show or change your settings (currency, provider, API key, timeout)"
  static let subcommands: [any CommandDeclaration.Type] = [
    Show.self, SetKey.self, UnsetKey.self, Path.self,
  ]
  static let defaultSubcommand: (any CommandDeclaration.Type)? = Show.self
  static let discussion = """
    Keys:
    \(ConfigKey.list)

    'rates config' shows every setting's effective value and where it came from: a flag,
    the environment (RATES_CURRENCY, RATES_PROVIDER, COINGECKO_API_KEY,
    COINGECKO_PRO_API_KEY, RATES_TIMEOUT), the config file, or the default, in that order of
    precedence. The file is $XDG_CONFIG_HOME/rates/config.json (mode 0600); 'set' and
    'unset' change one key and leave every other setting as it was. The API key is never
    taken as an argument (it would stay in your shell history) and never shown whole.
    """
  static let examples = [
    "rates config set currency EUR",
    "rates config set api-key < ~/coingecko-key.txt",
    "rates config unset provider",
  ]

  /// The `<KEY>` argument of `set` and `unset`.
  static let key = Argument.required(
    "KEY", help: "one of " + Choices.configKeys.values.joined(separator: ", "),
    completion: .choices(.configKeys))

  /// Reads `<KEY>`: a setting's name, in any case.
  static func readKey(_ scanner: inout ArgumentScanner) throws(UsageError) -> ConfigKey {
    let name = try scanner.read(Self.key)
    guard let key = ConfigKey(rawValue: name.lowercased()) else {
      throw UsageError.invalid(
        "unknown setting '\(TerminalText.sanitize(name))': use "
          + ConfigKey.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return key
  }

  /// `rates config [show]`.
  struct Show: RatesCommand {
    static let name = "show"
    static let abstract = "every setting's effective value and where it came from"
    static let examples = ["rates config", "rates config --json"]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {}

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try ConfigCommand.show(ConfigFile.file(invocation.settings.paths), invocation)
      return .success
    }
  }

  /// `rates config set <KEY> <VALUE>`.
  struct SetKey: RatesCommand {
    static let name = "set"
    static let abstract = "store a setting in the config file"
    struct Declared: Declarations {
      let key = ConfigCommand.key
      let valueArgument = Argument.optional(
        "VALUE",
        help: "the new value; left out for api-key, which is read from stdin or a prompt")
    }
    static let discussion = "Keys:\n\(ConfigKey.list)"
    static let examples = [
      "rates config set currency EUR",
      "rates config set api-key < ~/coingecko-key.txt",
    ]

    let key: ConfigKey
    let value: String?

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      key = try ConfigCommand.readKey(&scanner)
      let value = try scanner.read(Self.declared.valueArgument)
      if key == .apiKey, value != nil {
        throw UsageError.invalid(
          "the API key is not taken as an argument (it would stay in your shell history): run "
            + "'rates config set api-key' and paste it, or pipe it in")
      }
      if key != .apiKey, value == nil {
        throw UsageError.missingArgument(Self.declared.valueArgument.spec.errorName)
      }
      self.value = try value.map { [key] (text) throws(UsageError) in try key.normalize(text) }
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      let value: String
      if let given = self.value {
        value = given
      } else {
        guard let typed = invocation.context.readSecret("CoinGecko API key: "), !typed.isEmpty else {
          throw UsageError.invalid("no API key was given on stdin")
        }
        value = try key.normalize(typed)
      }
      try ConfigFile.file(invocation.settings.paths).update { settings in settings[key.rawValue] = value }
      ConfigCommand.report(invocation, "set \(key.rawValue) = \(key.display(value))", key: key, value: value)
      if key == .apiKey {
        invocation.err(
          "note: stored for the \((invocation.settings.resolved[.apiPlan]?.value ?? "demo")) plan; 'rates config set api-plan pro' for a pro key"
        )
      }
      return .success
    }
  }

  /// `rates config unset <KEY>`.
  struct UnsetKey: RatesCommand {
    static let name = "unset"
    static let abstract = "remove a setting from the config file, back to its default"
    struct Declared: Declarations {
      let key = ConfigCommand.key
    }
    static let examples = ["rates config unset provider"]

    let key: ConfigKey

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      key = try ConfigCommand.readKey(&scanner)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      let removed = try ConfigFile.file(invocation.settings.paths).update { settings in
        settings.removeValue(forKey: key.rawValue) != nil
      }
      // A key not set is already as asked: a note, exit 0, and the same document.
      if !removed { invocation.err("note: \(key.rawValue) was not set") }
      ConfigCommand.report(
        invocation, removed ? "unset \(key.rawValue)" : "\(key.rawValue) was not set", key: key, value: nil,
        quiet: !removed)
      return .success
    }
  }

  /// `rates config path`.
  struct Path: RatesCommand {
    static let name = "path"
    static let abstract = "the config file's path"
    static let examples = ["rates config path"]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {}

    func run(_ invocation: Invocation) async throws -> ExitCode {
      struct PathDocument: Encodable {
        var path: String
      }
      let path = ConfigFile.file(invocation.settings.paths).url.path
      try invocation.write(CommandOutput(document: PathDocument(path: path)) { _ in path })
      return .success
    }
  }

  struct Document: Encodable {
    struct Setting: Encodable {
      var key: String
      /// The value in its own JSON type: the timeout a number, the others strings.
      var value: JSONValue
      /// Where the value comes from: `default`, `file` or the environment.
      var source: String

      /// `origin`, not `source`: in every document `source` names where data came from.
      enum CodingKeys: String, CodingKey {
        case key, value
        case source = "origin"
      }
    }
    var file: String
    var settings: [Setting]
  }

  /// `config show`: every setting, its value and where it came from.
  static func show(_ file: DataFile<[String: String]>, _ invocation: Invocation) throws {
    let settings = ConfigKey.allCases.map { key -> Document.Setting in
      let resolved = invocation.settings.resolved[key]
      return Document.Setting(
        key: key.rawValue, value: Self.json(key, resolved?.value),
        source: (resolved?.source ?? .defaultValue).description)
    }
    let shown = ConfigKey.allCases.map { key in
      invocation.settings.resolved[key]?.value.map(key.display) ?? "—"
    }
    let document = Document(file: file.url.path, settings: settings)
    try invocation.write(
      CommandOutput(document: document) { layout in
        var table = TextTable(columns: [.init("KEY"), .init("VALUE"), .init("SOURCE")])
        for (setting, value) in zip(document.settings, shown) {
          table.append([setting.key, value, setting.source])
        }
        return
          (layout.render(table)
          + [layout.style.dim("file: \(document.file)")]).joined(separator: "\n")
      })
  }

  /// A setting's value as JSON: the timeout as a number, the API key masked, others as
  /// strings, `null` when unset.
  static func json(_ key: ConfigKey, _ value: String?) -> JSONValue {
    guard let value else { return .null }
    if key == .timeout, let seconds = Int64(value) { return .integer(seconds) }
    return .string(key.display(value))
  }

  /// `set` and `unset`: the sentence, or docs/json.md's `configChange` (`value` is `null`
  /// once unset); `quiet` prints no sentence (a note said it).
  static func report(
    _ invocation: Invocation, _ text: String, key: ConfigKey, value: String?, quiet: Bool = false
  ) {
    struct Change: Encodable {
      var result: String
      var key: String
      var value: JSONValue
    }
    let change = Change(result: text, key: key.rawValue, value: Self.json(key, value))
    let sentence = quiet ? "" : text.prefix(1).uppercased() + text.dropFirst() + "."
    try? invocation.write(CommandOutput(document: change) { _ in sentence })
  }
}
