import RateCore

/// What tells the `list`, `add` and `remove` actions of `rates coins` and `rates favorites`
/// apart: the list and the words; the actions themselves are declared once
/// (``CoinListActions``).
protocol CoinListWords: Sendable {
  /// The list the actions change.
  static var list: CoinList { get }
  static var listAbstract: String { get }
  static var addAbstract: String { get }
  static var removeAbstract: String { get }
  /// What `remove` completes: the list's own members.
  static var removeCompletion: LocalWords { get }
}

/// The actions of a coin list command, declared once for both lists.
enum CoinListActions<Words: CoinListWords> {
  /// `rates <list> [list]`.
  struct List: RatesCommand {
    static var name: String { "list" }
    static var abstract: String { Words.listAbstract }
    static var options: [OptionSpec] { [CoinList.currencies] }
    static var examples: [String] { ["rates \(Words.list.command) --in EUR,USD"] }

    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CoinList.readCurrencies(&scanner, defaults: defaults)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CoinListCommand(list: Words.list, action: .list, currencies: currencies).run(invocation)
    }
  }

  /// `rates <list> add <COIN>...`.
  struct Add: RatesCommand {
    static var name: String { "add" }
    static var abstract: String { Words.addAbstract }
    static var arguments: [ArgumentSpec] { [CoinList.coinArgument(completion: .local([.coins]))] }
    static var options: [OptionSpec] { [CoinList.currencies] }
    static var examples: [String] { ["rates \(Words.list.command) add BTC ETH solana"] }

    let coins: [String]
    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CoinList.readCurrencies(&scanner, defaults: defaults)
      coins = try CoinList.readCoins(&scanner)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CoinListCommand(list: Words.list, action: .add(coins), currencies: currencies).run(invocation)
    }
  }

  /// `rates <list> remove <COIN>...`.
  struct Remove: RatesCommand {
    static var name: String { "remove" }
    static var aliases: [String] { ["rm"] }
    static var abstract: String { Words.removeAbstract }
    static var arguments: [ArgumentSpec] {
      [CoinList.coinArgument(completion: .local([Words.removeCompletion]))]
    }
    static var options: [OptionSpec] { [CoinList.currencies] }
    static var examples: [String] { ["rates \(Words.list.command) remove solana"] }

    let coins: [String]
    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CoinList.readCurrencies(&scanner, defaults: defaults)
      coins = try CoinList.readCoins(&scanner)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CoinListCommand(list: Words.list, action: .remove(coins), currencies: currencies).run(invocation)
    }
  }

  /// The three, `list` first (the default).
  static var subcommands: [any CommandDeclaration.Type] { [List.self, Add.self, Remove.self] }
}
