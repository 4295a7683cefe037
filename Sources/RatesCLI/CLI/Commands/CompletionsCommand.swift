import RateCore

/// `rates completions bash|zsh|fish`: prints a shell completion script.
///
/// The scripts complete commands, actions and options from the command declarations (see
/// ``CompletionTable``), and coin symbols, currency codes, pairs, your coins and favorites through the
/// hidden `rates __complete <kind>`, which reads local data only (see ``CompletionWords``).
struct CompletionsCommand: RatesCommand {
  static let name = "completions"
  static let abstract = "print a completion script for bash, zsh or fish"
  static let noJSON: String? = "it prints a shell script"
  struct Declared: Declarations {
    let shellArgument = Argument.required(
      "SHELL", help: "the shell to print the script for: bash, zsh or fish",
      completion: .choices(.shells))
  }
  static let discussion = """
    The script completes commands, actions and options, and coin symbols, currency codes,
    your pairs, coins and favorites from local data only (it never uses the network).

    Install:
      bash   source <(rates completions bash)   in ~/.bashrc, or
             rates completions bash > ~/.local/share/bash-completion/completions/rates
      zsh    rates completions zsh > "${fpath[1]}/_rates"   (any directory on $fpath)
      fish   rates completions fish > ~/.config/fish/completions/rates.fish
    """
  static let examples = [
    "rates completions bash",
    "rates completions zsh > _rates",
  ]

  /// The shells a script exists for.
  static var shells: [String] { Choices.shells.values }

  let shell: String

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    let shell = try scanner.read(Self.declared.shellArgument)
    guard Self.shells.contains(shell) else {
      throw UsageError.invalidValue(
        option: "shell", value: shell, expected: Self.shells.joined(separator: ", "))
    }
    self.shell = shell
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    invocation.context.writeOut(CompletionScripts.script(for: shell))
    return .success
  }
}

/// The hidden `rates __complete <kind>[,<kind>...] [<prefix>]`: one completion word per line,
/// sorted and unique, from local data only.
///
/// Kinds: `coins` (well-known symbols, your coins, favorites, coins resolved or cached
/// before), `currencies` (ECB and CoinGecko quote currencies), `pairs` (your pairs),
/// `favorites` and `own-coins` (your coins).
/// It never touches the network, takes no lock, and on any problem prints nothing and exits 0,
/// so a broken data file never breaks the shell.
enum CompletionWords {
  /// The hidden command word.
  static let command = "__complete"
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
    switch LocalWords(rawValue: kind) {
    case .coins?:
      words.formUnion(CoinResolver.wellKnown.keys)
      words.formUnion(favorites(paths).map(\.symbol))
      words.formUnion(ownCoins(paths).map(\.symbol))
      words.formUnion(cachedCoins(paths.cache))
    case .currencies?:
      words.formUnion(FiatCurrencies.ecb.keys)
      words.formUnion(CurrencyCodes.coinGeckoQuotes)
    case .pairs?:
      words.formUnion(pairs(paths).map(\.name))
    case .favorites?:
      words.formUnion(favorites(paths).map(\.symbol))
    case .ownCoins?:
      words.formUnion(ownCoins(paths).map(\.symbol))
    case nil:
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

  static func ownCoins(_ paths: RatesPaths) -> [FavoriteCoin] {
    (try? UserData(directory: paths.data).coinsWithoutLock()) ?? []
  }

  static func pairs(_ paths: RatesPaths) -> [ConfiguredPair] {
    read(UserData(directory: paths.data).pairs) ?? []
  }

  /// A data file's value, read without taking its lock (writers rename whole files into
  /// place, so a read always sees a complete file); nil on any problem.
  static func read<Value: Codable & Sendable>(_ file: DataFile<Value>) -> Value? {
    try? file.readWithoutLock()
  }

  /// Symbols the resolver cached, and ids of coins with cached prices or history.
  static func cachedCoins(_ cache: URL) -> Set<String> {
    var words = Set<String>()
    let manager = FileManager.default
    let gecko = cache.appendingPathComponent(Provider.coinGecko.rawValue, isDirectory: true)
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
      let limit = JSONFileCache.maximumBytes(forKey: "coingecko/resolve/x")
      if let data = JSONFileCache.readEntry(at: file.path, limit: limit).data,
        let probe = try? decoder.decode(Probe.self, from: data)
      {
        words.insert(CurrencyCode(probe.value.symbol).text)
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
