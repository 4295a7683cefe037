/// The currencies of the ECB's euro reference rates, which Frankfurter serves.
public enum FiatCurrencies {
  /// The 31 ECB currencies as of 2024 (30 plus EUR) with their English names,
  /// as Frankfurter's `/currencies` writes them.
  ///
  /// HRK ended on 2022-12-31 and RUB has been suspended since March 2022, so
  /// neither is listed (the real answers in fixtures/real/frankfurter/ say the same).
  public static let ecb: [String: String] = [
    "AUD": "Australian Dollar",
    "BGN": "Bulgarian Lev",
    "BRL": "Brazilian Real",
    "CAD": "Canadian Dollar",
    "CHF": "Swiss Franc",
    "CNY": "Chinese Renminbi Yuan",
    "CZK": "Czech Koruna",
    "DKK": "Danish Krone",
    "EUR": "Euro",
    "GBP": "British Pound",
    "HKD": "Hong Kong Dollar",
    "HUF": "Hungarian Forint",
    "IDR": "Indonesian Rupiah",
    "ILS": "Israeli New Sheqel",
    "INR": "Indian Rupee",
    "ISK": "Icelandic Króna",
    "JPY": "Japanese Yen",
    "KRW": "South Korean Won",
    "MXN": "Mexican Peso",
    "MYR": "Malaysian Ringgit",
    "NOK": "Norwegian Krone",
    "NZD": "New Zealand Dollar",
    "PHP": "Philippine Peso",
    "PLN": "Polish Złoty",
    "RON": "Romanian Leu",
    "SEK": "Swedish Krona",
    "SGD": "Singapore Dollar",
    "THB": "Thai Baht",
    "TRY": "Turkish Lira",
    "USD": "United States Dollar",
    "ZAR": "South African Rand",
  ]

  /// The currencies listed first, in this order; the rest follow A–Z.
  public static let leading = ["GBP", "EUR", "USD"]

  /// The codes and names of `codes` for display: GBP, EUR and USD first
  /// (those present), then every other code alphabetically.
  public static func ordered(_ codes: [String: String]) -> [(code: String, name: String)] {
    ordered(Array(codes.keys)).compactMap { code in codes[code].map { (code: code, name: $0) } }
  }

  /// `codes` upper-cased, without repeats, in display order: ``leading`` first, then A–Z.
  /// Currencies the ECB no longer publishes (``RetiredCurrencies``, such as BGN since
  /// 2026) are left out: lists of current currencies never offer them.
  public static func ordered(_ codes: [String]) -> [String] {
    let upper = Set(codes.map { CurrencyCode($0).text }.filter { !RetiredCurrencies.isRetired($0) })
    return leading.filter(upper.contains) + upper.subtracting(leading).sorted()
  }
}
