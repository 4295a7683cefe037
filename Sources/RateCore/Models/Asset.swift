/// A coin or currency as a provider knows it.
public struct Asset: Hashable, Sendable, Codable {
  /// What the user sees: the upper-case symbol (`BTC`; `WBTC` for a coin typed
  /// by its id, `wrapped-bitcoin`), or the id as given when the symbol would
  /// name another coin or could not be looked up (`ethereum-wormhole`, symbol
  /// ETH: ``CoinResolver``), or the id when the symbol is a currency code
  /// (``label(symbol:id:)``).
  public var symbol: String
  /// The provider's identifier (`bitcoin` at CoinGecko, `BTC` at CoinDesk).
  public var id: String

  /// Creates an asset labelled by ``label(symbol:id:)``.
  public init(symbol: String, id: String) {
    self.symbol = Self.label(symbol: symbol, id: id)
    self.id = id
  }

  enum CodingKeys: String, CodingKey { case symbol, id }

  /// Decodes an asset, labelled by ``label(symbol:id:)`` (one stored before the rule keeps
  /// no currency's name).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      symbol: try container.decode(String.self, forKey: .symbol),
      id: try container.decode(String.self, forKey: .id))
  }

  /// The one rule for how a coin is labelled in every command and format
  /// (tables, JSON `base`, CSV, ledger and beancount commodities, watch, the
  /// home screen): its symbol, unless the symbol is a currency code
  /// (``CurrencyCode/isCurrency``) and the coin is not that currency;
  /// then its id as the provider spells it (`poundtoken` for a coin with the
  /// symbol GBP), so a coin is never shown, exported or priced as the pound.
  public static func label(symbol: String, id: String) -> String {
    let code = CurrencyCode(symbol)
    return code.isCurrency && code != CurrencyCode(id) ? id : symbol
  }

  /// `symbol` as a provider or a list wrote it, labelled by ``label(symbol:id:)``:
  /// upper-cased, unless it is already the coin's id (which keeps its case).
  public static func label(typed symbol: String, id: String) -> String {
    symbol == id ? symbol : label(symbol: CurrencyCode(symbol).text, id: id)
  }

  /// The name that stands for this coin wherever a name is routed to a
  /// provider (``PairRouter``) or resolved again: its upper-case symbol, or its
  /// id when the symbol is a currency code (a coin `poundtoken` with the
  /// symbol GBP must never be priced as the pound) or is the id as typed.
  public var routingName: String {
    let code = CurrencyCode(symbol)
    return code.text == symbol && !code.isCurrency ? symbol : id
  }
}

/// Currency codes `rates` knows without asking a provider.
public enum CurrencyCodes {
  /// CoinGecko's `/simple/supported_vs_currencies`, upper case.
  public static let coinGeckoQuotes: Set<String> = [
    "BTC", "ETH", "LTC", "BCH", "BNB", "EOS", "XRP", "XLM", "LINK", "DOT", "YFI", "SOL",
    "USD", "AED", "ARS", "AUD", "BDT", "BHD", "BMD", "BRL", "CAD", "CHF", "CLP", "CNY",
    "CZK", "DKK", "EUR", "GBP", "GEL", "HKD", "HUF", "IDR", "ILS", "INR", "JPY", "KRW",
    "KWD", "LKR", "MMK", "MXN", "MYR", "NGN", "NOK", "NZD", "PHP", "PKR", "PLN", "RUB",
    "SAR", "SEK", "SGD", "THB", "TRY", "TWD", "UAH", "VEF", "VND", "ZAR", "XDR", "XAG",
    "XAU", "BITS", "SATS",
  ]

  /// Every code some provider quotes prices in: CoinGecko's quote currencies and the ECB
  /// currencies Frankfurter serves, sorted; what a default quote currency may be.
  public static let quotable: [String] =
    coinGeckoQuotes.union(FiatCurrencies.ecb.keys).sorted()

  /// CoinGecko quote currencies that are neither a coin nor a fiat currency of ``fiat``
  /// (special drawing rights, gold, silver, bits, satoshis): coins are priced in them, and
  /// nothing else is.
  public static let quoteOnly: Set<String> = ["XDR", "XAU", "XAG", "BITS", "SATS"]

  /// ISO 4217 codes of common fiat currencies (ECB's set and more), used to
  /// tell a currency from a coin symbol.
  public static let fiat: Set<String> = [
    "USD", "EUR", "GBP", "JPY", "CHF", "AUD", "CAD", "NZD", "CNY", "HKD", "SGD", "SEK", "NOK",
    "DKK", "PLN", "CZK", "HUF", "RON", "BGN", "ISK", "TRY", "ILS", "INR", "IDR", "KRW", "MYR",
    "PHP", "THB", "MXN", "BRL", "ZAR", "ARS", "CLP", "AED", "SAR", "KWD", "BHD", "TWD", "VND",
    "NGN", "PKR", "BDT", "LKR", "UAH", "RUB", "GEL", "MMK", "LBP", "EGP", "HRK", "BMD",
  ]
}
