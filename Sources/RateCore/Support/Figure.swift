#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one rule for how precise a figure the program *computed* is, wherever it is
/// written for other programs (`--json`, CSV) and as the digits tables start from:
/// - an amount of money in a currency (a value, a cost, a gain, a converted amount, a
///   summed quantity): the currency's minor unit (``minorUnit(of:)``: `163.31` USD,
///   `15231` JPY, `1.25` KWD, 8 decimals for a coin), with the exceptions of
///   ``moneyDecimals(_:code:)`` (a tiny amount keeps three significant digits);
/// - anything else computed (a mean, median, deviation or change of rates, a percentage,
///   a share, a rate derived from amounts): ``significantDigits`` significant digits.
///
/// A figure is rounded to that precision and then written as the shortest decimal that
/// reads back as the same `Double`, so `2189.0999999999985` becomes `2189.1`. Figures
/// a provider or the user gave (a day's rate, an amount typed in) are never rounded:
/// they are written as they came.
public enum Figure {
  /// The significant digits a computed figure that is not money keeps: more than any
  /// provider publishes (CoinGecko sends up to 10, the ECB 5), fewer than the noise of
  /// a `Double` sum (the 16th and 17th digits).
  public static let significantDigits = 10

  /// The most decimals any figure is written with.
  public static let maximumDecimals = 15

  /// Currencies whose minor unit is not the cent: 0 or 3 decimals (ISO 4217).
  static let minorUnits: [String: Int] = [
    "JPY": 0, "KRW": 0, "ISK": 0, "CLP": 0, "VND": 0, "PYG": 0, "UGX": 0, "XAF": 0,
    "XOF": 0, "RWF": 0, "KMF": 0, "GNF": 0, "DJF": 0, "VUV": 0, "XPF": 0, "BIF": 0,
    "KWD": 3, "BHD": 3, "OMR": 3, "JOD": 3, "TND": 3, "LYD": 3, "IQD": 3,
  ]

  /// The decimals of a coin amount: 8, a satoshi for bitcoin.
  public static let coinDecimals = 8

  /// The decimals an amount of `code` is written with: its minor unit for a fiat
  /// currency (2 unless ISO 4217 says otherwise), ``coinDecimals`` for a coin.
  public static func minorUnit(of code: CurrencyCode) -> Int {
    guard CurrencyCodes.fiat.contains(code.text) || RetiredCurrencies.isRetired(code.text) else {
      return coinDecimals
    }
    return minorUnits[code.text] ?? 2
  }

  /// The decimals of an amount of `code`: its ``minorUnit(of:)``, except that
  /// - an amount that is not zero but would round to zero gets three significant digits
  ///   (`0.000612 EUR`, never `0.00 EUR`), and
  /// - a huge amount gets no more digits than a Double holds (15 significant), so none is
  ///   noise: `16,330,663,269.8887 BTC`, not `…269.88870621`.
  public static func moneyDecimals(_ value: Double, code: CurrencyCode) -> Int {
    let unit = minorUnit(of: code)
    let magnitude = Swift.abs(value)
    guard magnitude.isFinite, magnitude > 0 else { return unit }
    let exponent = Int((log10(magnitude)).rounded(.down))
    if magnitude < 0.5 * pow(10, Double(-unit)) {
      return Swift.min(2 - exponent, maximumDecimals)
    }
    return Swift.min(unit, Swift.max(0, 14 - exponent))
  }

  /// A computed amount of `code` at its precision (``moneyDecimals(_:code:)``):
  /// `42999.561500000005` USD → `42999.56`. Not finite stays as it is; never `-0`.
  ///
  /// A difference of amounts (a gain, a change) has the precision of what it is the
  /// difference of: pass the largest of them as `scale`, so `100 − 99.99999999999999` USD
  /// is `0`, not `0.000000000000014`, while a gain on a holding worth `0.00001` keeps its
  /// digits.
  public static func money(_ value: Double, code: CurrencyCode, scale: Double = 0) -> Double {
    let reference = scale.isFinite && Swift.abs(scale) > Swift.abs(value) ? scale : value
    return rounded(value, text: NumberText.fixed(value, places: moneyDecimals(reference, code: code)))
  }

  /// A computed figure that is not money (a statistic of rates, a derived rate, a
  /// percentage) to ``significantDigits``: `2189.0999999999985` → `2189.1`,
  /// `0.1 + 0.2` → `0.3`. Not finite stays as it is; never `-0`.
  public static func ratio(_ value: Double) -> Double {
    rounded(value, text: NumberText.scientific(value, digits: significantDigits - 1))
  }

  /// `quote / base`, two rates against one currency (the euro) crossed: as published
  /// when `base` is 1, else a computed figure at ``ratio(_:)``'s precision
  /// (`0.85 / 1.08` → `0.787037037`, not `0.787037037037037`).
  public static func crossRate(_ quote: Double, per base: Double) -> Double {
    base == 1 ? quote : ratio(quote / base)
  }

  /// ``ratio(_:)`` for an optional.
  public static func ratio(_ value: Double?) -> Double? {
    value.map(ratio)
  }

  /// `value` read back from its rounded `text` (C's correctly rounded `printf`, then a
  /// correctly rounded parse: the nearest `Double` to the short decimal, whose shortest
  /// spelling is that decimal).
  private static func rounded(_ value: Double, text: String) -> Double {
    guard value.isFinite, let parsed = Double(text) else { return value }
    return parsed == 0 ? 0 : parsed
  }
}
