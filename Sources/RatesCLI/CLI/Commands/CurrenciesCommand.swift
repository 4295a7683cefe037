import RateCore

/// `rates currencies`: the currencies and coins `rates` can name directly.
struct CurrenciesCommand: RatesCommand {
  static let name = "currencies"
  static let abstract = "the supported currencies (or, with --crypto, coins) with names"
  struct Declared: Declarations {
    let crypto = Option.flag(
      "--crypto",
      help: "the coins you can name by symbol without a lookup, your coins and favorites; any "
        + "other "
        + "coin works by its CoinGecko id or through 'rates search'")
  }
  static let discussion = """
    Currencies are the ECB reference-rate currencies (fiat pairs), GBP, EUR and USD first,
    then the others alphabetically. Those the ECB no longer publishes (BGN since 2026, HRK,
    RUB, CYP…) are left out; their past rates still work by code. CoinGecko also prices
    coins in these:
    \(CurrencyCodes.coinGeckoQuotes.subtracting(FiatCurrencies.ecb.keys).sorted()
      .joined(separator: " ")).
    """
  static let examples = ["rates currencies", "rates currencies --crypto --json"]

  let crypto: Bool

  init(parsing scanner: inout ArgumentScanner, defaults: CommandDefaults) throws(UsageError) {
    crypto = try scanner.read(Self.declared.crypto)
  }

  struct Document: Encodable {
    struct Entry: Encodable {
      var symbol: String
      var name: String
      /// The CoinGecko id of a coin; `null` for a fiat currency.
      @NullEncoded var id: String?
    }
    var kind: String
    var currencies: [Entry]
  }

  func run(_ invocation: Invocation) async throws -> ExitCode {
    var entries: [Document.Entry] = []
    if crypto {
      for (symbol, id) in CoinResolver.wellKnown.sorted(by: { $0.key < $1.key }) {
        entries.append(.init(symbol: symbol, name: CoinResolver.names[id] ?? id, id: id))
      }
      let data = invocation.userData()
      for favorite in try data.readCoins() + data.favorites.read()
      where !entries.contains(where: { $0.id == favorite.id }) {
        entries.append(.init(symbol: favorite.symbol, name: favorite.name ?? favorite.id, id: favorite.id))
      }
    } else {
      entries = FiatCurrencies.ordered(FiatCurrencies.ecb).map { .init(symbol: $0.code, name: $0.name, id: nil) }
    }
    let document = Document(kind: crypto ? "crypto" : "fiat", currencies: entries)
    try invocation.write(
      CommandOutput(document: document) { [crypto, entries] in Self.table(entries, crypto: crypto, $0) })
    return .success
  }

  /// The table of `entries`: code and name, and for coins their CoinGecko id.
  static func table(_ entries: [Document.Entry], crypto: Bool, _ layout: TextLayout) -> String {
    var table = TextTable(
      columns: crypto
        ? [
          .init("SYMBOL", priority: TextTable.required), .init("NAME", fit: .shrinks, priority: 1),
          .init("ID", priority: 2),
        ]
        : [.init("CODE", priority: TextTable.required), .init("NAME", fit: .shrinks)])
    for entry in entries {
      table.append(crypto ? [entry.symbol, entry.name, entry.id ?? ""] : [entry.symbol, entry.name])
    }
    return layout.render(table).joined(separator: "\n")
  }
}
