import RateCore

/// `history` and `stats` with `--interval hourly`: CoinGecko's hourly points
/// in every output (sparkline, chart, table, statistics, JSON, CSV, ledger).
struct HourlyReport {
  let pair: PairArguments
  let span: HistorySpan

  /// Fetches the window's hourly points; a pair or window hourly data cannot
  /// cover is a usage error, before any request.
  func fetch(_ invocation: Invocation) async throws -> RateDesk.HourlyResult {
    let today = Day(containing: invocation.context.now())
    let window = try span.window(today: today)
    try invocation.refuse(formats: [.beancount], HourlyMessages.hourlyBeancount)
    let result: RateDesk.HourlyResult
    do {
      result = try await invocation.desk.hourlyHistory(base: pair.base, quote: pair.quote, window: window)
    } catch let refusal as HourlyHistory.Refusal {
      throw UsageError.invalid(HourlyMessages.hourly(refusal))
    }
    guard !result.series.points.isEmpty else {
      if let reason = result.staleness?.reason { throw reason }
      throw ProviderError.noData(
        provider: result.series.source,
        detail: "no hourly prices for \(result.series.base)/\(result.series.quote) in "
          + span.describe(today: today))
    }
    invocation.report(result.staleness)
    return result
  }

  /// Prints the series as `--json`, an export format, or `layout` (stats: the chart).
  func run(_ invocation: Invocation, layout: HistoryCommand.Layout) async throws -> ExitCode {
    let result = try await fetch(invocation)
    let series = result.series
    let view = HistoryView(
      series: series, staleness: result.staleness, now: invocation.context.now(),
      terminal: invocation.terminal, style: invocation.style)
    try invocation.write(
      CommandOutput(
        document: HourlyDocument(series: series, stale: result.staleness != nil),
        exports: CommandOutput.priceExports(series, resolved: result.asset), pages: layout == .table
      ) { _ in
        switch layout {
        case .chart: view.chartReport()
        case .table: view.tableReport()
        case .sparkline, .interactive: view.sparklineReport()
        }
      })
    return .success
  }
}

/// The `history --interval hourly --json` document: like ``HistoryDocument``,
/// with `interval: "hourly"` and points stamped with an ISO 8601 UTC `time`.
struct HourlyDocument: Encodable {
  var base: String
  var quote: CurrencyCode
  var interval = "hourly"
  var source: String
  var fetchedAt: Date
  var stale: Bool
  var points: [SeriesPoint<Date>]
  var stats: SeriesStatistics<Date>?

  init(series: Series<Date>, stale: Bool) {
    base = series.base
    quote = series.quote
    source = series.source.name
    fetchedAt = series.fetchedAt
    self.stale = stale
    points = series.points
    stats = SeriesStatistics(points: series.points)
  }
}
