import RateCore

/// One of the user's two coin lists: *your coins* (`rates coins`: the main list that `top`,
/// `watch` and the home screen follow) or *favorites* (`rates favorites`: the coins starred).
enum CoinList: String, Sendable, Equatable {
  /// `coins.json`.
  case coins
  /// `favorites.json`.
  case favorites

  /// The command word.
  var command: String { rawValue }

  /// "your coins", "your favorites": after "to" or "from".
  var title: String {
    switch self {
    case .coins: return "your coins"
    case .favorites: return "your favorites"
    }
  }

  /// "one of your coins", "a favorite": after "is already" or "is not".
  var member: String {
    switch self {
    case .coins: return "one of your coins"
    case .favorites: return "a favorite"
    }
  }

  /// The list's name before its members in a note: "favorites", "your coins".
  var label: String {
    switch self {
    case .coins: return "your coins"
    case .favorites: return "favorites"
    }
  }

  /// What the list says when empty.
  var emptyMessage: String {
    switch self {
    case .coins: return "No coins yet. Add some with 'rates coins add BTC ETH'."
    case .favorites: return "No favorites yet. Star coins with 'rates favorites add BTC ETH'."
    }
  }

  /// The coins of the list as stored (after the split of an older favorites file).
  func read(_ data: UserData) throws -> [FavoriteCoin] {
    switch self {
    case .coins: return try data.readCoins()
    case .favorites: return try data.favorites.read()
    }
  }

  /// Adds the coins the list lacks; returns those added.
  func add(_ coins: [FavoriteCoin], to data: UserData) throws -> [FavoriteCoin] {
    switch self {
    case .coins: return try data.addCoins(coins)
    case .favorites: return try data.addFavorites(coins)
    }
  }

  /// Removes the coins named by `inputs`.
  func remove(_ inputs: [String], from data: UserData) throws -> CoinRemoval {
    switch self {
    case .coins: return try data.removeCoins(matching: inputs)
    case .favorites: return try data.removeFavorites(matching: inputs)
    }
  }

  /// `--in`, which every action reads: the list's currencies, and the currency `add` checks
  /// the coin in.
  static let currencies = Option.currencies(
    help: "currencies, comma-separated (default: RATES_CURRENCY or USD): the list's columns, "
      + "and the currency 'add' checks the coin in")

  /// The `<COIN>...` argument of `add` and `remove`.
  static func coinArgument(completion: Completion) -> Argument<[String]> {
    Argument.repeating(
      "COIN",
      help: "a symbol (BTC) or CoinGecko id (ethereum-wormhole); any listed coin works, not "
        + "only the top 1000", completion: completion)
  }

  /// `--in`, parsed.
  static func readCurrencies(_ scanner: inout ArgumentScanner, defaults: CommandDefaults)
    throws(UsageError) -> [String]
  {
    try CurrencyList.parse(try scanner.read(currencies), default: defaults.currency)
  }

  /// Every remaining positional, declared by `argument`, at least one, each name once (in any
  /// case): a coin named many times is added, removed or reported once.
  static func readCoins(_ scanner: inout ArgumentScanner, _ argument: Argument<[String]>)
    throws(UsageError) -> [String]
  {
    let coins = try scanner.read(argument)
    var seen: Set<String> = []
    return coins.filter { seen.insert($0.lowercased()).inserted }
  }
}

/// `list`, `add` or `remove` on one of the two coin lists, in `currencies`: the shared work of
/// the actions of `rates coins` and `rates favorites`.
struct CoinListCommand: Sendable {
  let list: CoinList
  let currencies: [String]

  /// The work on `list`, the `currencies` refused unless CoinGecko quotes them all.
  init(list: CoinList, currencies: [String]) throws {
    try CurrencyList.requireCoinGeckoQuotes(currencies)
    self.list = list
    self.currencies = currencies
  }

  func show(_ invocation: Invocation) async throws -> ExitCode {
    let data = invocation.userData()
    let coins = try list.read(data)
    guard !coins.isEmpty else {
      let empty = MarketDocument(
        currencies: currencies, fetchedAt: invocation.context.now(), stale: false, coins: [])
      try invocation.write(CommandOutput(document: empty) { [list] _ in list.emptyMessage })
      return .success
    }
    // In the favorites every coin is starred; in your coins the starred ones are marked.
    let starred = list == .favorites ? Set(coins.map(\.id)) : Set(try data.favorites.read().map(\.id))
    return try await MarketListing(coins: coins, starred: starred, currencies: currencies)
      .show(invocation, markStarred: list == .coins)
  }

  func add(_ inputs: [String], _ invocation: Invocation) async throws -> ExitCode {
    if invocation.options.offline {
      throw UsageError.invalid(
        "adding to \(list.title) checks the coin with CoinGecko: run without --offline")
    }
    let found = try await MarketListing.check(inputs, currency: currencies.first ?? "USD", invocation)
    let added = try list.add(found, to: invocation.userData())
    let addedIDs = Set(added.map(\.id))
    var already: [FavoriteCoin] = []
    for coin in found where !addedIDs.contains(coin.id) && !already.contains(where: { $0.id == coin.id }) {
      already.append(coin)
    }
    // Nothing to do is not a failure, as for `remove`: a note on stderr, exit 0.
    for coin in already {
      invocation.err(TerminalText.sanitize("note: \(coin.symbol) (\(coin.id)) is already \(list.member)"))
    }
    let lines = added.map { TerminalText.sanitize("Added \($0.symbol) (\($0.id)) to \(list.title).") }
    try invocation.write(
      CommandOutput(
        document: ChangeDocument(added: added.map(\.id), removed: [], unchanged: already.map(\.id))
      ) { _ in lines.joined(separator: "\n") })
    return .success
  }

  func remove(_ inputs: [String], _ invocation: Invocation) throws -> ExitCode {
    let removal = try list.remove(inputs, from: invocation.userData())
    // Nothing to do is not a failure, as for `add`: a note on stderr, exit 0.
    let left = removal.left.map { TerminalText.sanitize($0.symbol) }
    for input in removal.absent {
      invocation.err(
        "note: '\(TerminalText.sanitize(input))' is not \(list.member)"
          + (left.isEmpty ? " (you have none)" : " (\(list.label): \(left.joined(separator: ", ")))"))
    }
    let lines = removal.removed.map {
      TerminalText.sanitize("Removed \($0.symbol) (\($0.id)) from \(list.title).")
    }
    try invocation.write(
      CommandOutput(
        document: ChangeDocument(added: [], removed: removal.removed.map(\.id), unchanged: removal.absent)
      ) { _ in lines.joined(separator: "\n") })
    return .success
  }
}

/// What `add` and `remove` changed, for `--json`.
struct ChangeDocument: Encodable, Sendable {
  var added: [String]
  var removed: [String]
  var unchanged: [String]
}
