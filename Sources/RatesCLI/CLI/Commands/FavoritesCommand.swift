import Foundation
import RateCore

/// `rates favorites [list|add|remove] …`: the coins the user starred (`rates coins` is the
/// main list of coins the user follows).
///
/// The actions are nested types that declare and parse their arguments; ``CoinListCommand``
/// runs the action they parsed.
struct FavoritesCommand: CommandDeclaration {
  static let name = "favorites"
  static let abstract = "list, star or unstar your favorites (starred coins)"
  static let subcommands: [any CommandDeclaration.Type] = [List.self, Add.self, Remove.self]
  static let defaultSubcommand: (any CommandDeclaration.Type)? = List.self
  static let discussion = """
    Favorites are the coins you star, apart from your coins (rates coins), which top, watch
    and the home screen follow; a favorite need not be one of your coins. The list shows each
    favorite's price and 24-hour change, one request per currency and 250 favorites
    (CoinGecko's page size), two at a time. Adding checks the coins with CoinGecko and stores
    their ids in $XDG_DATA_HOME/rates/favorites.json; adding one twice is harmless.
    """
  static let examples = [
    "rates favorites add BTC ETH solana",
    "rates favorites --in EUR,USD",
    "rates favorites remove solana",
  ]

  /// `rates favorites [list]`.
  struct List: RatesCommand {
    static let name = "list"
    static let abstract = "your starred coins with their prices and 24-hour change"
    static let options = [CoinList.currencies]
    static let examples = ["rates favorites --in EUR,USD"]

    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CoinList.readCurrencies(&scanner, defaults: defaults)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CoinListCommand(list: .favorites, action: .list, currencies: currencies).run(invocation)
    }
  }

  /// `rates favorites add <COIN>...`.
  struct Add: RatesCommand {
    static let name = "add"
    static let abstract = "check coins with CoinGecko and star them"
    static let arguments = [CoinList.coinArgument(completion: .local([.coins]))]
    static let options = [CoinList.currencies]
    static let examples = ["rates favorites add BTC ETH solana"]

    let coins: [String]
    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CoinList.readCurrencies(&scanner, defaults: defaults)
      coins = try CoinList.readCoins(&scanner)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CoinListCommand(list: .favorites, action: .add(coins), currencies: currencies).run(invocation)
    }
  }

  /// `rates favorites remove <COIN>...`.
  struct Remove: RatesCommand {
    static let name = "remove"
    static let aliases = ["rm"]
    static let abstract = "unstar coins (they stay among your coins)"
    static let arguments = [CoinList.coinArgument(completion: .local([.favorites]))]
    static let options = [CoinList.currencies]
    static let examples = ["rates favorites remove solana"]

    let coins: [String]
    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CoinList.readCurrencies(&scanner, defaults: defaults)
      coins = try CoinList.readCoins(&scanner)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await CoinListCommand(list: .favorites, action: .remove(coins), currencies: currencies).run(invocation)
    }
  }
}
