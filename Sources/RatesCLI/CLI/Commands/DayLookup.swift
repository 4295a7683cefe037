import RateCore

/// `rates history <BASE> <QUOTE> --date DAY`: one day's rate, and the day it
/// was published (for ECB rates, the working day on or before it).
struct DayLookup {
  let day: Day
  /// The day's rate by the one rule in RateCore (``RateDesk/rate(base:quote:on:)``),
  /// shared with `convert --date`.
  let rate: RateDesk.DatedRate

  /// The `--json` document. Keys are a stable contract.
  struct Document: Encodable {
    var base: String
    var quote: CurrencyCode
    var date: Day
    var rate: Double
    /// The day the rate belongs to: `date` itself, or the working day before it.
    var rateDate: Day
    var carried: Bool
    var source: String
    var fetchedAt: Date
    var stale: Bool
  }

  static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

  static func named(_ day: Day) -> String { "\(weekdays[day.isoWeekday - 1]) \(day)" }

  func run(_ invocation: Invocation) throws -> ExitCode {
    let result = rate.history
    let series = result.series
    let shown = rate.point
    invocation.report(result)
    var single = series
    single.points = [shown]
    single.gaps = []
    let document = Document(
      base: series.base, quote: series.quote, date: day, rate: shown.rate,
      rateDate: rate.published, carried: shown.carried, source: series.source.name,
      fetchedAt: series.fetchedAt, stale: result.staleness != nil)
    try invocation.write(
      CommandOutput(
        document: document, exports: CommandOutput.priceExports(single, resolved: result.asset)
      ) { [self] _ in text(series) })
    return .success
  }

  /// `GBP/USD on Sunday 2019-03-17: …` and the day its rate is of.
  func text(_ series: RateSeries) -> String {
    let shown = rate.point
    let own = rate.published
    let pair = TerminalText.sanitize("\(series.base)/\(series.quote)")
    let amount = RateFormat.amount(shown.rate, code: TerminalText.sanitize(series.quote.text))
    var lines = ["\(pair) on \(Self.named(day)): \(amount)"]
    let source = series.source.displayName
    if own == day {
      lines.append("  \(source), that day's own rate")
    } else {
      lines.append(
        "  \(source) rate of \(Self.named(own)), the last working day on or before it "
          + "(carried)")
    }
    return lines.joined(separator: "\n")
  }
}
