import Foundation
import RateCore

/// `rates favorites [list|add|remove] …`: the coins the user follows.
///
/// The actions are nested types that declare and parse their arguments; this type runs the
/// action they parsed.
struct FavoritesCommand: CommandDeclaration {
  static let name = "favorites"
  static let abstract = "list, add or remove your favorite coins"
  static let subcommands: [any CommandDeclaration.Type] = [List.self, Add.self, Remove.self]
  static let defaultSubcommand: (any CommandDeclaration.Type)? = List.self
  static let discussion = """
    The list shows each favorite's price and 24-hour change, one request per currency and
    250 favorites (CoinGecko's page size), two at a time. Adding checks the coins with
    CoinGecko and stores their ids in $XDG_DATA_HOME/rates/favorites.json; adding one twice
    is harmless.
    """
  static let examples = [
    "rates favorites add BTC ETH solana",
    "rates favorites --in EUR,USD",
    "rates favorites remove solana",
  ]

  /// `--in`, which every action reads: the list's currencies, and the currency `add` checks
  /// the coin in.
  static let currencies = OptionSpec.option(
    "--in", value: "LIST", repeatable: true,
    help: "currencies, comma-separated (default: RATES_CURRENCY or USD): the list's columns, "
      + "and the currency 'add' checks the coin in",
    completion: .local([.currencies]))

  /// `rates favorites [list]`.
  struct List: RatesCommand {
    static let name = "list"
    static let abstract = "your favorites with their prices and 24-hour change"
    static let options = [FavoritesCommand.currencies]
    static let examples = ["rates favorites --in EUR,USD"]

    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CurrencyList.parse(
        try scanner.options(FavoritesCommand.currencies), default: defaults.currency)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await FavoritesCommand(action: .list, currencies: currencies).run(invocation)
    }
  }

  /// `rates favorites add <COIN>...`.
  struct Add: RatesCommand {
    static let name = "add"
    static let abstract = "check coins with CoinGecko and add them to your favorites"
    static let arguments = [FavoritesCommand.coinArgument(completion: .local([.coins]))]
    static let options = [FavoritesCommand.currencies]
    static let examples = ["rates favorites add BTC ETH solana"]

    let coins: [String]
    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CurrencyList.parse(
        try scanner.options(FavoritesCommand.currencies), default: defaults.currency)
      coins = try FavoritesCommand.readCoins(&scanner)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await FavoritesCommand(action: .add(coins), currencies: currencies).run(invocation)
    }
  }

  /// `rates favorites remove <COIN>...`.
  struct Remove: RatesCommand {
    static let name = "remove"
    static let aliases = ["rm"]
    static let abstract = "remove coins from your favorites"
    static let arguments = [FavoritesCommand.coinArgument(completion: .local([.favorites]))]
    static let options = [FavoritesCommand.currencies]
    static let examples = ["rates favorites remove solana"]

    let coins: [String]
    let currencies: [String]

    init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
      currencies = try CurrencyList.parse(
        try scanner.options(FavoritesCommand.currencies), default: defaults.currency)
      coins = try FavoritesCommand.readCoins(&scanner)
    }

    func run(_ invocation: Invocation) async throws -> ExitCode {
      try await FavoritesCommand(action: .remove(coins), currencies: currencies).run(invocation)
    }
  }

  /// The `<COIN>...` argument of `add` and `remove`.
  static func coinArgument(completion: Completion) -> ArgumentSpec {
    ArgumentSpec(
      name: "COIN",
      help: "a symbol (BTC) or CoinGecko id (ethereum-wormhole); any listed coin works, not "
        + "only the top 1000",
      isRepeating: true, completion: completion)
  }

  /// Every remaining positional, at least one.
  static func readCoins(_ scanner: inout ArgumentScanner) throws(UsageError) -> [String] {
    let coins = scanner.positionals()
    guard !coins.isEmpty else { throw UsageError.missingArgument("coin") }
    return coins
  }

  enum Action: Sendable, Equatable {
    case list
    case add([String])
    case remove([String])
  }

  let action: Action
  let currencies: [String]

  func run(_ invocation: Invocation) async throws -> ExitCode {
    try CurrencyList.requireCoinGeckoQuotes(currencies)
    switch action {
    case .list: return try await list(invocation)
    case .add(let coins): return try await add(coins, invocation)
    case .remove(let coins): return try remove(coins, invocation)
    }
  }

  func list(_ invocation: Invocation) async throws -> ExitCode {
    let favorites = try invocation.userData().favorites.read()
    guard !favorites.isEmpty else {
      if invocation.options.json {
        try invocation.printJSON(
          MarketDocument(currencies: currencies, fetchedAt: invocation.context.now(), stale: false, coins: []))
      } else {
        invocation.out("No favorites yet. Add some with 'rates favorites add BTC ETH'.")
      }
      return .success
    }
    let service = invocation.desk.marketService()
    let coins = favorites.map(\.asset)
    let answers = try await withThrowingTaskGroup(of: (String, MarketService.Answer<[CoinMarket]>).self) { group in
      for currency in currencies {
        group.addTask { (currency, try await service.markets(currency: currency, coins: coins)) }
      }
      var results: [String: MarketService.Answer<[CoinMarket]>] = [:]
      for try await (currency, answer) in group { results[currency] = answer }
      return results
    }
    let staleness = answers.values.compactMap(\.staleness).min { $0.fetchedAt < $1.fetchedAt }
    invocation.report(staleness)
    let missing = currencies.flatMap { answers[$0]?.missing ?? [] }
    invocation.report(missing: missing, from: Providers.coinGecko)
    let rows = favorites.map { favorite -> (coin: CoinMarket, favorite: Bool, inTop: Bool, byCurrency: [String: CoinMarket]) in
      var byCurrency: [String: CoinMarket] = [:]
      for currency in currencies {
        if let market = answers[currency]?.value.first(where: { $0.id == favorite.id }) {
          byCurrency[currency] = market
        }
      }
      let coin = byCurrency.values.first ?? CoinMarket.placeholder(favorite)
      return (coin, false, true, byCurrency)
    }
    if invocation.options.json {
      let fetchedAt = answers.values.map(\.fetchedAt).min() ?? invocation.context.now()
      try invocation.printJSON(
        MarketDocument(
          currencies: currencies, fetchedAt: fetchedAt, stale: staleness != nil,
          coins: rows.map {
            // In `favorites`, `inTop` says whether plain `rates top` lists the coin.
            MarketDocument.Coin(
              $0.coin, favorite: true, inTop: ($0.coin.marketCapRank ?? .max) <= TopCommand.defaultLimit,
              byCurrency: $0.byCurrency, currencies: currencies, fetchedAt: fetchedAt,
              stale: staleness != nil)
          },
          missing: missing))
      return .success
    }
    invocation.out(
      MarketTable.render(rows: rows, currencies: currencies, invocation: invocation, staleness: staleness))
    return .success
  }

  func add(_ inputs: [String], _ invocation: Invocation) async throws -> ExitCode {
    if invocation.options.offline {
      throw UsageError.invalid("adding a favorite checks the coin with CoinGecko: run without --offline")
    }
    let resolver = invocation.desk.resolver()
    var assets: [Asset] = []
    for input in inputs { assets.append(try await resolver.resolve(input)) }
    let answer = try await invocation.desk.marketService().markets(
      currency: currencies.first ?? "USD", coins: assets)
    var found: [FavoriteCoin] = []
    for (input, asset) in zip(inputs, assets) {
      guard let market = answer.value.first(where: { $0.id == asset.id }) else {
        throw ProviderError.coinNotFound(provider: Providers.coinGecko, coin: input)
          .about(asset, typed: input)
      }
      found.append(
        FavoriteCoin(id: market.id, symbol: market.symbol, name: market.name, addedAt: invocation.context.now()))
    }
    let (added, already) = try invocation.userData().favorites.update { favorites -> ([FavoriteCoin], [FavoriteCoin]) in
      var added: [FavoriteCoin] = []
      var already: [FavoriteCoin] = []
      for coin in found {
        if favorites.contains(where: { $0.id == coin.id }) || added.contains(where: { $0.id == coin.id }) {
          already.append(coin)
        } else {
          favorites.append(coin)
          added.append(coin)
        }
      }
      return (added, already)
    }
    // Nothing to do is not a failure, as for `remove`: a note on stderr, exit 0.
    for coin in already { invocation.err(TerminalText.sanitize("note: \(coin.symbol) (\(coin.id)) is already a favorite")) }
    if invocation.options.json {
      try invocation.printJSON(ChangeDocument(added: added.map(\.id), removed: [], unchanged: already.map(\.id)))
      return .success
    }
    for coin in added { invocation.out(TerminalText.sanitize("Added \(coin.symbol) (\(coin.id)) to your favorites.")) }
    return .success
  }

  func remove(_ inputs: [String], _ invocation: Invocation) throws -> ExitCode {
    let (removed, absent, left) = try invocation.userData().favorites.update {
      favorites -> ([FavoriteCoin], [String], [String]) in
      var removed: [FavoriteCoin] = []
      var absent: [String] = []
      for input in inputs {
        let lower = input.lowercased()
        guard let index = favorites.firstIndex(where: { $0.id == lower || $0.symbol.lowercased() == lower })
        else {
          absent.append(lower)
          continue
        }
        removed.append(favorites.remove(at: index))
      }
      return (removed, absent, favorites.map(\.symbol))
    }
    // Nothing to do is not a failure, as for `add`: a note on stderr, exit 0.
    for input in absent {
      invocation.err(
        "note: '\(TerminalText.sanitize(input))' is not a favorite"
          + (left.isEmpty ? " (you have none)" : " (favorites: \(left.map(TerminalText.sanitize).joined(separator: ", ")))"))
    }
    if invocation.options.json {
      try invocation.printJSON(ChangeDocument(added: [], removed: removed.map(\.id), unchanged: absent))
      return .success
    }
    for coin in removed { invocation.out(TerminalText.sanitize("Removed \(coin.symbol) (\(coin.id)) from your favorites.")) }
    return .success
  }
}

/// What `add` and `remove` changed, for `--json`.
struct ChangeDocument: Encodable {
  var added: [String]
  var removed: [String]
  var unchanged: [String]
}

