/// A commodity's name in a ledger, hledger or beancount journal.
///
/// Names are stable and never collide: one asset always gets the same name,
/// and two different assets never share one.
///
/// - A currency code that is already a valid name keeps it, upper-cased
///   (`USD`, `LBP`, `SATS`).
/// - A coin is named from its resolved CoinGecko id, never from what was
///   typed: a coin that resolves by symbol without a lookup, or is one of
///   CoinGecko's quote currencies, keeps that symbol (`bitcoin` → `BTC`,
///   `yearn-finance` → `YFI`); any other coin is its id
///   upper-cased (`wbtc` and `wrapped-bitcoin` → `WRAPPED-BITCOIN`,
///   `ethereum-wormhole` → `ETHEREUM-WORMHOLE`), unless that would be a
///   currency code or such a symbol.
/// - Anything else is escaped: `X'` followed by the upper-cased text with each
///   byte other than a letter or digit written as `'` and two hex digits
///   (`usd+` → `X'USD'2B`, `x` → `X'X`, `$` → `X''24`). Plain names never
///   contain `'`, so an escaped name can never equal one.
/// - A name over 24 characters keeps its first 15 and ends with `'` and a
///   32-bit FNV-1a hash of the whole (in hex).
///
/// Every name matches beancount's currency syntax (2 to 24 characters,
/// `[A-Z][A-Z0-9'._-]{0,22}[A-Z0-9]`, versions 2 and 3); ledger and hledger
/// get it in double quotes unless it is letters only.
public struct CommodityName: Hashable, Sendable, CustomStringConvertible {
  /// The bare name, as beancount writes it.
  public let name: String

  /// The name as ledger-cli and hledger write it: bare when it is letters
  /// only, otherwise in double quotes (`"WRAPPED-BITCOIN"`).
  public var ledger: String { name.allSatisfy(\.isLetter) ? name : "\"\(name)\"" }

  /// The bare name.
  public var description: String { name }

  private init(_ name: String) { self.name = name }

  /// The name of a currency or other code (a fiat code, a ledger currency,
  /// one of CoinGecko's quote currencies).
  public static func code(_ text: String) -> CommodityName {
    CommodityName(plainOrEscaped(text.uppercased()))
  }

  /// The name of a currency code.
  public static func code(_ code: CurrencyCode) -> CommodityName {
    CommodityName(plainOrEscaped(code.text))
  }

  /// The name of the CoinGecko coin `id`.
  public static func coin(id: String) -> CommodityName {
    if let symbol = symbols[id] { return CommodityName(symbol) }
    let upper = id.uppercased()
    return CommodityName(reserved.contains(upper) ? escaped(upper) : plainOrEscaped(upper))
  }

  /// `text` when it is a valid name (shortened when over 24 characters),
  /// else escaped.
  static func plainOrEscaped(_ text: String) -> String {
    isPlain(text, maxLength: .max) ? shortened(text) : escaped(text)
  }

  /// The coins named by their symbol, by id: the ones that resolve without a lookup,
  /// and the coins among CoinGecko's quote currencies (so `YFI` typed as a quote and
  /// `yearn-finance` typed as a coin are one commodity).
  static let symbols: [String: String] = Dictionary(
    CoinResolver.wellKnown.map { ($0.value, $0.key) } + [("yearn-finance", "YFI")],
    uniquingKeysWith: { first, _ in first })

  /// Names a coin id must not take: currency codes and well-known symbols.
  static let reserved: Set<String> = CurrencyCodes.fiat.union(CurrencyCodes.coinGeckoQuotes)
    .union(CoinResolver.wellKnown.keys).union(FiatCurrencies.ecb.keys)

  /// Whether `text` is a valid name of 2 to `maxLength` characters without `'`.
  static func isPlain(_ text: String, maxLength: Int = 24) -> Bool {
    let characters = Array(text)
    guard (2...maxLength).contains(characters.count), let first = characters.first,
      let last = characters.last, isUpperLetter(first), isUpperLetter(last) || isDigit(last)
    else { return false }
    return characters.allSatisfy { isUpperLetter($0) || isDigit($0) || "._-".contains($0) }
  }

  /// `X'` and `text` with every byte other than `A`–`Z` and `0`–`9` as `'HH`,
  /// shortened with a hash when over 24 characters.
  static func escaped(_ text: String) -> String {
    var name = "X'"
    for character in text {
      if character.isASCII, isUpperLetter(character) || isDigit(character) {
        name.append(character)
      } else {
        for byte in String(character).utf8 { name += "'" + hex(byte) }
      }
    }
    return shortened(name)
  }

  /// `name`, or when over 24 characters its first 15, `'` and a hash.
  static func shortened(_ name: String) -> String {
    guard name.count > 24 else { return name }
    let digits = String(StableHash.fnv1a32(name), radix: 16, uppercase: true)
    return String(name.prefix(15)) + "'" + String(repeating: "0", count: 8 - digits.count) + digits
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
  }

  private static func isUpperLetter(_ c: Character) -> Bool { c >= "A" && c <= "Z" }
  private static func isDigit(_ c: Character) -> Bool { c >= "0" && c <= "9" }
}
