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
    var quote: String
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
    let own = rate.published
    invocation.report(result)
    if invocation.options.json {
      try invocation.printJSON(
        Document(
          base: series.base, quote: series.quote, date: day, rate: shown.rate, rateDate: own,
          carried: shown.carried, source: series.source, fetchedAt: series.fetchedAt,
          stale: result.staleness != nil))
      return .success
    }
    var single = series
    single.points = [shown]
    single.gaps = []
    if invocation.export(single, resolved: result.asset) { return .success }
    let pair = TerminalText.sanitize("\(series.base)/\(series.quote)")
    var lines = ["\(pair) on \(Self.named(day)): \(RateFormat.amount(shown.rate, code: TerminalText.sanitize(series.quote)))"]
    let source = Providers.displayName(series.source)
    if own == day {
      lines.append("  \(source), that day's own rate")
    } else {
      lines.append(
        "  \(source) rate of \(Self.named(own)), the last working day on or before it "
          + "(carried)")
    }
    invocation.out(lines.joined(separator: "\n"))
    return .success
  }
}
