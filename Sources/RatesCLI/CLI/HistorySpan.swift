import RateCore

/// The days a `history` or `stats` asks for: the last N days (`--days`), a
/// range (`--from [--to]`) or, for `history`, one day (`--date`).
enum HistorySpan: Equatable, Sendable {
  case lastDays(Int)
  case range(from: Day, to: Day?)
  case single(Day)

  static let from = Option.day(
    "--from",
    help: "the first day of a range (any day the provider covers: ECB rates from 1999-01-04)")
  static let to = Option.day("--to", help: "the last day of a --from range (default: today)")
  static let date = Option.day(
    "--date",
    help: "one day's rate, and the working day it was published (a Sunday gives Friday's "
      + "ECB rate)")

  static let interval = Option.option(
    "--interval", value: "daily|hourly",
    help: "daily (the default) or hourly: CoinGecko's hourly points, for coin pairs within the "
      + "last \(HourlyHistory.maximumDays) days (ECB rates are daily)",
    completion: .choices(.intervals))

  /// `--interval hourly`, as the commands' exclusions name it.
  static let hourly = OptionUse(interval, "hourly")

  /// The rules between the span's options for a command that reads them with `days` and,
  /// for `history`, `single` (`--date`): the last N days, a range or one day, not two.
  static func exclusions(days: Option<Int>, single: Option<Day?>? = nil) -> [OptionRule] {
    let range = [OptionUse(from), OptionUse(to)]
    let lastDays = OptionRule(OptionUse(days), excludes: range, reason: "pick one")
    guard let single else { return [lastDays] }
    return [OptionRule(OptionUse(single), excludes: [OptionUse(days)] + range), lastDays]
  }

  /// `--to` ends a `--from` range.
  static let requirements = [
    OptionRule(OptionUse(to), needs: [OptionUse(from)], reason: "give the first day too")
  ]

  /// Reads `--interval`: true for hourly.
  static func parseHourly(_ scanner: inout ArgumentScanner) throws(UsageError) -> Bool {
    try scanner.read(interval) == "hourly"
  }

  /// Reads `--days` (its declared range and default), `--from`,
  /// `--to` and, when `single` is given, `--date`: usage errors for a bad
  /// date or a range whose end is before its start (the parser has refused a mix of forms by
  /// ``exclusions(days:single:)`` and ``requirements``).
  static func parse(
    _ scanner: inout ArgumentScanner, days: Option<Int>, single: Option<Day?>? = nil
  ) throws(UsageError) -> HistorySpan {
    let days = try scanner.read(days)
    let range = try parseRange(&scanner)
    var date: Day?
    if let single { date = try scanner.read(single) }
    if let date { return .single(date) }
    return range ?? .lastDays(days)
  }

  /// Reads `--from` and `--to` alone (a command whose other form is not `--days`): the
  /// range, or nil without `--from`; a usage error for a range whose end is before its start.
  static func parseRange(_ scanner: inout ArgumentScanner) throws(UsageError) -> HistorySpan? {
    let from = try scanner.read(Self.from)
    let to = try scanner.read(Self.to)
    if let from, let to, to < from {
      throw UsageError.invalid("--to \(to) is before --from \(from): swap them")
    }
    return from.map { .range(from: $0, to: to) }
  }

  /// The days asked for, checked against today: a day after today is a usage
  /// error. A single day is just that day (RateCore's rule reads the days
  /// before it that it needs).
  func window(today: Day) throws(UsageError) -> ClosedRange<Day> {
    switch self {
    case .lastDays(let days):
      return today.adding(days: -(days - 1))...today
    case .range(let from, let to):
      for (name, day) in [("--from", from), ("--to", to)] {
        if let problem = day?.futureProblem(name: name, today: today) {
          throw UsageError.invalid(problem)
        }
      }
      return from...(to ?? today)
    case .single(let day):
      if let problem = day.futureProblem(name: "--date", today: today) {
        throw UsageError.invalid(problem)
      }
      return day...day
    }
  }

  /// Whether the span is "the last N days" rather than days the user named:
  /// only then may data that ends early be shown as its own last N days.
  var followsData: Bool {
    if case .lastDays = self { return true }
    return false
  }

  /// How the span reads in messages: "the last 28 days", "2019-01-01 to 2019-12-31".
  func describe(today: Day) -> String {
    switch self {
    case .lastDays(let days): return "the last \(days) days"
    case .range(let from, let to): return "\(from) to \(to ?? today)"
    case .single(let day): return "the week up to \(day)"
    }
  }

  /// How many days the span should hold (for the "only N of M days" note).
  func expectedDays(today: Day) -> Int? {
    switch self {
    case .lastDays(let days): return days
    case .range(let from, let to): return from.distance(to: min(to ?? today, today)) + 1
    case .single: return nil
    }
  }
}
