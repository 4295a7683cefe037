import Foundation

/// Rates as CSV and as plain-text accounting price directives, so they can be
/// appended to a spreadsheet or a ledger-cli / hledger / beancount journal.
public enum PriceExport {
  /// Which journal syntax.
  public enum Journal: Sendable {
    /// ledger-cli and hledger: `P 2024-11-15 BTC 85999.00 EUR`.
    case ledger
    /// beancount: `2024-11-15 price BTC 85999.00 EUR`.
    case beancount
  }

  /// One price directive.
  public static func directive(
    day: Day, base: String, rate: Double, quote: String, journal: Journal
  ) -> String {
    switch journal {
    case .ledger:
      return "P \(day) \(ledgerCommodity(base)) \(plain(rate)) \(ledgerCommodity(quote))"
    case .beancount:
      return "\(day) price \(commodity(base)) \(plain(rate)) \(commodity(quote))"
    }
  }

  /// A directive per day with a value of its own (carried days add nothing
  /// to a journal), oldest first, each on its own line.
  public static func directives(_ series: RateSeries, journal: Journal) -> String {
    series.points.filter { !$0.carried }
      .map { directive(day: $0.date, base: series.base, rate: $0.rate, quote: series.quote, journal: journal) }
      .joined(separator: "\n")
  }

  /// `date,base,quote,rate,carried,source` with a header row (RFC 4180).
  public static func csv(_ series: RateSeries) -> String {
    CSV.document(
      header: ["date", "base", "quote", "rate", "carried", "source"],
      rows: series.points.map {
        [$0.date.description, series.base, series.quote, plain($0.rate), $0.carried ? "true" : "false", series.source]
      })
  }

  /// `base,quote,rate,change24hPercent,updatedAt,source,fetchedAt,stale`.
  public static func csv(quotes: [(quote: Quote, stale: Bool)]) -> String {
    CSV.document(
      header: ["base", "quote", "rate", "change24hPercent", "updatedAt", "source", "fetchedAt", "stale"],
      rows: quotes.map { quote, stale in
        [
          quote.base, quote.quote, plain(quote.rate), quote.change24hPercent.map(plain) ?? "",
          quote.updatedAt.map(ISO8601.format) ?? "", quote.source, ISO8601.format(quote.fetchedAt),
          stale ? "true" : "false",
        ]
      })
  }

  /// A number without grouping or exponent, with at least two decimals and
  /// about ten significant digits: `85999.00`, `1.2634`, `0.00001515`.
  public static func plain(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let magnitude = abs(value)
    let exponent = magnitude > 0 ? Int(log10(magnitude).rounded(.down)) : 0
    let decimals = min(max(2, 9 - exponent), 16)
    var text = String(format: "%.*f", decimals, value)
    while text.hasSuffix("0"), let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) > 3 {
      text.removeLast()
    }
    return text
  }

  /// A beancount currency name: upper case, letters, digits and `._-'`,
  /// starting with a letter and ending with a letter or digit
  /// (`ethereum-wormhole` → `ETHEREUM-WORMHOLE`).
  public static func commodity(_ symbol: String) -> String {
    var name = String(
      symbol.uppercased().map { character -> Character in
        character.isASCII && (character.isLetter || character.isNumber || "._-'".contains(character))
          ? character : "_"
      }.prefix(24))
    while let last = name.last, !(last.isLetter || last.isNumber) { name.removeLast() }
    if let first = name.first, !first.isLetter { name = "X" + name }
    return name.isEmpty ? "X" : name
  }

  /// A ledger-cli / hledger commodity: bare when it is letters only,
  /// otherwise in double quotes (`"ETHEREUM-WORMHOLE"`, `"1INCH"`).
  public static func ledgerCommodity(_ symbol: String) -> String {
    let name = String(
      symbol.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || "._-'".contains($0)) }
        .prefix(24))
    guard !name.isEmpty else { return "X" }
    return name.allSatisfy(\.isLetter) ? name : "\"\(name)\""
  }
}
