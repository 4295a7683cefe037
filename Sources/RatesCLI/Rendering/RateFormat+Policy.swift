import RateCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The number policy, one line per kind of number (every text output follows it):
/// - a money amount in a currency: that currency's minor unit (``minorUnit(of:)``):
///   `¥15,231`, `100.00 EUR`, `1.250 KWD`; a coin amount: 8 decimals, whole satoshis
///   (`0.00163312 BTC`);
/// - an exchange rate or price: five significant digits, never fewer than two decimals
///   and never a rounded whole part (``rate(_:)``: `85,999.00`, `1.2634`, `0.39120`, `0.000016331`);
///   a column of one pair's rates, and the changes between them, share the decimals of
///   its most precise rate (``rateColumn(_:)``), so no column mixes `0.671` and `0.6709`;
/// - a percentage: two decimals and a sign (``percent(_:)``);
/// - a market cap or supply: short form (``compact(_:)``).
///
/// Tables line the decimals of a column up (``TextTable``).
extension RateFormat {
  /// Currencies whose minor unit is not the cent: 0 or 3 decimals (ISO 4217).
  static let minorUnits: [String: Int] = [
    "JPY": 0, "KRW": 0, "ISK": 0, "CLP": 0, "VND": 0, "PYG": 0, "UGX": 0, "XAF": 0,
    "XOF": 0, "RWF": 0, "KMF": 0, "GNF": 0, "DJF": 0, "VUV": 0, "XPF": 0, "BIF": 0,
    "KWD": 3, "BHD": 3, "OMR": 3, "JOD": 3, "TND": 3, "LYD": 3, "IQD": 3,
  ]

  /// The decimals of a coin amount: 8, a satoshi for bitcoin.
  public static let coinDecimals = 8

  /// The decimals an amount of `code` is written with: its minor unit for a fiat
  /// currency (2 unless ``minorUnits`` says otherwise), ``coinDecimals`` for a coin.
  public static func minorUnit(of code: String) -> Int {
    let upper = code.uppercased()
    guard CurrencyCodes.fiat.contains(upper) || RetiredCurrencies.isRetired(upper) else {
      return coinDecimals
    }
    return minorUnits[upper] ?? 2
  }

  /// A money amount followed by its code, to the currency's minor unit: `163.31 USD`,
  /// `0.00163312 BTC`, `17,612 JPY` (see ``moneyDecimals(_:code:)`` for the exceptions).
  public static func money(_ value: Double, code: String) -> String {
    fixed(value, decimals: moneyDecimals(value, code: code)) + " " + code
  }

  /// The decimals of an amount of `code`: its ``minorUnit(of:)``, except that
  /// - an amount that is not zero but would round to zero gets three significant digits
  ///   (`0.000612 EUR`, never `0.00 EUR`), and
  /// - a huge amount gets no more digits than a Double holds (15 significant), so none is
  ///   noise: `16,330,663,269.8887 BTC`, not `…269.88870621`.
  static func moneyDecimals(_ value: Double, code: String) -> Int {
    let unit = minorUnit(of: code)
    let magnitude = Swift.abs(value)
    guard magnitude.isFinite, magnitude > 0 else { return unit }
    let exponent = Int((log10(magnitude)).rounded(.down))
    if magnitude < 0.5 * pow(10, Double(-unit)) {
      return Swift.min(2 - exponent, maximumDecimals)
    }
    return Swift.min(unit, Swift.max(0, 14 - exponent))
  }

  /// The decimals ``rate(_:)`` writes for `value`.
  static func rateDecimals(_ value: Double) -> Int {
    let text = rate(value)
    guard text.allSatisfy({ $0.isNumber || ",.-+".contains($0) }) else { return 0 }
    return text.split(separator: ".").dropFirst().first?.count ?? 0
  }

  /// The rates of one pair as a column: every value with the decimals of the most
  /// precise of them under ``rate(_:)``; use the result's `format` and `signed` for
  /// the values and the changes between them.
  public static func rateColumn(_ values: [Double]) -> RateColumn {
    // ``rate(_:)`` never writes more decimals for a larger magnitude, so the
    // smallest value is the most precise: one formatting, not one per value
    // (a 25-year series has 10,000).
    let smallest = values.lazy.filter { $0.isFinite && $0 != 0 }.map(Swift.abs).min()
    let decimals = smallest.map(rateDecimals) ?? 2
    return RateColumn(decimals: Swift.min(decimals, maximumDecimals))
  }
}

/// A column of rates written with one number of decimals (see ``RateFormat/rateColumn(_:)``).
public struct RateColumn: Sendable, Equatable {
  /// The decimals every value gets.
  public var decimals: Int

  /// A rate: `1.2634`.
  public func format(_ value: Double) -> String {
    RateFormat.fixed(value, decimals: decimals)
  }

  /// A rate followed by its code: `1.2634 USD`.
  public func amount(_ value: Double, code: String) -> String {
    format(value) + " " + code
  }

  /// A change with its sign; one that shows as zero gets `+`: `+0.0011`, `-1,164.95`.
  public func signed(_ value: Double) -> String {
    let text = format(value)
    if value.isNaN || text.hasPrefix("-") { return text }
    return "+" + text
  }
}
