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

  /// One price directive between two named commodities, the rate in the
  /// shortest digits that read back as the same `Double`; `nil` for a rate
  /// that is not a finite number.
  public static func directive(
    day: Day, base: CommodityName, rate: Double, quote: CommodityName, journal: Journal
  ) -> String? {
    guard let number = DecimalText.shortest(rate) else { return nil }
    switch journal {
    case .ledger: return "P \(day) \(base.ledger) \(number) \(quote.ledger)"
    case .beancount: return "\(day) price \(base.name) \(number) \(quote.name)"
    }
  }

  /// A directive per day with a value of its own (carried days add nothing
  /// to a journal), oldest first, each on its own line.
  ///
  /// - Parameters:
  ///   - base: the series' base as a commodity (from its resolved coin, see
  ///     ``CommodityName``); by default its code.
  ///   - quote: the quote as a commodity; by default its code.
  public static func directives(
    _ series: RateSeries, base: CommodityName? = nil, quote: CommodityName? = nil,
    journal: Journal
  ) -> String {
    let base = base ?? .code(series.base)
    let quote = quote ?? .code(series.quote)
    return series.points.filter { !$0.carried }
      .compactMap { directive(day: $0.date, base: base, rate: $0.rate, quote: quote, journal: journal) }
      .joined(separator: "\n")
  }

  /// `date,base,quote,rate,carried,source` with a header row (RFC 4180): each row's
  /// `source` is where that day's rate came from (``RateSeries/source(on:)``).
  public static func csv(_ series: RateSeries) -> String {
    CSV.document(
      header: ["date", "base", "quote", "rate", "carried", "source"],
      rows: series.points.map {
        [
          $0.date.description, series.base, series.quote.text, plain($0.rate), $0.carried ? "true" : "false",
          series.source(on: $0.date).name,
        ]
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
