/// The list operations the commands and the home screen share: each one is a single
/// ``DataFile/update(_:)``, so it is atomic and concurrent `rates` processes lose nothing.
///
/// The coin operations first run ``UserData/migrateListsIfNeeded()`` (a `stat` once done),
/// so favorites kept by an older `rates` become the user's coins before either list changes.
extension UserData {
  // MARK: - Your coins (coins.json)

  /// The user's coins, in the order added, after any migration of an older favorites file.
  ///
  /// A data directory that cannot be written (read-only) does not stop reading: until the
  /// split can run, the coins are the favorites it will copy.
  public func readCoins() throws -> [FavoriteCoin] {
    do {
      try migrateListsIfNeeded()
    } catch is AtomicFile.WriteError {
      return try coinsFileExists() ? coins.read() : favorites.read()
    }
    return try coins.read()
  }

  /// Adds coins not already present (by id), at the end; returns those added.
  @discardableResult public func addCoins(_ coins: [FavoriteCoin]) throws -> [FavoriteCoin] {
    try migrateListsIfNeeded()
    return try Self.add(coins, to: self.coins)
  }

  /// Removes the coin with `id`; returns it and where it was, nil when absent.
  public func removeCoin(id: String) throws -> (coin: FavoriteCoin, index: Int)? {
    try migrateListsIfNeeded()
    return try coins.update { list -> (coin: FavoriteCoin, index: Int)? in
      guard let index = list.firstIndex(where: { $0.id == id }) else { return nil }
      return (list.remove(at: index), index)
    }
  }

  /// Removes the coins named by `inputs` (an id, or a symbol in any case; the first match).
  public func removeCoins(matching inputs: [String]) throws -> CoinRemoval {
    try migrateListsIfNeeded()
    return try Self.remove(matching: inputs, from: coins)
  }

  /// Puts `coin` back at `index` (clamped) unless it is there already.
  public func restoreCoin(_ coin: FavoriteCoin, at index: Int) throws {
    try migrateListsIfNeeded()
    try coins.update { list in
      guard !list.contains(where: { $0.id == coin.id }) else { return }
      list.insert(coin, at: Swift.min(Swift.max(index, 0), list.count))
    }
  }

  // MARK: - Starred coins (favorites.json)

  /// Stars or unstars a coin (favorites.json); starring twice is harmless.
  public func setFavorite(_ coin: FavoriteCoin, starred: Bool) throws {
    if starred {
      try addFavorites([coin])
    } else {
      try prepareFavoritesWrite()
      try favorites.update { list in list.removeAll { $0.id == coin.id } }
    }
  }

  /// Stars the coins not already starred (by id), at the end; returns those added.
  @discardableResult public func addFavorites(_ coins: [FavoriteCoin]) throws -> [FavoriteCoin] {
    try prepareFavoritesWrite()
    return try Self.add(coins, to: favorites)
  }

  /// Unstars the coins named by `inputs` (an id, or a symbol in any case; the first match).
  public func removeFavorites(matching inputs: [String]) throws -> CoinRemoval {
    try prepareFavoritesWrite()
    return try Self.remove(matching: inputs, from: favorites)
  }

  // MARK: - Pairs (pairs.json)

  /// Adds `pair` at the top (a street-rate pair keeps its source) unless one with the same
  /// currencies is there, in either order; returns whether it was added.
  ///
  /// The top of the list is its end: `pairs.json` keeps pairs in the order added, and
  /// lists show the newest first.
  @discardableResult public func addPairAtTop(_ pair: ConfiguredPair) throws -> Bool {
    try pairs.update { list in
      guard !list.contains(where: { $0.matches(pair.base, pair.quote) }) else { return false }
      list.append(pair)
      return true
    }
  }

  /// Removes the pair named `name` (`GBP-USD`, either order); returns it and where it was.
  ///
  /// The index counts as lists show pairs, newest first (``addPairAtTop(_:)``
  /// order), which ``restorePair(_:at:)`` takes back.
  public func removePair(named name: String) throws -> (pair: ConfiguredPair, index: Int)? {
    try pairs.update { list -> (pair: ConfiguredPair, index: Int)? in
      guard let index = list.firstIndex(where: { $0.isNamed(name) }) else { return nil }
      return (list.remove(at: index), list.count - index)
    }
  }

  /// Puts `pair` back at `index` (clamped; counted newest first, as shown) unless it is there
  /// already.
  public func restorePair(_ pair: ConfiguredPair, at index: Int) throws {
    try pairs.update { list in
      guard !list.contains(where: { $0.matches(pair.base, pair.quote) }) else { return }
      let shown = Swift.min(Swift.max(index, 0), list.count)
      list.insert(pair, at: list.count - shown)
    }
  }

  // MARK: - Shared

  /// Appends the coins `file` lacks (by id, each once); returns those added.
  static func add(_ coins: [FavoriteCoin], to file: DataFile<[FavoriteCoin]>) throws
    -> [FavoriteCoin]
  {
    try file.update { list in
      var added: [FavoriteCoin] = []
      for coin in coins where !list.contains(where: { $0.id == coin.id }) {
        list.append(coin)
        added.append(coin)
      }
      return added
    }
  }

  /// Removes from `file` the first coin matching each input (id, or symbol in any case).
  static func remove(matching inputs: [String], from file: DataFile<[FavoriteCoin]>) throws
    -> CoinRemoval
  {
    try file.update { list in
      var removal = CoinRemoval()
      for input in inputs {
        let lower = input.lowercased()
        guard let index = list.firstIndex(where: { $0.id == lower || $0.symbol.lowercased() == lower })
        else {
          removal.absent.append(lower)
          continue
        }
        removal.removed.append(list.remove(at: index))
      }
      removal.left = list
      return removal
    }
  }
}

/// What removing coins by name did.
public struct CoinRemoval: Equatable, Sendable {
  /// The coins removed, in the order named.
  public var removed: [FavoriteCoin] = []
  /// The inputs (lower-cased) that named no coin of the list.
  public var absent: [String] = []
  /// The list as it is now.
  public var left: [FavoriteCoin] = []
}
