/// A coin the user follows.
public struct FavoriteCoin: Codable, Equatable, Sendable {
  /// The CoinGecko id.
  public var id: String
  /// The upper-case symbol, or the id when the symbol is a currency code
  /// (``Asset/label(symbol:id:)``).
  public var symbol: String
  /// The coin's name, when known.
  public var name: String?
  /// When the user added it.
  public var addedAt: Date
  /// Members of the stored object this version does not know (a newer `rates` wrote them),
  /// written back unchanged.
  var unknownMembers: [String: JSONValue] = [:]

  /// The coin as an asset: its symbol and CoinGecko id.
  public var asset: Asset { Asset(symbol: symbol, id: id) }

  /// Creates a favorite.
  public init(id: String, symbol: String, name: String?, addedAt: Date) {
    self.id = id
    self.symbol = Asset.label(symbol: symbol, id: id)
    self.name = name
    self.addedAt = addedAt
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, symbol, name, addedAt
  }

  static let knownMembers = Set(CodingKeys.allCases.map(\.stringValue))

  /// Decodes a stored favorite, keeping members it does not know.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    symbol = Asset.label(symbol: try container.decode(String.self, forKey: .symbol), id: id)
    name = try container.decodeIfPresent(String.self, forKey: .name)
    addedAt = try container.decode(Date.self, forKey: .addedAt)
    unknownMembers = try UnknownMembers.decode(from: decoder, known: Self.knownMembers)
  }

  /// Encodes the favorite with the unknown members it was read with.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(symbol, forKey: .symbol)
    try container.encodeIfPresent(name, forKey: .name)
    try container.encode(addedAt, forKey: .addedAt)
    try UnknownMembers.encode(unknownMembers, to: encoder, known: Self.knownMembers)
  }
}

/// A currency pair the user configured, such as GBP-USD.
public struct ConfiguredPair: Codable, Equatable, Sendable {
  /// Upper-case codes, or a coin's symbol.
  public var base: String
  public var quote: String
  /// When the user added it.
  public var addedAt: Date
  /// ``RateSource/ledger`` for a pair priced by the user's own exchanges (its street rate,
  /// ``StreetRate``); nil for a pair the providers price.
  public var source: RateSource?
  /// Members of the stored object this version does not know, written back unchanged.
  var unknownMembers: [String: JSONValue] = [:]

  /// Creates a pair, priced by the providers unless `source` is ``RateSource/ledger``.
  public init(base: String, quote: String, addedAt: Date, source: RateSource? = nil) {
    self.base = base
    self.quote = quote
    self.addedAt = addedAt
    self.source = source
  }

  /// Whether the pair is priced by the ledger's street rate.
  public var isStreet: Bool { source == .ledger }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case base, quote, addedAt, source
  }

  static let knownMembers = Set(CodingKeys.allCases.map(\.stringValue))

  /// Decodes a stored pair, keeping members it does not know.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    base = try container.decode(String.self, forKey: .base)
    quote = try container.decode(String.self, forKey: .quote)
    addedAt = try container.decode(Date.self, forKey: .addedAt)
    // A source this version does not know (only `ledger` is written): priced by the providers.
    source = try container.decodeIfPresent(String.self, forKey: .source).flatMap(RateSource.init(name:))
    unknownMembers = try UnknownMembers.decode(from: decoder, known: Self.knownMembers)
  }

  /// Encodes the pair with the unknown members it was read with.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(base, forKey: .base)
    try container.encode(quote, forKey: .quote)
    try container.encode(addedAt, forKey: .addedAt)
    try container.encodeIfPresent(source, forKey: .source)
    try UnknownMembers.encode(unknownMembers, to: encoder, known: Self.knownMembers)
  }

  /// `GBP-USD`.
  public var name: String { "\(base)-\(quote)" }

  /// The pair a name stands for, `GBP-USD` or `GBP/USD` (the way ``isNamed(_:)`` reads
  /// names); `nil` for anything else.
  public init?(name: String, addedAt: Date) {
    guard let name = PairName(name) else { return nil }
    self.init(base: name.base, quote: name.quote, addedAt: addedAt)
  }

  /// Whether this pair has the same two currencies as `other`, in either order.
  public func matches(_ base: String, _ quote: String) -> Bool {
    let mine = (CurrencyCode(self.base), CurrencyCode(self.quote))
    let theirs = (CurrencyCode(base), CurrencyCode(quote))
    return mine == theirs || (mine.0 == theirs.1 && mine.1 == theirs.0)
  }

  /// Whether `text` names this pair, `BASE-QUOTE` or `QUOTE-BASE`, in any case.
  public func isNamed(_ text: String) -> Bool {
    let upper = text.uppercased()
    return upper == "\(base)-\(quote)".uppercased() || upper == "\(quote)-\(base)".uppercased()
      || upper == "\(base)/\(quote)".uppercased() || upper == "\(quote)/\(base)".uppercased()
  }
}

/// The user's own lists in `$XDG_DATA_HOME/rates`: never a cache, never lost.
public struct UserData: Sendable {
  /// `coins.json`: the coins the user added to the main list (the home screen, `top`,
  /// `watch`), in the order added. Read it with ``readCoins()``, which first migrates the
  /// favorites of an older `rates` (see ``migrateListsIfNeeded()``).
  public var coins: DataFile<[FavoriteCoin]>
  /// `favorites.json`: the coins the user starred.
  public var favorites: DataFile<[FavoriteCoin]>
  /// `pairs.json`.
  public var pairs: DataFile<[ConfiguredPair]>
  /// `ledger.json`: the user's own exchanges (`rates ledger`), an append-only log.
  public var ledger: LedgerStore
  /// Receives notices (the lists' migration, the ledger's).
  let notify: @Sendable (UserDataNotice) -> Void

  /// The files under `directory`.
  /// - Parameter notify: receives notices for stderr: the lists' migration, and the
  ///   ledger's (a migration, an interrupted write).
  public init(directory: URL, notify: @escaping @Sendable (UserDataNotice) -> Void = { _ in }) {
    coins = DataFile(url: directory.appendingPathComponent("coins.json"), key: "coins", empty: [])
    favorites = DataFile(
      url: directory.appendingPathComponent("favorites.json"), key: "favorites", empty: [])
    pairs = DataFile(url: directory.appendingPathComponent("pairs.json"), key: "pairs", empty: [])
    ledger = LedgerStore(
      url: directory.appendingPathComponent("ledger.json"), notify: { notify(.ledger($0)) })
    self.notify = notify
  }

  /// The ledger's entries when `pairs` has a street-rate pair (``ConfiguredPair/isStreet``),
  /// which a board prices from them; none (and the ledger unread) otherwise.
  public func streetEntries(for pairs: [ConfiguredPair]) throws -> [LedgerEntry] {
    pairs.contains(where: \.isStreet) ? try ledger.read().entries : []
  }
}

/// Something the user should know about their files, though nothing failed.
public enum UserDataNotice: Equatable, Sendable, CustomStringConvertible {
  /// The favorites of an older `rates` were copied to `coins` (they stay favorites too);
  /// the favorites file as it was is kept at `backup`.
  case listsSplit(coins: String, count: Int, backup: String)
  /// A notice about the ledger.
  case ledger(LedgerNotice)

  /// A sentence for stderr.
  public var description: String {
    switch self {
    case .listsSplit(let coins, let count, let backup):
      let coinsWord = count == 1 ? "favorite" : "\(count) favorites"
      return "copied your \(coinsWord) to your coins (\(coins)); "
        + "\(count == 1 ? "it stays a favorite" : "they stay favorites") too. The previous "
        + "favorites file is kept as \(backup)"
    case .ledger(let notice):
      return notice.description
    }
  }
}
