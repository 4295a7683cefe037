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

/// A coin list command (`rates coins`, `rates favorites`): its actions and examples come from
/// its ``Words``, so the two commands declare only what differs.
protocol CoinListDeclaration: CommandDeclaration {
  /// The list and the words of its actions.
  associatedtype Words: CoinListWords
}

extension CoinListDeclaration {
  static var subcommands: [any CommandDeclaration.Type] { CoinListActions<Words>.subcommands }
  static var defaultSubcommand: (any CommandDeclaration.Type)? { CoinListActions<Words>.List.self }
  static var examples: [String] {
    ["rates \(name) add BTC ETH solana", "rates \(name) --in EUR,USD", "rates \(name) remove solana"]
  }
}

/// What `add` and `remove` of a coin list share: the currencies and coins they read.
protocol CoinListEdit: RatesCommand {
  /// The `<COIN>...` it reads.
  static var coinArgument: Argument<[String]> { get }
  init(coins: [String], currencies: [String])
}

extension CoinListEdit {
  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    let currencies = try CoinList.readCurrencies(&scanner, defaults: defaults)
    self.init(coins: try CoinList.readCoins(&scanner, Self.coinArgument), currencies: currencies)
  }
}

/// The actions of a coin list command, declared once for both lists.
enum CoinListActions<Words: CoinListWords> {
  /// `rates <list> [list]`.
  struct List: RatesCommand {
    static var name: String { "list" }
    static var abstract: String { Words.listAbstract }
    struct Declared: Declarations {
      let currencies = CoinList.currencies
    }
    static var examples: [String] { ["rates \(Words.list.command) --in EUR,USD"] }

    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CoinList.readCurrencies(&scanner, defaults: defaults)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CoinListCommand(list: Words.list, currencies: currencies).show(invocation)
    }
  }

  /// `rates <list> add <COIN>...`.
  struct Add: CoinListEdit {
    static var name: String { "add" }
    static var abstract: String { Words.addAbstract }
    struct Declared: Declarations {
      let coin = CoinList.coinArgument(completion: .local([.coins]))
      let currencies = CoinList.currencies
    }
    static var coinArgument: Argument<[String]> { declared.coin }
    static var examples: [String] { ["rates \(Words.list.command) add BTC ETH solana"] }

    let coins: [String]
    let currencies: [String]

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CoinListCommand(list: Words.list, currencies: currencies).add(coins, invocation)
    }
  }

  /// `rates <list> remove <COIN>...`.
  struct Remove: CoinListEdit {
    static var name: String { "remove" }
    static var aliases: [String] { ["rm"] }
    static var abstract: String { Words.removeAbstract }
    struct Declared: Declarations {
      let coin = CoinList.coinArgument(completion: .local([Words.removeCompletion]))
      let currencies = CoinList.currencies
    }
    static var coinArgument: Argument<[String]> { declared.coin }
    static var examples: [String] { ["rates \(Words.list.command) remove solana"] }

    let coins: [String]
    let currencies: [String]

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try CoinListCommand(list: Words.list, currencies: currencies).remove(coins, invocation)
    }
  }

  /// The three, `list` first (the default).
  static var subcommands: [any CommandDeclaration.Type] { [List.self, Add.self, Remove.self] }
}
