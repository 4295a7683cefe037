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

  /// One price directive between two named commodities at a day or a UTC time (ledger-cli
  /// only: beancount's price directives hold a date only), the rate in the shortest digits
  /// that read back as the same `Double`; `nil` for a rate that is not a finite number.
  public static func directive(
    day date: some SeriesKey, base: CommodityName, rate: Double, quote: CommodityName, journal: Journal
  ) -> String? {
    guard let number = DecimalText.shortest(rate) else { return nil }
    switch journal {
    case .ledger: return "P \(date.journalText) \(base.ledger) \(number) \(quote.ledger)"
    case .beancount: return "\(date.journalText) price \(base.name) \(number) \(quote.name)"
    }
  }

  /// A directive per day or hour with a value of its own (carried days add nothing
  /// to a journal), oldest first, each on its own line.
  ///
  /// - Parameters:
  ///   - base: the series' base as a commodity (from its resolved coin, see
  ///     ``CommodityName``); by default its code.
  ///   - quote: the quote as a commodity; by default its code.
  public static func directives<Key>(
    _ series: Series<Key>, base: CommodityName? = nil, quote: CommodityName? = nil,
    journal: Journal
  ) -> String {
    let base = base ?? .code(series.base)
    let quote = quote ?? .code(series.quote)
    return series.points.filter { !$0.carried }
      .compactMap { directive(day: $0.date, base: base, rate: $0.rate, quote: quote, journal: journal) }
      .joined(separator: "\n")
  }

  /// `date,base,quote,rate,carried,source` with a header row (RFC 4180), or for an hourly
  /// series `time,base,quote,rate,source` (``SeriesKey/isoText``): each row's `source` is
  /// where that rate came from (``Series/source(on:)``).
  public static func csv<Key>(_ series: Series<Key>) -> String {
    var header = [Key.pointKey, "base", "quote", "rate", "source"]
    if Key.carriesOver { header.insert("carried", at: 4) }
    return CSV.document(
      header: header,
      rows: series.points.map {
        var row = [$0.date.isoText, series.base, series.quote.text, plain($0.rate), series.source(on: $0.date).name]
        if Key.carriesOver { row.insert($0.carried ? "true" : "false", at: 4) }
        return row
      })
  }

  /// `base,quote,rate,changePercent,changePeriod,updatedAt,source,fetchedAt,stale`: the
  /// names and meanings of the JSON vocabulary (the change labelled with its true
  /// period, `1d` for an ECB rate).
  public static func csv(quotes: [(quote: Quote, stale: Bool)]) -> String {
    CSV.document(
      header: [
        "base", "quote", "rate", "changePercent", "changePeriod", "updatedAt", "source", "fetchedAt",
        "stale",
      ],
      rows: quotes.map { quote, stale in
        [
          quote.base, quote.quote.text, plain(quote.rate), quote.change24hPercent.map(plain) ?? "",
          quote.changePeriod.rawValue,
          quote.updatedAt.map(ISO8601.format) ?? "", quote.source.name, ISO8601.format(quote.fetchedAt),
          stale ? "true" : "false",
        ]
      })
  }

  private static func plain(_ value: Double) -> String { DecimalText.shortest(value) ?? "" }
}
