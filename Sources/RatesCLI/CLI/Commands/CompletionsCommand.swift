import Foundation
import RateCore

/// `rates completions bash|zsh|fish`: prints a shell completion script.
///
/// The scripts complete commands, actions and flags from the tables below, and coin symbols,
/// currency codes, pairs and favorites through the hidden `rates __complete <kind>`, which
/// reads local data only (see ``CompletionWords``).
struct CompletionsCommand: RatesCommand {
  static let name = "completions"
  static let abstract = "print a completion script for bash, zsh or fish"
  static let arguments = [
    ArgumentSpec(
      name: "SHELL", help: "the shell to print the script for: bash, zsh or fish",
      completion: .choices(.shells))
  ]
  static let discussion = """
    The script completes commands, actions and options, and coin symbols, currency codes,
    your pairs and favorites from local data only (it never uses the network).

    Install:
      bash   source <(rates completions bash)   in ~/.bashrc, or
             rates completions bash > ~/.local/share/bash-completion/completions/rates
      zsh    rates completions zsh > "${fpath[1]}/_rates"   (any directory on $fpath)
      fish   rates completions fish > ~/.config/fish/completions/rates.fish
    """
  static let examples = [
    "rates completions bash",
    "rates completions zsh > ~/.zfunc/_rates",
  ]

  /// The shells a script exists for.
  static let shells = ["bash", "zsh", "fish"]

  /// Every command's own options, by command name; global options are in ``globalFlags``.
  ///
  /// A test fails when a command's usage or details mention an option missing here.
  static let completionFlags: [String: [String]] = [
    "history": ["--days", "--chart", "--table", "--interactive"],
    "current": ["--in"],
    "convert": ["--date", "--ledger"],
    "pairs": [],
    "top": ["--limit", "--in"],
    "favorites": ["--in"],
    "info": ["--in", "--days"],
    "search": ["--limit"],
    "currencies": ["--crypto"],
    "stats": ["--days", "--ledger"],
    "ledger": [
      "--sell", "--buy", "--with", "--with-anyone", "--date", "--note", "--pair", "--days",
      "--csv",
    ],
    "config": [],
    "watch": ["--in", "--every", "--alert", "--exit-on-alert", "--count"],
    "completions": [],
    "doctor": [],
    "cache": [],
  ]

  /// The options every command accepts.
  static let globalFlags = [
    "--json", "--format", "--no-color", "--ascii", "--offline", "--refresh", "--provider",
    "--help", "-h", "--version",
  ]

  /// Options that take a value, with the kind of word that completes it ("" for none).
  static let valueOptions: [String: String] = [
    "--provider": "providers", "--format": "formats", "--in": "currencies", "--pair": "pairs", "--days": "",
    "--limit": "", "--date": "", "--with": "", "--note": "", "--every": "", "--alert": "",
    "--count": "",
  ]

  /// The words a command takes as its first argument (its actions), by command name.
  static var actions: [String: [String]] {
    [
      "pairs": ["add", "remove"],
      "favorites": ["add", "remove"],
      "ledger": ["list", "add", "remove", "rate", "stats", "export", "import"],
      "config": ["show", "set", "unset", "path"],
      "cache": ["info", "clear"],
      "completions": shells,
      "help": RatesCLI.commands.map { $0.name },
    ]
  }

  /// Which words complete a command's arguments.
  struct ArgumentRule: Sendable {
    /// The command.
    var command: String
    /// The action (the first argument) the rule needs; nil for commands without actions.
    var action: String? = nil
    /// The first argument position the rule applies to, counting the action as 0.
    var from: Int
    /// Kinds of words: `coins`, `currencies`, `pairs`, `favorites`, `files`, `keys`.
    var kinds: [String]
  }

  /// The argument rules; the first that matches wins.
  static let argumentRules: [ArgumentRule] = [
    .init(command: "history", from: 0, kinds: ["coins", "currencies"]),
    .init(command: "stats", from: 0, kinds: ["coins", "currencies"]),
    .init(command: "current", from: 0, kinds: ["coins", "pairs", "currencies"]),
    .init(command: "info", from: 0, kinds: ["coins"]),
    .init(command: "watch", from: 0, kinds: ["coins", "pairs", "currencies"]),
    .init(command: "convert", from: 1, kinds: ["currencies", "coins"]),
    .init(command: "pairs", action: "add", from: 1, kinds: ["currencies", "coins"]),
    .init(command: "pairs", action: "remove", from: 1, kinds: ["pairs"]),
    .init(command: "favorites", action: "add", from: 1, kinds: ["coins"]),
    .init(command: "favorites", action: "remove", from: 1, kinds: ["favorites"]),
    .init(command: "ledger", action: "rate", from: 1, kinds: ["currencies"]),
    .init(command: "ledger", action: "stats", from: 1, kinds: ["currencies"]),
    .init(command: "ledger", action: "import", from: 1, kinds: ["files"]),
    .init(command: "config", action: "set", from: 1, kinds: ["keys"]),
    .init(command: "config", action: "unset", from: 1, kinds: ["keys"]),
  ]

  let shell: String

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    guard let shell = scanner.positional() else { throw UsageError.missingArgument("shell") }
    guard Self.shells.contains(shell) else {
      throw UsageError.invalidValue(
        option: "shell", value: shell, expected: Self.shells.joined(separator: ", "))
    }
    self.shell = shell
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    let script: String
    switch shell {
    case "zsh": script = CompletionScripts.zsh()
    case "fish": script = CompletionScripts.fish()
    default: script = CompletionScripts.bash()
    }
    invocation.context.writeOut(script)
    return .success
  }
}

/// The hidden `rates __complete <kind>[,<kind>...] [<prefix>]`: one completion word per line,
/// sorted and unique, from local data only.
///
/// Kinds: `coins` (well-known symbols, favorites, coins resolved or cached before),
/// `currencies` (ECB and CoinGecko quote currencies), `pairs` (your pairs) and `favorites`.
/// It never touches the network, takes no lock, and on any problem prints nothing and exits 0,
/// so a broken data file never breaks the shell.
enum CompletionWords {
  /// The hidden command word.
  static let command = "__complete"
  /// The kinds of words it prints.
  static let kinds = ["coins", "currencies", "pairs", "favorites"]
  /// At most this many cache files are looked at, to stay fast.
  static let cacheFileLimit = 2_000

  /// Runs `__complete` with the arguments after it; always exit code 0.
  static func run(_ arguments: [String], context: CommandContext) -> Int32 {
    guard let kind = arguments.first else { return ExitCode.success.rawValue }
    let prefix = arguments.count > 1 ? arguments[1] : ""
    let paths = RatesPaths(environment: context.environment)
    var all = Set<String>()
    for part in kind.split(separator: ",") {
      all.formUnion(words(kind: String(part), paths: paths))
    }
    let matching = filter(all.sorted(), prefix: prefix)
    if !matching.isEmpty { context.writeOut(matching.joined(separator: "\n") + "\n") }
    return ExitCode.success.rawValue
  }

  /// The words of `prefix`'s case that start with it, ignoring case; all when it is empty.
  static func filter(_ words: [String], prefix: String) -> [String] {
    guard !prefix.isEmpty else { return words }
    let lower = prefix.lowercased()
    let wantsLower = prefix == lower && prefix != prefix.uppercased()
    var seen = Set<String>()
    var result: [String] = []
    for word in words where word.lowercased().hasPrefix(lower) {
      let shown = wantsLower ? word.lowercased() : word
      if seen.insert(shown).inserted { result.append(shown) }
    }
    return result
  }

  /// The sorted, unique words of `kind`; empty for an unknown kind.
  static func words(kind: String, paths: RatesPaths) -> [String] {
    var words = Set<String>()
    switch kind {
    case "coins":
      words.formUnion(CoinResolver.wellKnown.keys)
      words.formUnion(favorites(paths).map(\.symbol))
      words.formUnion(cachedCoins(paths.cache))
    case "currencies":
      words.formUnion(FiatCurrencies.ecb.keys)
      words.formUnion(CurrencyCodes.coinGeckoQuotes)
    case "pairs":
      words.formUnion(pairs(paths).map(\.name))
    case "favorites":
      words.formUnion(favorites(paths).map(\.symbol))
    default:
      break
    }
    return words.filter(isCompletable).sorted()
  }

  /// Whether `word` is safe to hand to a shell: short, printable, no spaces or quotes.
  static func isCompletable(_ word: String) -> Bool {
    !word.isEmpty && word.count <= 100
      && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-/".contains($0)) }
  }

  static func favorites(_ paths: RatesPaths) -> [FavoriteCoin] {
    read(UserData(directory: paths.data).favorites) ?? []
  }

  static func pairs(_ paths: RatesPaths) -> [ConfiguredPair] {
    read(UserData(directory: paths.data).pairs) ?? []
  }

  /// A data file's value, read without taking its lock (writers rename whole files into
  /// place, so a read always sees a complete file); nil on any problem.
  static func read<Value: Codable & Sendable>(_ file: DataFile<Value>) -> Value? {
    guard let data = FileManager.default.contents(atPath: file.url.path) else { return nil }
    return try? file.decode(data)
  }

  /// Symbols the resolver cached, and ids of coins with cached prices or history.
  static func cachedCoins(_ cache: URL) -> Set<String> {
    var words = Set<String>()
    let manager = FileManager.default
    let gecko = cache.appendingPathComponent(Providers.coinGecko, isDirectory: true)
    var budget = cacheFileLimit
    let resolve = gecko.appendingPathComponent("resolve", isDirectory: true)
    struct Probe: Decodable {
      struct Value: Decodable { var symbol: String }
      var value: Value
    }
    let decoder = JSONDecoder()
    for name in (try? manager.contentsOfDirectory(atPath: resolve.path)) ?? []
    where name.hasSuffix(".json") && budget > 0 {
      budget -= 1
      let file = resolve.appendingPathComponent(name)
      if let data = manager.contents(atPath: file.path),
        let probe = try? decoder.decode(Probe.self, from: data)
      {
        words.insert(probe.value.symbol.uppercased())
      }
    }
    let known = Set(CoinResolver.wellKnown.values)
    for kind in ["history", "price"] {
      let directory = gecko.appendingPathComponent(kind, isDirectory: true)
      for name in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
      where name.hasSuffix(".json") && budget > 0 {
        budget -= 1
        // `<id>-<quote>.json`: the quote is a code without dashes, the id may have some.
        let stem = name.dropLast(5)
        guard let dash = stem.lastIndex(of: "-") else { continue }
        let id = String(stem[..<dash])
        if !id.isEmpty && !known.contains(id) { words.insert(id) }
      }
    }
    return words
  }
}
