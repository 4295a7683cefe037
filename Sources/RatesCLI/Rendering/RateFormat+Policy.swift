import RateCore

/// The number policy, one line per kind of number (every text output follows it):
/// - a money amount in a currency: that currency's minor unit (``Figure/minorUnit(of:)``):
///   `¥15,231`, `100.00 EUR`, `1.250 KWD`; a coin amount: 8 decimals, whole satoshis
///   (`0.00163312 BTC`);
/// - an exchange rate or price: five significant digits, never fewer than two decimals
///   and never a rounded whole part (``rate(_:)``: `85,999.00`, `1.2634`, `0.39120`, `0.000016331`);
///   a column of one pair's rates, and the changes between them, share the decimals of
///   its most precise rate (``rateColumn(_:)``), so no column mixes `0.671` and `0.6709`;
/// - a percentage: two decimals and a sign (``percent(_:)``);
/// - a market cap or supply: short form (``compact(_:)``).
///
/// Tables line the decimals of a column up (``TextTable``). JSON and CSV write computed
/// figures by RateCore's ``Figure``, which holds the minor units.
extension RateFormat {
  /// A money amount followed by its code, to the currency's minor unit: `163.31 USD`,
  /// `0.00163312 BTC`, `17,612 JPY` (see ``Figure/moneyDecimals(_:code:)`` for the exceptions).
  static func money(_ value: Double, code: String) -> String {
    fixed(value, decimals: Figure.moneyDecimals(value, code: CurrencyCode(code))) + " " + code
  }

  /// A gain or change of money with its sign and without its code, to the currency's minor
  /// unit: `+702.25`, `-4,000.00`, `+1,234` for JPY, `+0.00` (never `-0.00`).
  static func signedMoney(_ value: Double, code: String) -> String {
    let text = fixed(value, decimals: Figure.moneyDecimals(value, code: CurrencyCode(code)))
    if value.isNaN || text.hasPrefix("-") { return text }
    return "+" + text
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
  static func rateColumn(_ values: [Double]) -> RateColumn {
    // ``rate(_:)`` never writes more decimals for a larger magnitude, so the
    // smallest value is the most precise: one formatting, not one per value
    // (a 25-year series has 10,000).
    let smallest = values.lazy.filter { $0.isFinite && $0 != 0 }.map(Swift.abs).min()
    let decimals = smallest.map(rateDecimals) ?? 2
    return RateColumn(decimals: Swift.min(decimals, maximumDecimals))
  }
}

/// A column of rates written with one number of decimals (see ``RateFormat/rateColumn(_:)``).
struct RateColumn: Sendable, Equatable {
  /// The decimals every value gets.
  var decimals: Int

  /// A rate: `1.2634`.
  func format(_ value: Double) -> String {
    RateFormat.fixed(value, decimals: decimals)
  }

  /// A rate followed by its code: `1.2634 USD`.
  func amount(_ value: Double, code: String) -> String {
    format(value) + " " + code
  }

  /// A change with its sign; one that shows as zero gets `+`: `+0.0011`, `-1,164.95`.
  func signed(_ value: Double) -> String {
    let text = format(value)
    if value.isNaN || text.hasPrefix("-") { return text }
    return "+" + text
  }
}
