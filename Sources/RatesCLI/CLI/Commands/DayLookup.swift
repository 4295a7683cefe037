import RateCore

/// `rates history <BASE> <QUOTE> --date DAY`: one day's rate, and the day it
/// was published (for ECB rates, the working day on or before it).
struct DayLookup {
  let day: Day
  let result: RateService.HistoryResult

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
    let series = result.series
    // The value shown on that day, and the point it came from: a carried
    // ECB weekend points back to the working day that published it.
    guard let shown = series.points.first(where: { $0.date == day }),
      let own = series.points.last(where: { $0.date <= day && !$0.carried })
    else {
      throw ProviderError.noData(
        provider: series.source,
        detail: "no \(series.base)/\(series.quote) rate on \(day) or the working days before it")
    }
    invocation.report(result)
    if invocation.options.json {
      try invocation.printJSON(
        Document(
          base: series.base, quote: series.quote, date: day, rate: shown.rate, rateDate: own.date,
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
    if own.date == day {
      lines.append("  \(source), that day's own rate")
    } else {
      lines.append(
        "  \(source) rate of \(Self.named(own.date)), the last working day on or before it "
          + "(carried)")
    }
    invocation.out(lines.joined(separator: "\n"))
    return .success
  }
}
