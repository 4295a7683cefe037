extension PriceExport {
  /// `YYYY-MM-DD HH:MM:SS` in UTC: the time of a ledger price directive.
  public static func utcDateTime(_ time: Date) -> String {
    let seconds = Int64(time.timeIntervalSince1970.rounded(.down))
    let day = Day(containing: time)
    let inDay = Int(seconds - Int64(day.start.timeIntervalSince1970))
    let (hour, minute, second) = (inDay / 3600, inDay % 3600 / 60, inDay % 60)
    return "\(day) " + [hour, minute, second].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
  }

  /// A ledger-cli / hledger price directive per hourly point, with its UTC
  /// time (`P 2026-11-20 13:00:07 BTC 85999 EUR`), oldest first. Beancount's
  /// price directives hold a date only, so an hourly series has no
  /// beancount form (the CLI refuses it).
  public static func ledgerDirectives(
    _ series: HourlySeries, base: CommodityName? = nil, quote: CommodityName? = nil
  ) -> String {
    let base = base ?? .code(series.base)
    let quote = quote ?? .code(series.quote)
    return series.points.compactMap { point in
      DecimalText.shortest(point.rate).map {
        "P \(utcDateTime(point.time)) \(base.ledger) \($0) \(quote.ledger)"
      }
    }
    .joined(separator: "\n")
  }

  /// `time,base,quote,rate,source` with a header row (RFC 4180), `time` in
  /// ISO 8601 UTC.
  public static func csv(_ series: HourlySeries) -> String {
    CSV.document(
      header: ["time", "base", "quote", "rate", "source"],
      rows: series.points.map {
        [
          ISO8601.format($0.time), series.base, series.quote.text, DecimalText.shortest($0.rate) ?? "",
          series.source.name,
        ]
      })
  }
}
