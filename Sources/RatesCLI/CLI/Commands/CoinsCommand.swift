import Foundation
import RateCore

/// `rates coins [list|add|remove] …`: your coins, the main list that `top`, `watch` and the
/// home screen follow after the top coins (`rates favorites` holds the starred ones).
///
/// The actions are nested types that declare and parse their arguments; ``CoinListCommand``
/// runs the action they parsed.
struct CoinsCommand: CommandDeclaration {
  static let name = "coins"
  static let abstract = "list, add or remove your coins (followed by top, watch and the home screen)"
  static let subcommands: [any CommandDeclaration.Type] = [List.self, Add.self, Remove.self]
  static let defaultSubcommand: (any CommandDeclaration.Type)? = List.self
  static let discussion = """
    Your coins follow the top coins in rates top and on the home screen, and rates watch
    watches them (with your pairs) when named nothing; starred coins are your favorites
    (rates favorites), a list of their own. The list shows each coin's price and 24-hour
    change (starred ones marked), one request per currency and 250 coins. Adding checks the
    coins with CoinGecko and stores their ids in $XDG_DATA_HOME/rates/coins.json; adding one
    twice is harmless. The first time after an upgrade, your favorites become your coins too
    (favorites.json is kept as favorites.json.before-coins).
    """
  static let examples = [
    "rates coins add BTC ETH solana",
    "rates coins --in EUR,USD",
    "rates coins remove solana",
  ]

  /// `rates coins [list]`.
  struct List: RatesCommand {
    static let name = "list"
    static let abstract = "your coins with their prices and 24-hour change"
    static let options = [CoinList.currencies]
    static let examples = ["rates coins --in EUR,USD"]

    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CoinList.readCurrencies(&scanner, defaults: defaults)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CoinListCommand(list: .coins, action: .list, currencies: currencies).run(invocation)
    }
  }

  /// `rates coins add <COIN>...`.
  struct Add: RatesCommand {
    static let name = "add"
    static let abstract = "check coins with CoinGecko and add them to your coins"
    static let arguments = [CoinList.coinArgument(completion: .local([.coins]))]
    static let options = [CoinList.currencies]
    static let examples = ["rates coins add BTC ETH solana"]

    let coins: [String]
    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CoinList.readCurrencies(&scanner, defaults: defaults)
      coins = try CoinList.readCoins(&scanner)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CoinListCommand(list: .coins, action: .add(coins), currencies: currencies).run(invocation)
    }
  }

  /// `rates coins remove <COIN>...`.
  struct Remove: RatesCommand {
    static let name = "remove"
    static let aliases = ["rm"]
    static let abstract = "take coins off your list (a starred coin stays a favorite)"
    static let arguments = [CoinList.coinArgument(completion: .local([.ownCoins]))]
    static let options = [CoinList.currencies]
    static let examples = ["rates coins remove solana"]

    let coins: [String]
    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CoinList.readCurrencies(&scanner, defaults: defaults)
      coins = try CoinList.readCoins(&scanner)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CoinListCommand(list: .coins, action: .remove(coins), currencies: currencies).run(invocation)
    }
  }
}
